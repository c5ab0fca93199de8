import type { GatewaySettingsService, PayoutApprovalSettings } from '../gateway/gatewaySettings.js';
import * as gw from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import type * as acc from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import type * as sbx from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import * as wh from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import type * as ac from '../../gen/ts-proto/gateway/v1/access_service.js';
import * as up from '../../gen/ts-proto/gateway/v1/upload_service.js';
import type { ReceiverDocumentField, UploadPurpose, UploadsService } from '../gateway/uploads.js';
import type { AccessService } from '../gateway/accessControl.js';
import type { OperatorsService } from '../gateway/operators.js';
import type { OperatorTotpService } from '../gateway/operatorTotp.js';
import type { CallContext } from './callGuard.js';
import * as pb from '../../gen/ts-proto/gateway/v1/types.js';
import type { OutboundService } from '../gateway/outbound.js';
import type * as domain from '../domain/types.js';
import type { WebhookOutcome as DomainOutcome } from '../domain/types.js';
import type { TimeBucket } from '../domain/lists.js';
import type { ListsService } from '../gateway/lists.js';
import type { AccountsService } from '../gateway/accounts.js';
import type { BalancesService } from '../gateway/balances.js';
import type { RoutesService } from '../gateway/routes.js';
import type { DisputesService } from '../gateway/disputes.js';
import type { NotificationsService } from '../gateway/notifications.js';
import type { PaymentsService } from '../gateway/payments.js';
import type { PayoutsService } from '../gateway/payouts.js';
import type { SandboxService } from '../gateway/sandbox.js';
import type { StatusEvents } from '../gateway/events.js';
import type { UnknownOutcomesService } from '../gateway/unknownOutcomes.js';
import type { FlowMismatchesService } from '../gateway/flowMismatches.js';
import { enumFilter, enumListFilter, fromEnum } from './enums.js';
import { invalidArgument, permissionDenied } from '../lib/errors.js';
import type { Permission } from '../gateway/access.js';
import { requireOrderedRange } from '../gateway/validation.js';
import {
  fromProtoCard,
  fromProtoCustomer,
  fromProtoInstallmentPlan,
  fromProtoInstallmentPlanPatch,
  fromProtoReceiverInput,
  fromProtoTransactionInput,
  fromProtoWithdrawInput,
  toProtoAccount,
  toProtoConnectionTest,
  toProtoDelivery,
  toProtoEvent,
  toProtoFlowMismatch,
  toProtoNotification,
  toProtoProvider,
  toProtoReceiver,
  toProtoTransaction,
  toProtoTransactionStats,
  toProtoWithdrawal,
} from './protoMapper.js';

export interface UseCases {
  payments: PaymentsService;
  payouts: PayoutsService;
  accounts: AccountsService;
  balances: BalancesService;
  notifications: NotificationsService;
  sandbox: SandboxService;
  outbound: OutboundService;
  events: StatusEvents;
  unknownOutcomes: UnknownOutcomesService;
  flowMismatches: FlowMismatchesService;
  access: AccessService;
  operators: OperatorsService;
  operatorTotp: OperatorTotpService;
  lists: ListsService;
  uploads: UploadsService;
  routes: RoutesService;
  disputes: DisputesService;
  settings: GatewaySettingsService;
}

const optionalText = (value: string) => value || undefined;

/** What a WatchEvents caller needs besides events:read to watch a subject (charges' and payouts' events need nothing more). */
const SUBJECT_PERMISSIONS: Partial<Record<domain.EventSubject, Permission>> = { RECEIVER: 'receivers:read', PROVIDER_ACCOUNT: 'accounts:read' };

const pageRequest = (r: { pageSize: number; pageToken: string }) => ({ pageSize: r.pageSize, pageToken: optionalText(r.pageToken) });

/** The filters the back-office's lists share. */
const listFilter = (r: { provider: string; providerAccountId: string; createdFrom?: Date; createdTo?: Date; query: string }) => ({
  provider: optionalText(r.provider),
  providerAccountId: optionalText(r.providerAccountId),
  createdFrom: r.createdFrom,
  createdTo: r.createdTo,
  query: optionalText(r.query),
});

