import * as pb from '../../gen/ts-proto/gateway/v1/types.js';
import type * as acc from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import type * as gw from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import * as wh from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import type * as domain from '../domain/types.js';
import type * as lists from '../domain/lists.js';
import { ConnectionVerdict } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { FlowMismatchOutcome } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import type { ConnectionTest, ProviderAccountView } from '../gateway/accounts.js';
import type { ProviderSummary } from '../gateway/payments.js';
import type { RoutingRecord } from '../domain/routing.js';
import { fromEnum, toEnum } from './enums.js';
import { declineCategory } from '../domain/declineCategories.js';
import { pixQrImage } from '../lib/pixQrCode.js';

/**
 * Domain ↔ contract, in the contract's plain-object shape (ts-proto: int64 as
 * number, Timestamp as Date). The gRPC transport uses these shapes as they are;
 * the Connect transport bridges protobuf-es messages to them.
 */

const text = (value: string | undefined): string | undefined => (value ? value : undefined);

export const paymentMethodToProto = (value: domain.PaymentMethod) => toEnum(pb.PaymentMethod, 'PAYMENT_METHOD', value) as pb.PaymentMethod;
export const transactionStatusToProto = (value: domain.TransactionStatus) => toEnum(pb.TransactionStatus, 'TRANSACTION_STATUS', value) as pb.TransactionStatus;
export const withdrawStatusToProto = (value: domain.WithdrawStatus) => toEnum(pb.WithdrawStatus, 'WITHDRAW_STATUS', value) as pb.WithdrawStatus;
export const withdrawMethodToProto = (value: domain.WithdrawMethod) => toEnum(pb.WithdrawMethod, 'WITHDRAW_METHOD', value) as pb.WithdrawMethod;
const sourceToProto = (value: domain.StatusSource) => toEnum(pb.StatusSource, 'STATUS_SOURCE', value) as pb.StatusSource;
const documentTypeToProto = (value: domain.DocumentType) => toEnum(pb.DocumentType, 'DOCUMENT_TYPE', value) as pb.DocumentType;

/**
 * A charge for an answer. Its PIX QR image is drawn from the copy-and-paste code here, at the edge (cached by code:
 * server/lib/pixQrCode.ts), unless the caller asked for none; a row stored with an image of its own (before images
 * stopped being stored, or a provider's image without a code) answers that one.
 */
export function toProtoTransaction(t: domain.Transaction, shown: { pixQrImage: boolean } = { pixQrImage: true }): pb.Transaction {
  return {
    id: t.id,
    provider: t.provider,
    providerAccountId: t.providerAccountId,
    transactionId: t.transactionId,
    paymentMethod: paymentMethodToProto(t.paymentMethod),
    status: transactionStatusToProto(t.status),
    amount: t.amount,
    pixCode: t.pixCode ?? '',
    pixQrCode: shown.pixQrImage ? (t.pixQrCode ?? (t.paymentMethod === 'PIX' && t.pixCode ? pixQrImage(t.pixCode) : '')) : '',
    billetCode: t.billetCode ?? '',
    billetUrl: t.billetUrl ?? '',
    expiresAt: t.expiresAt,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    statusHistory: t.statusHistory.map((change) => ({
      status: transactionStatusToProto(change.status),
      source: sourceToProto(change.source),
      changedAt: change.changedAt,
    })),
    installments: t.installments,
    orderId: t.orderId ?? '',
    currency: t.currency,
    origin: toEnum(pb.TransactionOrigin, 'TRANSACTION_ORIGIN', t.origin) as pb.TransactionOrigin,
    refundedAmount: t.refundedAmount,
    routing: toProtoRouting(t.routing),
    customer: t.customer && { name: t.customer.name ?? '', email: t.customer.email ?? '', document: t.customer.document ?? '', phone: '' },
    description: t.description ?? '',
    items: t.items ?? [],
    cardBrand: t.cardBrand ?? '',
    cardLast4: t.cardLast4 ?? '',
    declineReason: t.declineReason ?? '',
    declineCategory: declineCategory(t.declineReason) ?? '',
    declineMessage: t.declineMessage ?? '',
    refunds: (t.refunds ?? []).map((refund) => ({
      id: refund.id,
      amount: refund.amount,
      status: refund.status,
      providerRefundId: refund.providerRefundId ?? '',
      requestedBy: refund.requestedBy?.name ?? '',
      createdAt: refund.createdAt,
      updatedAt: refund.updatedAt,
    })),
    ...toProtoPixPayment(t.pixPayment),
  };
}

