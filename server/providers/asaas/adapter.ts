import type {
  PaymentMethod,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { brazilDate } from '../../lib/expiry.js';
import { invalidArgument } from '../../lib/errors.js';
import { identifiedObject, isRecord, parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { providerPixKey } from '../../lib/pixKey.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * ASAAS (spec doc 2, group 1): the spec shows no paths for group 1, so Asaas's
 * public API v3 (official documentation, provider research): host
 * api.asaas.com/v3, the API key in the `access_token` header, amounts in
 * reais; a charge needs a customer (POST /customers), then POST /payments
 * `{customer, billingType PIX|BOLETO|CREDIT_CARD, value, dueDate, …}`; the PIX
 * code by GET /payments/{id}/pixQrCode `{payload, encodedImage}`, the boleto's
 * line by GET /payments/{id}/identificationField; refunds by POST
 * /payments/{id}/refund `{value}`; PIX payouts by POST /transfers `{value,
 * pixAddressKey, pixAddressKeyType, operationType: PIX}` and GET
 * /transfers/{id}; webhooks `{id: evt_…, event, payment | transfer}` with the
 * configured token in the `asaas-access-token` header.
 */

// ---------------------------------------------------------------- declaration

export const ASAAS: ProviderDeclaration = {
  identity: { id: 'ASAAS', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.asaas.com/v3' },
  capabilities: { paymentMethods: ['PIX', 'BILLET', 'CREDIT_CARD'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true },
  auth: { type: 'apiKey', header: 'access_token', value: 'secretKey' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  sources:
    "host `api.asaas.com/v3`, `access_token`, reais, /customers, /payments with billingType, /payments/{id}/pixQrCode, /payments/{id}/identificationField, /payments/{id}/refund, /transfers, the payment and transfer statuses, PAYMENT_*/TRANSFER_* events with `evt_` ids, the `asaas-access-token` header: research and official documentation (docs.asaas.com); the status readings of document 1 §4 and the customer created per charge: the gateway's decision",
};

export const ASAAS_PATHS = {
  customers: '/customers',
  payments: '/payments',
  payment: '/payments/{id}',
  pixQrCode: '/payments/{id}/pixQrCode',
  identificationField: '/payments/{id}/identificationField',
  refund: '/payments/{id}/refund',
  transfers: '/transfers',
  transfer: '/transfers/{id}',
} as const;

const ASAAS_METHODS = paymentMethodCodec<PaymentMethod, string>({ PIX: 'PIX', BILLET: 'BOLETO', CREDIT_CARD: 'CREDIT_CARD' });

// ---------------------------------------------------------------- statuses

/**
 * Payment statuses (Asaas's enum) by document 1 §4: received or confirmed
 * APPROVED (CONFIRMED is paid, its balance not yet released); a refund in
 * progress is still APPROVED until REFUNDED; chargebacks CHARGEBACK; OVERDUE
 * (an unpaid PIX or boleto past its day) REJECTED; unknown REJECTED.
 */
export const ASAAS_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ pending: 'PENDING', awaiting_risk_analysis: 'PENDING', authorized: 'PENDING' },
    ...{ confirmed: 'APPROVED', received: 'APPROVED', received_in_cash: 'APPROVED', refund_requested: 'APPROVED', refund_in_progress: 'APPROVED' },
    ...{ refunded: 'REFUNDED', partially_refunded: 'APPROVED' },
    ...{ chargeback_requested: 'CHARGEBACK', chargeback_dispute: 'CHARGEBACK', awaiting_chargeback_reversal: 'CHARGEBACK' },
    ...{ overdue: 'REJECTED', deleted: 'REJECTED' },
  },
  'REJECTED',
);

/** Transfer statuses: DONE paid, CANCELLED given back, FAILED REJECTED; PENDING and BANK_PROCESSING (and anything else) on their way. */
export const ASAAS_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>({ done: 'APPROVED', cancelled: 'CANCELED', failed: 'REJECTED' }, 'PENDING');

// ---------------------------------------------------------------- request mappers

export function toAsaasCustomer(customer: NonNullable<TransactionInput['customer']>) {
  return { name: customer.name, cpfCnpj: digitsOnly(customer.document), email: customer.email, mobilePhone: nationalPhoneDigits(customer.phone) };
}

export function toAsaasPayment(input: TransactionInput, terms: { customer: string; value: number; dueDate: Date }) {
  return {
    customer: terms.customer,
    billingType: ASAAS_METHODS.toProvider(input.paymentMethod),
    value: terms.value,
    dueDate: brazilDate(terms.dueDate),
    ...(input.orderId ? { externalReference: input.orderId } : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.paymentMethod === 'CREDIT_CARD' ? { creditCardToken: input.cardId, remoteIp: input.customerIp } : {}),
    ...(input.paymentMethod === 'CREDIT_CARD' && input.installments > 1 ? { installmentCount: input.installments, totalValue: terms.value } : {}),
  };
}

// ---------------------------------------------------------------- readers

interface AsaasObject {
  value?: unknown;
  billingType?: unknown;
  bankSlipUrl?: unknown;
}

export const asaasObject = (answer: unknown) => identifiedObject<AsaasObject>(answer, []);

/** A webhook: PAYMENT_* events about a payment, TRANSFER_* about a transfer; the object's own status; the event id. */
export function readAsaasWebhook(body: Buffer): (ObjectNotification & { eventId?: string }) | undefined {
  const event = parseJsonObject(body);
  const name = textOf(event?.event) ?? '';
  const kind = name.startsWith('PAYMENT_') ? 'payment' : name.startsWith('TRANSFER_') ? 'transfer' : undefined;
  const object = kind && event ? asaasObject(event[kind]) : undefined;
  if (!object) return undefined;
  const eventId = idText(event?.id);
  return { kind: kind === 'payment' ? 'transaction' : 'withdrawal', id: object.id, status: object.status, ...(eventId ? { eventId } : {}) };
}

// ---------------------------------------------------------------- operations

export class AsaasAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = ASAAS, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: ASAAS_STATUSES, withdrawalStatuses: ASAAS_WITHDRAWAL_STATUSES });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    // Asaas charges a customer: one is needed before anything is sent.
    if (!input.customer) throw invalidArgument('transaction.customer', 'transaction.customer is required for ASAAS charges');
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const http = this.http(ctx);
    const customer = await this.exchange('createTransaction', prefix, () => http.post<unknown>(ASAAS_PATHS.customers, toAsaasCustomer(input.customer!)));
    const customerId = this.mapped(
      'createTransaction',
      prefix,
      () => (isRecord(customer) ? idText(customer.id) : undefined) ?? unusableAnswer('id do cliente'),
    );
    const seconds = input.paymentMethod === 'BILLET' ? this.boletoExpirySeconds : this.pixExpirySeconds;
    const expiresAt = this.expiresAt(seconds);
    const body = toAsaasPayment(input, { customer: customerId, value: this.toProviderAmount(input.amount), dueDate: expiresAt });
    const created = await this.exchange('createTransaction', prefix, () => http.post<unknown>(ASAAS_PATHS.payments, body));
    const payment = this.mapped('createTransaction', prefix, () => asaasObject(created) ?? unusableAnswer('id e status da cobrança'));
    const base: TransactionResult = {
      paymentMethod: input.paymentMethod,
      transactionId: payment.id,
      status: this.transactionStatus(payment.status),
      amount: this.mapped('createTransaction', prefix, () => this.amountOr(payment.value, input.amount, 'valor da cobrança')),
    };
    const path = (template: string) => fillPath(template, { id: payment.id });
    if (input.paymentMethod === 'PIX') {
      const qr = await this.exchange('createTransaction', prefix, () => http.get<unknown>(path(ASAAS_PATHS.pixQrCode)));
      return this.mapped('createTransaction', prefix, () => {
        const pixCode = (isRecord(qr) ? textOf(qr.payload) : undefined) ?? unusableAnswer('payload do QR Code PIX');
        const image = isRecord(qr) ? textOf(qr.encodedImage) : undefined;
        return { ...base, pixCode, ...(image ? { pixQrCode: `data:image/png;base64,${image}` } : {}), expiresAt };
      });
    }
    if (input.paymentMethod === 'BILLET') {
      const line = await this.exchange('createTransaction', prefix, () => http.get<unknown>(path(ASAAS_PATHS.identificationField)));
      return this.mapped('createTransaction', prefix, () => ({
        ...base,
        billetCode: (isRecord(line) ? textOf(line.identificationField) : undefined) ?? unusableAnswer('linha digitável do boleto'),
        billetUrl: textOf(payment.bankSlipUrl) ?? unusableAnswer('bankSlipUrl do boleto'),
        expiresAt,
      }));
    }
    return base;
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(ASAAS_PATHS.payment, { id: transactionId })));
    return this.mapped('getTransaction', prefix, () => {
      const payment = asaasObject(answer) ?? unusableAnswer('id e status da cobrança');
      return {
        paymentMethod: ASAAS_METHODS.fromProvider(payment.billingType) ?? 'PIX',
        transactionId: payment.id,
        status: this.transactionStatus(payment.status),
        amount: this.amountOr(payment.value, undefined, 'valor da cobrança'),
      };
    });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const answer = await this.exchange('refoundTransaction', prefix, () =>
      this.http(ctx).post<unknown>(fillPath(ASAAS_PATHS.refund, { id: transactionId }), { value: this.toProviderAmount(amount) }),
    );
    return this.mapped('refoundTransaction', prefix, () => {
      const payment = asaasObject(answer) ?? unusableAnswer('situação do estorno');
      const status = payment.status.toUpperCase();
      return {
        refundId: payment.id,
        status: ['REFUNDED', 'REFUND_REQUESTED', 'REFUND_IN_PROGRESS', 'PARTIALLY_REFUNDED'].includes(status) || status === 'RECEIVED',
      };
    });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const { key, type } = providerPixKey(payout.pixKey, payout.pixType, { randomAs: 'EVP' });
    const body = {
      value: this.toProviderAmount(input.amount),
      pixAddressKey: key,
      pixAddressKeyType: type,
      operationType: 'PIX',
      ...(input.description ? { description: input.description } : {}),
      ...(input.withdrawReference ? { externalReference: input.withdrawReference } : {}),
    };
    const prefix = this.prefixFor('withdraw');
    const answer = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(ASAAS_PATHS.transfers, body));
    return this.transfer('withdraw', prefix, answer, input.amount);
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const answer = await this.exchange('getWithdraw', prefix, () => this.http(ctx).get<unknown>(fillPath(ASAAS_PATHS.transfer, { id: withdrawId })));
    return this.transfer('getWithdraw', prefix, answer);
  }

  private transfer(operation: 'withdraw' | 'getWithdraw', prefix: string, answer: unknown, requested?: number): WithdrawResult {
    return this.mapped(operation, prefix, () => {
      const transfer = asaasObject(answer) ?? unusableAnswer('id e status da transferência');
      return {
        withdrawId: transfer.id,
        status: this.withdrawalStatus(transfer.status),
        amount: this.amountOr(transfer.value, requested, 'valor da transferência'),
      };
    });
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readAsaasWebhook(notification.body));
  }

  /** Asaas's event id (`evt_…`), which survives re-delivery; else the object's kind, id and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.eventNotificationKey(readAsaasWebhook(notification.body), ctx, notification);
  }

  /**
   * The webhook's configured token arrives in `asaas-access-token`, compared
   * (constant time) with the account's webhook secret: a wrong token is refused
   * at the door. The token is a credential, so the sidecar does not store it:
   * the stored notification keeps that intake proved it; one sent without the
   * token is unsigned, and its money states are confirmed with GET
   * /payments/{id} like any unsigned one.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    return this.credentialHeaderVerdict(ctx, notification.headers['asaas-access-token']);
  }
}