/**
 * Each RPC as a function from request to response in the contract's plain shape.
 * Both transports serve exactly these; nothing here decides anything.
 */
export function paymentGatewayHandlers(u: UseCases) {
  return {
    createCardToken: async (r: gw.CreateCardTokenRequest): Promise<gw.CreateCardTokenResponse> => ({
      cardToken: await u.payments.createCardToken(r.providerAccountId, fromProtoCard(r.card)),
    }),
    createCardId: async (r: gw.CreateCardIdRequest): Promise<gw.CreateCardIdResponse> => ({
      cardId: await u.payments.createCardId(r.providerAccountId, {
        cardToken: optionalText(r.cardToken),
        card: fromProtoCard(r.card),
        customer: fromProtoCustomer(r.customer),
      }),
    }),
    revokeSavedCard: async (r: gw.RevokeSavedCardRequest): Promise<gw.RevokeSavedCardResponse> => ({
      cardId: r.cardId,
      revokedAt: await u.payments.revokeSavedCard(r.providerAccountId, r.cardId),
    }),
    createTransaction: async (r: gw.CreateTransactionRequest): Promise<gw.CreateTransactionResponse> => ({
      transaction: toProtoTransaction(
        await u.payments.createTransaction({
          providerAccountId: r.providerAccountId,
          route: optionalText(r.route),
          cardBin: optionalText(r.cardBin),
          cardBrand: optionalText(r.cardBrand),
          idempotencyKey: optionalText(r.idempotencyKey),
          transaction: fromProtoTransactionInput(r.transaction),
        }),
        { pixQrImage: !r.omitPixQrImage },
      ),
    }),
    getTransaction: async (r: gw.GetTransactionRequest): Promise<gw.GetTransactionResponse> => ({
      transaction: toProtoTransaction(await u.payments.getTransaction(r.id, r.refresh), { pixQrImage: !r.omitPixQrImage }),
    }),
    refoundTransaction: async (r: gw.RefoundTransactionRequest, _signal: AbortSignal, { principal }: CallContext): Promise<gw.RefoundTransactionResponse> => {
      const { refund, transaction } = await u.payments.refoundTransaction({
        providerAccountId: r.providerAccountId,
        id: r.id,
        amount: r.amount || undefined,
        idempotencyKey: optionalText(r.idempotencyKey),
        requestedBy: { id: principal.id, name: principal.name },
      });
      return { refund, transaction: toProtoTransaction(transaction) };
    },
    withdraw: async (r: gw.WithdrawRequest, _signal: AbortSignal, { principal }: CallContext): Promise<gw.WithdrawResponse> => ({
      withdrawal: toProtoWithdrawal(
        await u.payouts.withdraw(
          {
            providerAccountId: r.providerAccountId,
            route: optionalText(r.route),
            idempotencyKey: optionalText(r.idempotencyKey),
            withdraw: fromProtoWithdrawInput(r.withdraw),
          },
          principal,
        ),
      ),
    }),
    getWithdraw: async (r: gw.GetWithdrawRequest): Promise<gw.GetWithdrawResponse> => ({
      withdrawal: toProtoWithdrawal(await u.payments.getWithdraw(r.id, r.refresh)),
    }),
    approveWithdraw: async (r: gw.ApproveWithdrawRequest, _signal: AbortSignal, { principal }: CallContext): Promise<gw.ApproveWithdrawResponse> => ({
      withdrawal: toProtoWithdrawal(await u.payouts.approve(r.id, principal)),
    }),
    rejectWithdraw: async (r: gw.RejectWithdrawRequest, _signal: AbortSignal, { principal }: CallContext): Promise<gw.RejectWithdrawResponse> => ({
      withdrawal: toProtoWithdrawal(await u.payouts.reject(r.id, principal, r.reason)),
    }),
    createReceiver: async (r: gw.CreateReceiverRequest): Promise<gw.CreateReceiverResponse> => ({
      receiver: toProtoReceiver(await u.payments.createReceiver(r.providerAccountId, fromProtoReceiverInput(r.receiver))),
    }),
    getReceiver: async (r: gw.GetReceiverRequest): Promise<gw.GetReceiverResponse> => ({
      receiver: toProtoReceiver(await u.payments.getReceiver(r.providerAccountId, r.receiverId)),
    }),
    processWebhook: async (r: gw.ProcessWebhookRequest): Promise<gw.ProcessWebhookResponse> => ({
      notification: toProtoNotification(
        await u.notifications.receive({ providerAccountId: r.providerAccountId, body: Buffer.from(r.body), headers: r.headers }),
      ),
    }),
    calculateInstallments: async (r: gw.CalculateInstallmentsRequest): Promise<gw.CalculateInstallmentsResponse> => ({
      options: await u.payments.calculateInstallments(r.providerAccountId, r.amount, r.cardBin),
    }),
    listProviders: async (_r: gw.ListProvidersRequest): Promise<gw.ListProvidersResponse> => ({
      providers: u.payments.listProviders().map(toProtoProvider),
    }),
    watchEvents: async function* (r: gw.WatchEventsRequest, signal: AbortSignal, { principal }: CallContext): AsyncGenerator<gw.WatchEventsResponse> {
      const subjects = enumListFilter<domain.EventSubject>(pb.EventSubject, 'EVENT_SUBJECT', r.subjects, 'subjects');
      // events:read lets a caller watch charges and payouts; receivers' and accounts' events need their own reads too.
      for (const subject of subjects) {
        const needed = SUBJECT_PERMISSIONS[subject];
        if (needed && !principal.permissions.has(needed)) throw permissionDenied(needed);
      }
      for await (const event of u.events.watch(optionalText(r.afterEventId), r.providerAccountIds, subjects, signal)) yield { event: toProtoEvent(event) };
    },
    listUnconfirmedRequests: async (r: gw.ListUnconfirmedRequestsRequest): Promise<gw.ListUnconfirmedRequestsResponse> => ({
      requests: (await u.unknownOutcomes.list(optionalText(r.providerAccountId))).map((key) => ({
        id: key.id,
        providerAccountId: key.providerAccountId,
        operation: key.operation,
        idempotencyKey: key.key,
        failure: key.failure ?? '',
        checks: key.resolveAttempts,
        createdAt: key.createdAt,
        unknownSince: key.updatedAt,
        nextCheckAt: key.nextCheckAt ?? undefined,
        ageSeconds: Math.max(0, Math.floor((Date.now() - key.createdAt.getTime()) / 1000)),
      })),
    }),
    listFlowMismatches: async (r: gw.ListFlowMismatchesRequest): Promise<gw.ListFlowMismatchesResponse> => ({
      mismatches: (
        await u.flowMismatches.list({
          providerAccountId: optionalText(r.providerAccountId),
          subjectId: optionalText(r.subjectId),
          state: enumFilter<domain.FlowMismatchState>(gw.FlowMismatchState, 'FLOW_MISMATCH_STATE', r.state, 'state'),
        })
      ).map(toProtoFlowMismatch),
    }),
    settleFlowMismatch: async (r: gw.SettleFlowMismatchRequest, _signal: AbortSignal, { principal }: CallContext): Promise<gw.SettleFlowMismatchResponse> => {
      const outcome = fromEnum<domain.FlowMismatchOutcome>(gw.FlowMismatchOutcome, 'FLOW_MISMATCH_OUTCOME', r.outcome);
      if (!outcome)
        throw invalidArgument(
          'outcome',
          'outcome must be FLOW_MISMATCH_OUTCOME_ACCEPTED_RECORD or FLOW_MISMATCH_OUTCOME_CORRECTED_AT_PROVIDER',
          'UNKNOWN_VALUE',
        );
      return { mismatch: toProtoFlowMismatch(await u.flowMismatches.settle(r.id, { outcome, note: r.note }, principal)) };
    },
    listTransactions: async (r: gw.ListTransactionsRequest): Promise<gw.ListTransactionsResponse> => {
      const { items, nextPageToken } = await u.lists.listTransactions(
        {
          ...listFilter(r),
          statuses: enumListFilter<domain.TransactionStatus>(pb.TransactionStatus, 'TRANSACTION_STATUS', r.statuses, 'statuses'),
          paymentMethod: enumFilter<domain.PaymentMethod>(pb.PaymentMethod, 'PAYMENT_METHOD', r.paymentMethod, 'payment_method'),
        },
        pageRequest(r),
      );
      // A list carries no heavy fields: no QR image is drawn for it.
      return { transactions: items.map((item) => toProtoTransaction(item, { pixQrImage: false })), nextPageToken: nextPageToken ?? '' };
    },
    listWithdrawals: async (r: gw.ListWithdrawalsRequest): Promise<gw.ListWithdrawalsResponse> => {
      const { items, nextPageToken } = await u.lists.listWithdrawals(
        {
          ...listFilter(r),
          statuses: enumListFilter<domain.WithdrawStatus>(pb.WithdrawStatus, 'WITHDRAW_STATUS', r.statuses, 'statuses'),
          paymentMethod: enumFilter<domain.WithdrawMethod>(pb.WithdrawMethod, 'WITHDRAW_METHOD', r.paymentMethod, 'payment_method'),
        },
        pageRequest(r),
      );
      return { withdrawals: items.map(toProtoWithdrawal), nextPageToken: nextPageToken ?? '' };
    },
    listReceivers: async (r: gw.ListReceiversRequest): Promise<gw.ListReceiversResponse> => {
      const { items, nextPageToken } = await u.lists.listReceivers(
        { ...listFilter(r), statuses: enumListFilter<domain.ReceiverStatus>(pb.ReceiverStatus, 'RECEIVER_STATUS', r.statuses, 'statuses') },
        pageRequest(r),
      );
      return { receivers: items.map(toProtoReceiver), nextPageToken: nextPageToken ?? '' };
    },
    getTransactionStats: async (r: gw.GetTransactionStatsRequest): Promise<gw.GetTransactionStatsResponse> =>
      toProtoTransactionStats(
        await u.lists.transactionStats({
          createdFrom: r.createdFrom,
          createdTo: r.createdTo,
          provider: optionalText(r.provider),
          providerAccountId: optionalText(r.providerAccountId),
          bucket: enumFilter<TimeBucket>(gw.TimeBucket, 'TIME_BUCKET', r.bucket, 'bucket'),
          timeZone: optionalText(r.timeZone),
          currency: optionalText(r.currency),
        }),
      ),
    settleUnconfirmedRequest: async (r: gw.SettleUnconfirmedRequestRequest): Promise<gw.SettleUnconfirmedRequestResponse> => {
      const outcome = fromEnum<'SUCCEEDED' | 'FAILED'>(gw.SettlementOutcome, 'SETTLEMENT_OUTCOME', r.outcome);
      if (!outcome) throw invalidArgument('outcome', 'outcome must be SETTLEMENT_OUTCOME_SUCCEEDED or SETTLEMENT_OUTCOME_FAILED', 'UNKNOWN_VALUE');
      const settled = await u.unknownOutcomes.settle(
        r.id,
        outcome === 'SUCCEEDED' ? { outcome, providerId: optionalText(r.providerId) } : { outcome, note: r.note },
      );
      return { subjectId: settled.subjectId ?? '' };
    },
  };
}