export function toProtoWithdrawal(w: domain.Withdrawal): pb.Withdrawal {
  return {
    id: w.id,
    provider: w.provider,
    providerAccountId: w.providerAccountId,
    withdrawId: w.withdrawId,
    paymentMethod: withdrawMethodToProto(w.paymentMethod),
    status: withdrawStatusToProto(w.status),
    amount: w.amount,
    approvedAt: w.approvedAt,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    statusHistory: w.statusHistory.map((change) => ({
      status: withdrawStatusToProto(change.status),
      source: sourceToProto(change.source),
      changedAt: change.changedAt,
    })),
    request: w.request && toProtoWithdrawInput(w.request),
    requestedBy: w.requestedBy?.name ?? '',
    requestedById: w.requestedBy?.id ?? '',
    review: w.review && {
      outcome: toEnum(pb.PayoutReviewOutcome, 'PAYOUT_REVIEW_OUTCOME', w.review.outcome) as pb.PayoutReviewOutcome,
      reviewedBy: w.review.by.name,
      reviewedById: w.review.by.id,
      reviewedAt: w.review.at,
    },
    refusalReason: w.refusalReason ?? '',
    routing: toProtoRouting(w.routing),
  };
}

/** What a routed charge or payout keeps of its route. */
/** The PIX payment that paid a charge: its end-to-end id, and its payer only where one of the payer's facts is known. */
function toProtoPixPayment(payment: domain.PixPayment | undefined): Pick<pb.Transaction, 'pixEndToEndId' | 'pixPayer'> {
  const payer = payment && {
    name: payment.payerName ?? '',
    document: payment.payerDocument ?? '',
    bankIspb: payment.payerBankIspb ?? '',
    bankName: payment.payerBankName ?? '',
  };
  return { pixEndToEndId: payment?.endToEndId ?? '', pixPayer: payer && Object.values(payer).some(Boolean) ? payer : undefined };
}

function toProtoRouting(routing: RoutingRecord | undefined): pb.RoutingDecision | undefined {
  return (
    routing && {
      routeId: routing.routeId,
      routeName: routing.routeName,
      ruleIndex: routing.ruleIndex,
      strategy: routing.strategy,
      attempts: routing.attempts.map((attempt) => ({ ...attempt })),
    }
  );
}

function toProtoWithdrawInput(r: domain.PayoutRequest): pb.WithdrawInput {
  return pb.WithdrawInput.fromPartial({
    paymentMethod: withdrawMethodToProto(r.paymentMethod),
    amount: r.amount,
    pixKey: r.pixKey ?? '',
    pixType: r.pixType ? (toEnum(pb.PixKeyType, 'PIX_KEY_TYPE', r.pixType) as pb.PixKeyType) : pb.PixKeyType.PIX_KEY_TYPE_UNSPECIFIED,
    description: r.description ?? '',
    withdrawReference: r.withdrawReference ?? '',
    document: r.document ?? '',
    documentType: r.documentType ? documentTypeToProto(r.documentType) : pb.DocumentType.DOCUMENT_TYPE_UNSPECIFIED,
    name: r.name ?? '',
    email: r.email ?? '',
    receiverId: r.receiverId ?? '',
    bankAccount: r.bankAccount,
  });
}

export function toProtoReceiver(r: domain.Receiver): pb.Receiver {
  const paymentMethod = r.paymentMethod ?? r.details?.paymentMethod;
  return {
    id: r.id,
    provider: r.receiverProvider,
    providerAccountId: r.providerAccountId,
    receiverId: r.receiverId,
    receiverToken: r.receiverToken ?? '',
    name: r.name,
    document: r.document,
    documentType: documentTypeToProto(r.documentType),
    email: r.email,
    status: toEnum(pb.ReceiverStatus, 'RECEIVER_STATUS', r.status) as pb.ReceiverStatus,
    balance: r.balance,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    description: r.details?.description ?? '',
    userId: r.details?.userId ?? '',
    bankAccount: r.details?.bankAccount && { ...r.details.bankAccount },
    address: r.details?.address && { ...r.details.address },
    monthlyRevenue: r.details?.monthlyRevenue ?? 0,
    paymentMethod: paymentMethod ? withdrawMethodToProto(paymentMethod) : pb.WithdrawMethod.WITHDRAW_METHOD_UNSPECIFIED,
    documents: r.details?.documents && {
      documentPhotoUrl: r.details.documents.documentPhotoUrl ?? '',
      selfieWithDocumentUrl: r.details.documents.selfieWithDocumentUrl ?? '',
      addressProofUrl: r.details.documents.addressProofUrl ?? '',
      balanceSheetUrl: r.details.documents.balanceSheetUrl ?? '',
      socialContractUrl: r.details.documents.socialContractUrl ?? '',
    },
  };
}