export function providerAccountHandlers(u: UseCases) {
  return {
    createProviderAccount: async (r: acc.CreateProviderAccountRequest): Promise<acc.CreateProviderAccountResponse> => ({
      providerAccount: toProtoAccount(await u.accounts.create({ ...r, installmentPlan: fromProtoInstallmentPlan(r.installmentPlan) })),
    }),
    getProviderAccount: async (r: acc.GetProviderAccountRequest): Promise<acc.GetProviderAccountResponse> => ({
      providerAccount: toProtoAccount(await u.accounts.get(r.id)),
    }),
    listProviderAccounts: async (r: acc.ListProviderAccountsRequest): Promise<acc.ListProviderAccountsResponse> => ({
      providerAccounts: (await u.accounts.list(optionalText(r.provider))).map(toProtoAccount),
    }),
    updateProviderAccount: async ({ id, ...patch }: acc.UpdateProviderAccountRequest): Promise<acc.UpdateProviderAccountResponse> => ({
      providerAccount: toProtoAccount(await u.accounts.update(id, { ...patch, installmentPlan: fromProtoInstallmentPlanPatch(patch.installmentPlan) })),
    }),
    deleteProviderAccount: async (r: acc.DeleteProviderAccountRequest): Promise<acc.DeleteProviderAccountResponse> => {
      await u.accounts.delete(r.id);
      return {};
    },
    getAccountBalance: async (r: acc.GetAccountBalanceRequest): Promise<acc.GetAccountBalanceResponse> => {
      const { available, pending, currency, readAt } = await u.balances.balance(r.providerAccountId);
      return { available, ...(pending === undefined ? {} : { pending }), currency, readAt };
    },
    getAccountStatement: async (r: acc.GetAccountStatementRequest): Promise<acc.GetAccountStatementResponse> =>
      u.balances.statement({ providerAccountId: optionalText(r.providerAccountId), fromDay: r.fromDay, toDay: r.toDay }),
    testProviderAccount: async (r: acc.TestProviderAccountRequest): Promise<acc.TestProviderAccountResponse> =>
      toProtoConnectionTest(await (r.candidate ? u.accounts.testCandidate(r.id, r.candidate) : u.accounts.testConnection(r.id))),
  };
}