const statusTotalsToProto = (totals: lists.StatusTotals[]): gw.TransactionStatusTotals[] =>
  totals.map(({ status, count, amount }) => ({ status: transactionStatusToProto(status), count, amount }));
const providerTotalsToProto = (totals: lists.ProviderTotals[]): gw.ProviderTotals[] =>
  totals.map(({ provider, count, amount }) => ({ provider, count, amount }));

export function toProtoTransactionStats(s: lists.TransactionStats): gw.GetTransactionStatsResponse {
  return {
    count: s.total.count,
    amount: s.total.amount,
    ...s.outcomes,
    outcomesByPaymentMethod: s.outcomesByPaymentMethod.map(({ paymentMethod, ...outcomes }) => ({
      paymentMethod: paymentMethodToProto(paymentMethod),
      ...outcomes,
    })),
    outcomesByProvider: s.outcomesByProvider,
    declinesByCategory: s.declinesByCategory,
    byStatus: statusTotalsToProto(s.byStatus),
    byProvider: providerTotalsToProto(s.byProvider),
    byPaymentMethod: s.byPaymentMethod.map(({ paymentMethod, count, amount }) => ({ paymentMethod: paymentMethodToProto(paymentMethod), count, amount })),
    buckets: s.buckets.map(({ start, count, amount, byStatus, byProvider }) => ({
      start,
      count,
      amount,
      byStatus: statusTotalsToProto(byStatus),
      byProvider: providerTotalsToProto(byProvider),
    })),
  };
}

export function toProtoWebhookResult(result: domain.WebhookResultSummary | undefined): pb.WebhookResult | undefined {
  if (!result) return undefined;
  return {
    transactionId: result.transactionId,
    type: toEnum(pb.WebhookResultType, 'WEBHOOK_RESULT_TYPE', result.type) as pb.WebhookResultType,
    status: result.type !== 'WITHDRAW' ? transactionStatusToProto(result.status) : pb.TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED,
    withdrawStatus: result.type === 'WITHDRAW' ? withdrawStatusToProto(result.status) : pb.WithdrawStatus.WITHDRAW_STATUS_UNSPECIFIED,
  };
}

export function toProtoNotification(n: domain.WebhookNotification): pb.WebhookNotification {
  return {
    id: n.id,
    provider: n.provider,
    providerAccountId: n.providerAccountId,
    receivedAt: n.receivedAt,
    // PROCESSING is a worker's lease, not something callers act on: to them it is still RECEIVED.
    outcome: toEnum(pb.WebhookOutcome, 'WEBHOOK_OUTCOME', n.outcome === 'PROCESSING' ? 'RECEIVED' : n.outcome) as pb.WebhookOutcome,
    outcomeReason: n.outcomeReason ?? '',
    result: toProtoWebhookResult(n.result),
    subjectId: n.subjectId ?? '',
    processedAt: n.processedAt,
    attempts: n.attempts,
  };
}

/** A settlement's fields stay at their defaults while the mismatch is open. */
export function toProtoFlowMismatch({ settlement, ...mismatch }: domain.FlowMismatch): gw.FlowMismatch {
  return {
    ...mismatch,
    settledAt: settlement?.at,
    settledBy: settlement?.by.name ?? '',
    settledById: settlement?.by.id ?? '',
    settlementOutcome: toEnum(FlowMismatchOutcome, 'FLOW_MISMATCH_OUTCOME', settlement?.outcome) as FlowMismatchOutcome,
    settlementNote: settlement?.note ?? '',
  };
}

export function toProtoDelivery(d: domain.OutboundDelivery): wh.OutboundDelivery {
  return {
    id: d.id,
    eventId: d.eventId,
    transactionId: d.transactionId,
    url: d.url,
    state: toEnum(wh.DeliveryState, 'DELIVERY_STATE', d.state) as wh.DeliveryState,
    body: d.body,
    attempts: d.attempts.map((a) => ({ number: a.number, attemptedAt: a.attemptedAt, responseStatus: a.responseStatus, error: a.error ?? '' })),
    nextAttemptAt: d.nextAttemptAt,
    createdAt: d.createdAt,
  };
}

/** Each subject fills its own status field; the others stay UNSPECIFIED. */
export function toProtoEvent(e: domain.StatusEvent): pb.StatusEvent {
  const statusOf = <S extends string>(subject: domain.EventSubject, enumObject: Record<string, string | number>, prefix: string): number =>
    e.subject === subject ? toEnum(enumObject, prefix, e.status as S) : 0;
  return {
    eventId: e.eventId,
    subject: toEnum(pb.EventSubject, 'EVENT_SUBJECT', e.subject) as pb.EventSubject,
    subjectId: e.subjectId,
    providerAccountId: e.providerAccountId,
    transactionStatus: statusOf('TRANSACTION', pb.TransactionStatus, 'TRANSACTION_STATUS') as pb.TransactionStatus,
    withdrawStatus: statusOf('WITHDRAWAL', pb.WithdrawStatus, 'WITHDRAW_STATUS') as pb.WithdrawStatus,
    receiverStatus: statusOf('RECEIVER', pb.ReceiverStatus, 'RECEIVER_STATUS') as pb.ReceiverStatus,
    accountChange: statusOf('PROVIDER_ACCOUNT', pb.AccountChange, 'ACCOUNT_CHANGE') as pb.AccountChange,
    source: sourceToProto(e.source),
    occurredAt: e.occurredAt,
  };
}

export function toProtoProvider(p: ProviderSummary): pb.ProviderInfo {
  return {
    id: p.id,
    aliases: [...p.aliases],
    specGroup: p.specGroup,
    paymentMethods: p.paymentMethods.map(paymentMethodToProto),
    withdrawMethods: p.withdrawMethods.map(withdrawMethodToProto),
    operations: p.operations.map(
      (operation) =>
        toEnum(
          pb.Operation,
          'OPERATION',
          operation.replace(/[A-Z]/g, (c) => `_${c}`),
        ) as pb.Operation,
    ),
    evidence: toEnum(pb.ProviderEvidence, 'PROVIDER_EVIDENCE', p.evidence.level.replaceAll('-', '_')) as pb.ProviderEvidence,
    evidenceAddresses: [...p.evidence.addresses],
    family: p.family,
    apiVersions: [...p.apiVersions],
    takesInstallmentPlan: p.takesInstallmentPlan,
    credentialKeys: p.credentialKeys.map((key) => ({
      field: key.field === 'publicKey' ? 'public_key' : 'secret_key',
      required: key.required,
      parts: key.parts.map((part) => ({ ...part })),
    })),
    certificateFields: p.certificateFields.map((certificate) => ({
      field: certificate.field === 'certCashInUrl' ? 'cert_cash_in_url' : 'cert_cash_out_url',
      required: certificate.required,
    })),
  };
}

export const toProtoConnectionTest = (test: ConnectionTest): acc.TestProviderAccountResponse => ({
  verdict: toEnum(ConnectionVerdict, 'CONNECTION_VERDICT', test.verdict) as ConnectionVerdict,
  message: test.message,
  detail: test.detail ?? '',
});