export function sandboxHandlers(u: UseCases) {
  return {
    simulatePayment: async (r: sbx.SimulatePaymentRequest): Promise<sbx.SimulatePaymentResponse> => {
      const { transaction, notification } = await u.sandbox.simulatePayment(r.id);
      return { transaction: toProtoTransaction(transaction), notification: notification && { ...notification } };
    },
  };
}

export function webhookHandlers(u: UseCases) {
  return {
    listWebhookNotifications: async (r: wh.ListWebhookNotificationsRequest): Promise<wh.ListWebhookNotificationsResponse> => {
      const received = timeRange(r.receivedFrom, r.receivedTo, { from: 'received_from', to: 'received_to' });
      const { notifications, nextPageToken } = await u.notifications.list(
        {
          provider: optionalText(r.provider)?.toUpperCase(),
          providerAccountId: optionalText(r.providerAccountId),
          subjectId: optionalText(r.subjectId),
          outcome: fromEnum<DomainOutcome>(pb.WebhookOutcome, 'WEBHOOK_OUTCOME', r.outcome),
          receivedFrom: received.from,
          receivedTo: received.to,
        },
        Math.min(r.pageSize || 50, 500),
        optionalText(r.pageToken),
      );
      return { notifications: notifications.map(toProtoNotification), nextPageToken: nextPageToken ?? '' };
    },
    getWebhookNotification: async (r: wh.GetWebhookNotificationRequest): Promise<wh.GetWebhookNotificationResponse> => {
      const { body, headers, query, ...notification } = await u.notifications.get(r.id);
      return { notification: toProtoNotification(notification), body, headers, query };
    },
    reprocessWebhookNotification: async (r: wh.ReprocessWebhookNotificationRequest): Promise<wh.ReprocessWebhookNotificationResponse> => ({
      notification: toProtoNotification(await u.notifications.reprocess(r.id)),
    }),
    listOutboundDeliveries: async (r: wh.ListOutboundDeliveriesRequest): Promise<wh.ListOutboundDeliveriesResponse> => {
      const created = timeRange(r.createdFrom, r.createdTo, { from: 'created_from', to: 'created_to' });
      const { deliveries, nextPageToken } = await u.outbound.list(
        {
          transactionId: optionalText(r.transactionId),
          state: enumFilter<domain.DeliveryState>(wh.DeliveryState, 'DELIVERY_STATE', r.state, 'state'),
          url: optionalText(r.url),
          createdFrom: created.from,
          createdTo: created.to,
        },
        Math.min(r.pageSize || 50, 500),
        optionalText(r.pageToken),
      );
      return { deliveries: deliveries.map(toProtoDelivery), nextPageToken: nextPageToken ?? '' };
    },
    resendOutboundDelivery: async (r: wh.ResendOutboundDeliveryRequest): Promise<wh.ResendOutboundDeliveryResponse> => ({
      delivery: toProtoDelivery(await u.outbound.resend(r.id)),
    }),
    resendOutboundDeliveries: async (r: wh.ResendOutboundDeliveriesRequest): Promise<wh.ResendOutboundDeliveriesResponse> => {
      const created = r.filter && timeRange(r.filter.createdFrom, r.filter.createdTo, { from: 'filter.created_from', to: 'filter.created_to' });
      const { queued, skipped, notFound } = await u.outbound.resendMany({
        ids: r.ids,
        filter: r.filter && { url: optionalText(r.filter.url), createdFrom: created?.from, createdTo: created?.to },
        validateOnly: r.validateOnly,
      });
      return { queued, skipped, notFound };
    },
  };
}

/** A time filter: `from` must come before `to`; the error names the request's fields. */
function timeRange(from: Date | undefined, to: Date | undefined, fields = { from: 'from', to: 'to' }): { from?: Date; to?: Date } {
  requireOrderedRange(fields.to, from?.getTime(), to?.getTime(), `${fields.to} must be after ${fields.from}`);
  return { from, to };
}

/** The four-eyes limit as the contract carries it. */
const toProtoPayoutApproval = (settings: PayoutApprovalSettings): ac.PayoutApprovalSettings => ({
  ...(settings.aboveCents === undefined ? {} : { approvalAboveCents: settings.aboveCents }),
  fromEnvironment: settings.fromEnvironment,
  updatedAt: settings.updatedAt,
});

export function accessHandlers(u: UseCases) {
  return {
    getPayoutApprovalSettings: async (): Promise<ac.GetPayoutApprovalSettingsResponse> => ({
      settings: toProtoPayoutApproval(await u.settings.payoutApproval()),
    }),
    updatePayoutApprovalSettings: async (r: ac.UpdatePayoutApprovalSettingsRequest): Promise<ac.UpdatePayoutApprovalSettingsResponse> => ({
      settings: toProtoPayoutApproval(await u.settings.updatePayoutApproval(r.approvalAboveCents)),
    }),
    createServiceToken: async (r: ac.CreateServiceTokenRequest, _signal: AbortSignal, context: CallContext): Promise<ac.CreateServiceTokenResponse> => {
      const { token, secret } = await u.access.createToken(context.principal, r);
      return { token, secret };
    },
    listServiceTokens: async (r: ac.ListServiceTokensRequest): Promise<ac.ListServiceTokensResponse> => ({
      tokens: await u.access.listTokens(r.includeRevoked),
    }),
    revokeServiceToken: async (r: ac.RevokeServiceTokenRequest): Promise<ac.RevokeServiceTokenResponse> => ({
      token: await u.access.revokeToken(r.id),
    }),
    listAuditEvents: async (r: ac.ListAuditEventsRequest): Promise<ac.ListAuditEventsResponse> => {
      const { events, nextPageToken } = await u.access.listAudit(
        {
          actorId: optionalText(r.actorId),
          actorName: optionalText(r.actorName.trim()),
          action: optionalText(r.action),
          resource: optionalText(r.resource),
          ...timeRange(r.from, r.to),
        },
        Math.min(r.pageSize || 50, 500),
        optionalText(r.pageToken),
      );
      return { events, nextPageToken: nextPageToken ?? '' };
    },
    createOperator: async (r: ac.CreateOperatorRequest): Promise<ac.CreateOperatorResponse> => {
      const { initialPassword, ...operator } = await u.operators.create(r);
      return { operator, initialPassword: initialPassword ?? '' };
    },
    listOperators: async (_r: ac.ListOperatorsRequest): Promise<ac.ListOperatorsResponse> => ({
      operators: await u.operators.list(),
    }),
    updateOperator: async ({ id, ...patch }: ac.UpdateOperatorRequest): Promise<ac.UpdateOperatorResponse> => {
      const { operator, generatedPassword } = await u.operators.update(id, patch);
      return { operator, generatedPassword: generatedPassword ?? '' };
    },
    changeOwnPassword: async (r: ac.ChangeOwnPasswordRequest, _signal: AbortSignal, { principal }: CallContext): Promise<ac.ChangeOwnPasswordResponse> => {
      await u.operators.changeOwnPassword(principal, r.currentPassword, r.newPassword);
      return {};
    },
    beginTotpEnrollment: async (_r: ac.BeginTotpEnrollmentRequest, _signal: AbortSignal, { principal }: CallContext) => u.operatorTotp.begin(principal),
    confirmTotpEnrollment: async (r: ac.ConfirmTotpEnrollmentRequest, _signal: AbortSignal, { principal }: CallContext) => ({
      operator: await u.operatorTotp.confirm(principal, r.code),
    }),
    disableTotp: async (r: ac.DisableTotpRequest, _signal: AbortSignal, { principal }: CallContext): Promise<ac.DisableTotpResponse> => ({
      operator: await u.operatorTotp.disable(principal, r.code),
    }),
    whoAmI: async (_r: ac.WhoAmIRequest, _signal: AbortSignal, { principal }: CallContext): Promise<ac.WhoAmIResponse> => ({
      totpEnrollmentRequired: principal.totpEnrollmentRequired === true,
      kind: principal.kind,
      id: principal.id,
      name: principal.name,
      role: principal.role ?? '',
      permissions: [...principal.permissions].sort(),
      providerAccountIds: [...(principal.providerAccountIds ?? [])],
    }),
  };
}