export function toProtoAccount(a: ProviderAccountView): acc.ProviderAccount {
  return {
    id: a.id,
    provider: a.provider,
    name: a.name,
    publicKey: a.publicKey,
    hasSecretKey: a.hasSecretKey,
    baseUrl: a.baseUrl,
    platformId: a.platformId,
    certCashInUrl: a.certCashInUrl,
    certCashOutUrl: a.certCashOutUrl,
    apiVersion: a.apiVersion,
    installmentPlan: a.installmentPlan && { ...a.installmentPlan, feePercentByInstallment: [...a.installmentPlan.feePercentByInstallment] },
    hasWebhookSecret: a.hasWebhookSecret,
    notificationUrl: a.notificationUrl,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

/** The plan as the domain keeps it (only its own fields, whatever the transport's message carries besides). */
export function fromProtoInstallmentPlan(p: acc.InstallmentPlan | undefined): domain.InstallmentPlan | undefined {
  return (
    p && {
      maxInstallments: p.maxInstallments,
      interestFreeInstallments: p.interestFreeInstallments,
      feePercentByInstallment: [...p.feePercentByInstallment],
      minInstallmentValue: p.minInstallmentValue,
    }
  );
}

/** On an update, an empty plan (every field at its default) removes the account's plan. */
export function fromProtoInstallmentPlanPatch(p: acc.InstallmentPlan | undefined): domain.InstallmentPlan | null | undefined {
  const plan = fromProtoInstallmentPlan(p);
  if (!plan) return undefined;
  const empty = !plan.maxInstallments && !plan.interestFreeInstallments && !plan.feePercentByInstallment.length && !plan.minInstallmentValue;
  return empty ? null : plan;
}

export function fromProtoCustomer(c: pb.Customer | undefined): domain.Customer | undefined {
  return c && { name: c.name, email: c.email, document: c.document, phone: c.phone };
}

export function fromProtoCard(c: pb.CardInput | undefined): domain.CardInput | undefined {
  return c && { cardNumber: c.cardNumber, holderName: c.holderName, holderDocument: c.holderDocument, expMonth: c.expMonth, expYear: c.expYear, cvv: c.cvv };
}

export function fromProtoTransactionInput(t: pb.TransactionInput | undefined) {
  const input = t ?? pb.TransactionInput.fromPartial({});
  return {
    amount: input.amount,
    paymentMethod: fromEnum<domain.PaymentMethod>(pb.PaymentMethod, 'PAYMENT_METHOD', input.paymentMethod),
    customer: fromProtoCustomer(input.customer),
    items: input.items.map((item) => ({ ...item })),
    description: text(input.description),
    orderId: text(input.orderId),
    userId: text(input.userId),
    userDocument: text(input.userDocument),
    webhookUrl: text(input.webhookUrl),
    referrerUrl: text(input.referrerUrl),
    checkoutUrl: text(input.checkoutUrl),
    cardId: text(input.cardId),
    installments: input.installments || undefined,
    fingerPrints: input.fingerPrints.map((f) => ({ provider: f.provider, value: f.value })),
    address: input.address && { ...input.address },
    receiverToken: text(input.receiverToken),
    customerIp: text(input.customerIp),
    splits: input.splits.map((s) => ({ ...s, type: fromEnum<'PERCENTAGE' | 'FIXED'>(pb.SplitType, 'SPLIT_TYPE', s.type) ?? 'FIXED' })),
    currency: text(input.currency),
  };
}

export function fromProtoWithdrawInput(w: pb.WithdrawInput | undefined) {
  const input = w ?? pb.WithdrawInput.fromPartial({});
  return {
    paymentMethod: fromEnum<domain.WithdrawMethod>(pb.WithdrawMethod, 'WITHDRAW_METHOD', input.paymentMethod),
    amount: input.amount,
    pixKey: text(input.pixKey),
    pixType: fromEnum<domain.PixKeyType>(pb.PixKeyType, 'PIX_KEY_TYPE', input.pixType),
    description: text(input.description),
    withdrawReference: text(input.withdrawReference),
    document: text(input.document),
    documentType: fromEnum<domain.DocumentType>(pb.DocumentType, 'DOCUMENT_TYPE', input.documentType),
    name: text(input.name),
    email: text(input.email),
    receiverId: text(input.receiverId),
    bankAccount: input.bankAccount && { ...input.bankAccount },
  };
}

export function fromProtoReceiverInput(
  r: pb.ReceiverInput | undefined,
): (Omit<domain.ReceiverInput, 'paymentMethod'> & { paymentMethod?: domain.WithdrawMethod }) | undefined {
  if (!r) return undefined;
  return {
    paymentMethod: fromEnum<domain.WithdrawMethod>(pb.WithdrawMethod, 'WITHDRAW_METHOD', r.paymentMethod),
    name: r.name,
    document: r.document,
    documentType: fromEnum<domain.DocumentType>(pb.DocumentType, 'DOCUMENT_TYPE', r.documentType),
    email: r.email,
    description: text(r.description),
    userId: text(r.userId),
    bankAccount: r.bankAccount && { ...r.bankAccount },
    address: r.address && { ...r.address },
    monthlyRevenue: r.monthlyRevenue || undefined,
    documents: r.documents && {
      documentPhotoUrl: text(r.documents.documentPhotoUrl),
      selfieWithDocumentUrl: text(r.documents.selfieWithDocumentUrl),
      addressProofUrl: text(r.documents.addressProofUrl),
      balanceSheetUrl: text(r.documents.balanceSheetUrl),
      socialContractUrl: text(r.documents.socialContractUrl),
    },
  };
}