/** ReceiverDocument's values, as the fields of ReceiverDocuments. */
const RECEIVER_DOCUMENTS: Partial<Record<up.ReceiverDocument, ReceiverDocumentField>> = {
  [up.ReceiverDocument.RECEIVER_DOCUMENT_DOCUMENT_PHOTO]: 'documentPhotoUrl',
  [up.ReceiverDocument.RECEIVER_DOCUMENT_SELFIE_WITH_DOCUMENT]: 'selfieWithDocumentUrl',
  [up.ReceiverDocument.RECEIVER_DOCUMENT_ADDRESS_PROOF]: 'addressProofUrl',
  [up.ReceiverDocument.RECEIVER_DOCUMENT_BALANCE_SHEET]: 'balanceSheetUrl',
  [up.ReceiverDocument.RECEIVER_DOCUMENT_SOCIAL_CONTRACT]: 'socialContractUrl',
};

/** What each purpose is for the use case; unset (or one this build does not know): a receiver's document. */
const UPLOAD_PURPOSES: Partial<Record<up.UploadPurpose, UploadPurpose>> = {
  [up.UploadPurpose.UPLOAD_PURPOSE_DISPUTE_EVIDENCE]: 'DISPUTE_EVIDENCE',
  [up.UploadPurpose.UPLOAD_PURPOSE_CERTIFICATE]: 'CERTIFICATE',
};

export function uploadHandlers(u: UseCases) {
  return {
    createUploadLink: async (r: up.CreateUploadLinkRequest): Promise<up.CreateUploadLinkResponse> => {
      const link = await u.uploads.createUploadLink({
        fileName: r.fileName,
        contentType: r.contentType,
        sizeBytes: r.sizeBytes,
        purpose: UPLOAD_PURPOSES[r.purpose] ?? 'RECEIVER_DOCUMENT',
      });
      return {
        uploadUrl: link.url,
        headers: link.headers,
        objectKey: link.key,
        publicUrl: link.publicUrl,
        expiresAt: link.expiresAt,
        publicRead: link.publicRead,
      };
    },
    createDocumentReadLink: async (r: up.CreateDocumentReadLinkRequest): Promise<up.CreateDocumentReadLinkResponse> => {
      const link = await u.uploads.createDocumentReadLink(r.providerAccountId, r.receiverId, RECEIVER_DOCUMENTS[r.document]);
      return { url: link.url, expiresAt: link.expiresAt };
    },
  };
}
