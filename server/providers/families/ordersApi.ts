import { pixQrCodeDataUrl } from '../../lib/pixQrCode.js';
import {
  createProviderHttp,
  providerError,
  ProviderCallError,
  type ProviderHttp,
  type ProviderHttpDeclaration,
  type ProviderResponse,
} from '../../lib/http/index.js';
import { GatewayError, invalidArgument } from '../../lib/errors.js';
import { CATALOGUE, FAILURE_PREFIXES, providerFailure } from '../../lib/providerMessages.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { COUNTRY_CODE, splitPhone } from '../../lib/phone.js';
import { cardDigits, fourDigitYear, statementDescriptor } from '../../lib/card.js';
import { boletoDueDate } from '../../lib/expiry.js';
import { logger } from '../../lib/logger.js';
import type {
  Address,
  CardInput,
  Customer,
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
import { ProviderAdapter, type AdapterContext, type CardIdInput, type IncomingNotification, type ProviderIdentity } from '../adapter.js';

/**
 * The "orders API" family (Pagar.me API v5 dialect; spec doc 1 §7 "Orders",
 * doc 2 §7 PAGARMEBAAS): an order with one payment, whose charge carries the
 * status and the PIX/boleto data; refunds cancel the charge; payouts are
 * withdrawals from a recipient. Amounts are integer cents on both sides.
 * Members (PAGARMEBAAS, PAGARME) declare only what differs: see OrdersApiMember.
 */

// ---------------------------------------------------------------- the provider's shapes (the fields we read or send)

export type OrdersApiPaymentMethod = 'pix' | 'boleto' | 'credit_card';

export interface OrdersApiLastTransaction {
  id?: string;
  transaction_type?: string;
  status?: string;
  success?: boolean;
  /** PIX: copy-and-paste text and QR image URL. */
  qr_code?: string;
  qr_code_url?: string;
  expires_at?: string;
  /** Boleto: digitable line, barcode, documents. */
  line?: string;
  barcode?: string;
  pdf?: string;
  url?: string;
  due_at?: string;
  acquirer_message?: string;
  gateway_response?: { code?: string; errors?: Array<{ message?: string }> };
}

export interface OrdersApiCharge {
  id: string;
  status: string;
  amount?: number;
  paid_amount?: number;
  paid_at?: string | null;
  payment_method?: string;
  order?: { id?: string };
  last_transaction?: OrdersApiLastTransaction;
}

export interface OrdersApiOrder {
  id: string;
  code?: string;
  status: string;
  amount?: number;
  charges?: OrdersApiCharge[];
}

export interface OrdersApiWithdrawal {
  id: string;
  amount: number;
  status: string;
  created_at?: string;
  updated_at?: string;
}

// ---------------------------------------------------------------- status tables (plain data)

export interface OrdersApiStatusRules {
  /** Order and charge statuses (one vocabulary: the order's is a subset of the charge's). */
  readonly statuses: Readonly<Record<string, TransactionStatus>>;
  /**
   * Replacements for a charge that never received money. 'canceled' means a
   * refund after payment (REFUNDED, the spec's common table) but a plain
   * cancellation of an unpaid PIX/boleto (CANCELED): the state machine only
   * lets APPROVED become REFUNDED.
   */
  readonly neverPaid: Readonly<Record<string, TransactionStatus>>;
  /** A status in neither table (logged as a warning). REJECTED for most providers (spec doc 1 §4). */
  readonly unknown: TransactionStatus;
}

export const ORDERS_API_STATUS_RULES: OrdersApiStatusRules = {
  statuses: {
    paid: 'APPROVED',
    // More than the amount arrived: the charge is paid.
    overpaid: 'APPROVED',
    // A partial refund keeps the charge APPROVED (docs/decisions.md, RefoundTransaction).
    partial_canceled: 'APPROVED',
    pending: 'PENDING',
    processing: 'PENDING',
    // Less than the amount arrived: still waiting for the rest.
    underpaid: 'PENDING',
    // The spec's common pattern (doc 2 §4): waiting, processing, authorized → PENDING.
    waiting: 'PENDING',
    waiting_payment: 'PENDING',
    authorized: 'PENDING',
    canceled: 'REFUNDED',
    refunded: 'REFUNDED',
    chargedback: 'CHARGEBACK',
    failed: 'REJECTED',
  },
  neverPaid: { canceled: 'CANCELED' },
  unknown: 'REJECTED',
};

/** Withdrawals (spec doc 1 §4 "Withdraw status"): pending at creation; transferred is paid; canceled; the rest REJECTED. */
export const ORDERS_API_WITHDRAWAL_STATUS: Readonly<Record<string, WithdrawStatus>> = {
  pending: 'PENDING',
  processing: 'PENDING',
  created: 'PENDING',
  transferred: 'APPROVED',
  paid: 'APPROVED',
  canceled: 'CANCELED',
  failed: 'REJECTED',
};

/**
 * Notifications the family acts on: which resource `data` is, and the status
 * the event means. 'FROM_RESOURCE' reads it from `data` (an order canceled
 * after payment is REFUNDED, before payment CANCELED). Every other event
 * (order.created, charge.pending, charge.partial_canceled, …) is ignored.
 */
export type OrdersApiEventRule = { resource: 'order' | 'charge'; status: TransactionStatus | 'FROM_RESOURCE' };

export const ORDERS_API_EVENTS: Readonly<Record<string, OrdersApiEventRule>> = {
  'order.paid': { resource: 'order', status: 'APPROVED' },
  'order.payment_failed': { resource: 'order', status: 'REJECTED' },
  'order.canceled': { resource: 'order', status: 'FROM_RESOURCE' },
  'charge.paid': { resource: 'charge', status: 'APPROVED' },
  'charge.overpaid': { resource: 'charge', status: 'APPROVED' },
  'charge.payment_failed': { resource: 'charge', status: 'REJECTED' },
  'charge.refunded': { resource: 'charge', status: 'REFUNDED' },
  'charge.chargedback': { resource: 'charge', status: 'CHARGEBACK' },
};

/** Last-transaction statuses that mean the money went back (a charge may stay 'paid' after a partial refund). */
const REFUNDED_TRANSACTION_STATUSES: ReadonlySet<string> = new Set(['refunded', 'partial_refunded', 'voided', 'partial_void']);

const METHOD_TO_PROVIDER: Record<PaymentMethod, OrdersApiPaymentMethod> = { PIX: 'pix', BILLET: 'boleto', CREDIT_CARD: 'credit_card' };
const METHOD_FROM_PROVIDER: Readonly<Record<string, PaymentMethod>> = { pix: 'PIX', boleto: 'BILLET', credit_card: 'CREDIT_CARD' };

const isRecord = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Own entries only: a provider status such as 'constructor' must not find Object.prototype. */
const entry = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

// ---------------------------------------------------------------- request mappers (pure: our input → their body)

export interface OrdersApiOrderOptions {
  pixExpiresInSeconds: number;
  boletoDueDays: number;
  now: Date;
}

export const toOrdersApiAddress = (address: Address) => ({
  // The provider's line_1 convention: "number, street, district".
  line_1: [address.number, address.address, address.district].filter(Boolean).join(', '),
  zip_code: digitsOnly(address.zipCode),
  city: address.city,
  state: address.state,
  country: 'BR',
});

export function toOrdersApiCustomer(customer: Customer, address?: Address) {
  const documentType = inferDocumentType(customer.document);
  const phone = customer.phone ? splitPhone(customer.phone) : undefined;
  return {
    name: customer.name,
    email: customer.email || undefined,
    document: digitsOnly(customer.document),
    document_type: documentType,
    type: documentType === 'CPF' ? 'individual' : 'company',
    phones: phone ? { mobile_phone: { country_code: COUNTRY_CODE, area_code: phone.areaCode, number: phone.number } } : undefined,
    address: address ? toOrdersApiAddress(address) : undefined,
  };
}

/** The provider requires items; a charge without them is one item of the whole amount. */
export function toOrdersApiItems(input: Pick<TransactionInput, 'items' | 'amount' | 'description' | 'orderId'>) {
  if (input.items.length) return input.items.map((item) => ({ amount: item.unitPrice, description: item.title, quantity: item.quantity, code: item.id }));
  return [{ amount: input.amount, description: input.description || input.orderId || 'Pagamento', quantity: 1, code: input.orderId || '1' }];
}

export const toOrdersApiSplit = (split: TransactionInput['splits'][number]) => ({
  recipient_id: split.recipientId,
  amount: split.amount,
  type: split.type === 'PERCENTAGE' ? 'percentage' : 'flat',
  options: { charge_processing_fee: split.chargeProcessingFee, charge_remainder_fee: split.chargeRemainder, liable: split.liable },
});

/** A card reference: the provider's tokens are 'token_…' (single use), saved cards anything else ('card_…'). */
export const isOrdersApiCardToken = (cardId: string): boolean => cardId.startsWith('token_');

export function toOrdersApiPayment(input: TransactionInput, options: OrdersApiOrderOptions) {
  const base = {
    payment_method: METHOD_TO_PROVIDER[input.paymentMethod],
    amount: input.amount,
    split: input.splits.length ? input.splits.map(toOrdersApiSplit) : undefined,
  };
  switch (input.paymentMethod) {
    case 'PIX':
      return { ...base, pix: { expires_in: options.pixExpiresInSeconds } };
    case 'BILLET':
      return { ...base, boleto: { due_at: boletoDueDate(options.now, options.boletoDueDays).toISOString(), instructions: input.description || undefined } };
    case 'CREDIT_CARD': {
      const cardId = input.cardId ?? '';
      const reference = isOrdersApiCardToken(cardId)
        ? { card_token: cardId, card: input.address ? { billing_address: toOrdersApiAddress(input.address) } : undefined }
        : { card_id: cardId };
      return { ...base, credit_card: { installments: input.installments, statement_descriptor: statementDescriptor(input.description), ...reference } };
    }
  }
}

export function toOrdersApiOrder(input: TransactionInput, options: OrdersApiOrderOptions) {
  return {
    code: input.orderId || undefined,
    items: toOrdersApiItems(input),
    customer: input.customer ? toOrdersApiCustomer(input.customer, input.address) : undefined,
    payments: [toOrdersApiPayment(input, options)],
    ip: input.customerIp || undefined,
    closed: true,
    metadata: input.userId ? { user_id: input.userId } : undefined,
  };
}

export const toOrdersApiCardToken = (card: CardInput) => ({
  type: 'card',
  card: {
    number: cardDigits(card.cardNumber),
    holder_name: card.holderName,
    holder_document: card.holderDocument ? digitsOnly(card.holderDocument) : undefined,
    exp_month: Number(card.expMonth),
    exp_year: Number(fourDigitYear(card.expYear)),
    cvv: card.cvv,
  },
});

// ---------------------------------------------------------------- response mappers (pure: their body → our result)

/** One status through the rules; unknown statuses are logged and take the rules' default. */
export function ordersApiStatus(
  subject: { status?: string; paid_at?: string | null; paid_amount?: number },
  rules: OrdersApiStatusRules = ORDERS_API_STATUS_RULES,
): TransactionStatus {
  const status = String(subject.status ?? '').toLowerCase();
  const wasPaid = Boolean(subject.paid_at) || (subject.paid_amount ?? 0) > 0;
  const mapped = (wasPaid ? undefined : entry(rules.neverPaid, status)) ?? entry(rules.statuses, status);
  if (mapped) return mapped;
  logger.warn({ status: subject.status, mappedTo: rules.unknown }, 'orders API: unknown status');
  return rules.unknown;
}

/** The order's charge (the family creates one payment per order). */
export const primaryCharge = (order: OrdersApiOrder): OrdersApiCharge | undefined => order.charges?.[0];

/** The charge's status when there is one (finer: chargedback, refunds), else the order's. */
export function orderStatus(order: OrdersApiOrder, rules: OrdersApiStatusRules = ORDERS_API_STATUS_RULES): TransactionStatus {
  return ordersApiStatus(primaryCharge(order) ?? order, rules);
}

const dateOrUndefined = (text: string | undefined): Date | undefined => {
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

export function fromOrdersApiOrder(order: OrdersApiOrder, rules: OrdersApiStatusRules = ORDERS_API_STATUS_RULES): TransactionResult {
  const charge = primaryCharge(order);
  const paymentMethod = charge?.payment_method ? entry(METHOD_FROM_PROVIDER, charge.payment_method) : undefined;
  if (!charge || !paymentMethod) throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `order ${order.id} came back without a known charge`);
  const transaction = charge.last_transaction ?? {};
  const result: TransactionResult = { paymentMethod, transactionId: order.id, status: orderStatus(order, rules), amount: order.amount ?? charge.amount ?? 0 };
  if (paymentMethod === 'PIX')
    return { ...result, pixCode: transaction.qr_code, pixQrCode: transaction.qr_code_url, expiresAt: dateOrUndefined(transaction.expires_at) };
  // The contract's billetCode is the digitable line as digits (the provider formats it with dots and spaces).
  if (paymentMethod === 'BILLET')
    return {
      ...result,
      billetCode: transaction.line ? digitsOnly(transaction.line) : undefined,
      billetUrl: transaction.pdf ?? transaction.url,
      expiresAt: dateOrUndefined(transaction.due_at),
    };
  return result;
}

/**
 * pixQrCode is an image data URL (spec doc 2 §3): rendered from the
 * copy-and-paste code, so it never depends on the provider's image host; the
 * provider's qr_code_url stays only when there is no code to render.
 */
export async function withPixQrImage(result: TransactionResult): Promise<TransactionResult> {
  if (result.paymentMethod !== 'PIX' || !result.pixCode) return result;
  return { ...result, pixQrCode: await pixQrCodeDataUrl(result.pixCode) };
}

/** The provider's reason for a charge that failed inside a 2xx answer. */
export function ordersApiFailureReason(order: OrdersApiOrder): string {
  const transaction = primaryCharge(order)?.last_transaction;
  return transaction?.gateway_response?.errors?.find((error) => error.message)?.message ?? transaction?.acquirer_message ?? `order ${order.status}`;
}

/** The charge answered by DELETE /charges/{id}: refunded when cancelled, or when its last transaction is a refund (partial refunds). */
export function fromOrdersApiRefund(charge: OrdersApiCharge): RefundResult {
  const transactionStatus = String(charge.last_transaction?.status ?? '').toLowerCase();
  return { refundId: charge.last_transaction?.id ?? charge.id, status: charge.status === 'canceled' || REFUNDED_TRANSACTION_STATUSES.has(transactionStatus) };
}

export function fromOrdersApiWithdrawal(withdrawal: OrdersApiWithdrawal): WithdrawResult {
  const status = entry(ORDERS_API_WITHDRAWAL_STATUS, String(withdrawal.status ?? '').toLowerCase());
  if (!status) logger.warn({ status: withdrawal.status }, 'orders API: unknown withdrawal status');
  const mapped = status ?? 'REJECTED';
  return {
    withdrawId: withdrawal.id,
    amount: withdrawal.amount,
    status: mapped,
    approvedAt: mapped === 'APPROVED' ? dateOrUndefined(withdrawal.updated_at) : undefined,
  };
}

/** A notification → the order it concerns and its status; undefined for ignored events and unparseable bodies. */
export function readOrdersApiEvent(body: Buffer | string, rules: OrdersApiStatusRules = ORDERS_API_STATUS_RULES): WebhookResult | undefined {
  let event: unknown;
  try {
    event = JSON.parse(body.toString());
  } catch {
    return undefined;
  }
  if (!isRecord(event) || typeof event.type !== 'string' || !isRecord(event.data)) return undefined;
  const rule = entry(ORDERS_API_EVENTS, event.type);
  if (!rule) return undefined;
  const data = event.data;
  const orderId = rule.resource === 'order' ? data.id : isRecord(data.order) ? data.order.id : undefined;
  if (typeof orderId !== 'string' || !orderId) return undefined;
  const fromResource = () => (rule.resource === 'order' ? orderStatus(data as OrdersApiOrder, rules) : ordersApiStatus(data, rules));
  return { type: 'TRANSACTION', transactionId: orderId, status: rule.status === 'FROM_RESOURCE' ? fromResource() : rule.status };
}

/** The event id ('hook_…'), the same on every re-delivery. */
export function ordersApiEventId(body: Buffer | string): string | undefined {
  try {
    const event: unknown = JSON.parse(body.toString());
    return isRecord(event) && typeof event.id === 'string' && event.id ? event.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The field errors of a 4xx body: `{ message: 'The request is invalid.',
 * errors: { 'order.customer.name': ['The name field is required.'] } }` →
 * 'order.customer.name: The name field is required.'
 */
export function ordersApiFieldErrors(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.errors)) return undefined;
  const parts = Object.entries(body.errors).map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(' ') : String(messages)}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** providerError (code from the HTTP outcome, the provider's message under the prefix) plus the field errors. */
export function ordersApiError(prefix: string, error: unknown): GatewayError {
  const failure = providerError(prefix, error);
  const fields = ordersApiFieldErrors((error as { response?: { data?: unknown } } | undefined)?.response?.data);
  return fields && !failure.message.includes(fields) ? new GatewayError(failure.code, `${failure.message} (${fields})`, failure.details) : failure;
}

// ---------------------------------------------------------------- a member's declaration

export interface OrdersApiMember {
  identity: ProviderIdentity;
  /** Sent as pix.expires_in. */
  pixExpiresInSeconds: number;
  /** Days until boleto.due_at. */
  boletoDueDays: number;
  /** The spec's per-provider status exceptions, over the family's table. */
  statusRules?: Partial<OrdersApiStatusRules>;
  /** Which recipient a withdrawal is taken from; undefined means none is known (the call is refused). */
  withdrawalRecipient?: (ctx: AdapterContext, input: WithdrawInput) => string | undefined;
  /** Transport settings over the family's (timeouts; tests shorten them). */
  http?: Partial<ProviderHttpDeclaration>;
  /** Clock for boleto due dates (tests). */
  now?: () => Date;
}

/** Authorization: Basic base64(secretKey + ':'): the secret key is the user, the password empty. */
const SECRET_KEY_BASIC: ProviderHttpDeclaration['auth'] = { type: 'basic', username: 'secretKey', password: 'empty' };

/**
 * The family's operations: one HTTP exchange each, except where the dialect
 * needs two: saving a card (customer, then card; a token first when given raw
 * card data) and refunding (the order is read for its charge, then cancelled).
 */
export abstract class OrdersApiAdapter extends ProviderAdapter {
  readonly identity: ProviderIdentity;
  private readonly rules: OrdersApiStatusRules;

  protected constructor(private readonly member: OrdersApiMember) {
    super();
    this.identity = member.identity;
    this.rules = { ...ORDERS_API_STATUS_RULES, ...member.statusRules };
  }

  /** Secret-key calls. */
  private http(ctx: AdapterContext): ProviderHttp {
    return createProviderHttp({ provider: this.identity.id, auth: SECRET_KEY_BASIC, ...this.member.http, ctx });
  }

  /** Card tokenisation takes the public key as appId and must carry no Authorization header. */
  private publicHttp(ctx: AdapterContext): ProviderHttp {
    return createProviderHttp({ provider: this.identity.id, ...this.member.http, auth: { type: 'none' }, ctx });
  }

  private async call<T>(prefix: string, send: () => Promise<ProviderResponse<T>>): Promise<T> {
    try {
      return (await send()).data;
    } catch (error) {
      throw ordersApiError(prefix, error);
    }
  }

  /**
   * Like call, for an answer that must carry an id (and a status where `withStatus`):
   * an HTML page, `null` or `{}` is the provider failing, never an empty "ok" or a status.
   */
  private async resource<T>(prefix: string, send: () => Promise<ProviderResponse<T>>, what: string, withStatus = false): Promise<T> {
    const data = await this.call(prefix, send);
    const answer = data as { id?: unknown; status?: unknown } | null;
    if (!answer || typeof answer !== 'object' || typeof answer.id !== 'string' || !answer.id || (withStatus && typeof answer.status !== 'string')) {
      throw ordersApiError(prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `the provider answered without ${what}`));
    }
    return data;
  }

  /** An answer without a usable charge is the provider's failure, under the operation's prefix. */
  private fromOrder(prefix: string, order: OrdersApiOrder): TransactionResult {
    try {
      return fromOrdersApiOrder(order, this.rules);
    } catch (error) {
      throw ordersApiError(prefix, error);
    }
  }

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const token = await this.resource(
      FAILURE_PREFIXES.CREATE_CARD_TOKEN,
      () => this.publicHttp(ctx).post<{ id: string }>('/tokens', toOrdersApiCardToken(card), { params: { appId: ctx.publicKey } }),
      'a card token',
    );
    return token.id;
  }

  /** A saved card belongs to a customer: the customer is created (or matched by the provider), then the card from a token. */
  override async createCardId(ctx: AdapterContext, input: CardIdInput): Promise<string> {
    const customer = input.customer ?? (input.card ? { name: input.card.holderName, document: input.card.holderDocument, email: '', phone: '' } : undefined);
    if (!customer) throw invalidArgument('customer', 'customer is required to save a card with a card token');
    const token = input.cardToken || (input.card ? await this.createCardToken(ctx, input.card) : undefined);
    if (!token) throw invalidArgument('card_token', 'card_token or card is required');
    // 'Erro salvando cartão' (spec doc 1 §8) is the prefix of a failure to save a card.
    const saving = CATALOGUE.SAVE_CARD_FAILED.message;
    const created = await this.resource(saving, () => this.http(ctx).post<{ id: string }>('/customers', toOrdersApiCustomer(customer)), 'a customer');
    const card = await this.resource(
      saving,
      () => this.http(ctx).post<{ id: string }>(`/customers/${encodeURIComponent(created.id)}/cards`, { token }),
      'a card',
    );
    return card.id;
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    const body = toOrdersApiOrder(input, {
      pixExpiresInSeconds: this.member.pixExpiresInSeconds,
      boletoDueDays: this.member.boletoDueDays,
      now: this.member.now?.() ?? new Date(),
    });
    const prefix = FAILURE_PREFIXES.CREATE_TRANSACTION;
    // Pagar.me keeps an Idempotency-Key for 24 h (docs.pagar.me, "Idempotência"): a retried order is not created twice there.
    const order = await this.call(prefix, () =>
      this.http(ctx).post<OrdersApiOrder>('/orders', body, { headers: input.idempotencyKey ? { 'idempotency-key': input.idempotencyKey } : {} }),
    );
    const result = this.fromOrder(prefix, order);
    // A declined card is an outcome (REJECTED); a PIX or boleto that failed to be issued has nothing to pay, so its reason is the error.
    if (result.status === 'REJECTED' && input.paymentMethod !== 'CREDIT_CARD')
      throw providerFailure(prefix, ordersApiFailureReason(order), 'FAILED_PRECONDITION');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = FAILURE_PREFIXES.GET_TRANSACTION;
    const order = await this.call(prefix, () => this.http(ctx).get<OrdersApiOrder>(`/orders/${encodeURIComponent(transactionId)}`));
    return withPixQrImage(this.fromOrder(prefix, order));
  }

  /** The gateway knows the order; the provider refunds a charge: the order is read for its charge id. */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = FAILURE_PREFIXES.REFUND_TRANSACTION;
    const order = await this.call(prefix, () => this.http(ctx).get<OrdersApiOrder>(`/orders/${encodeURIComponent(transactionId)}`));
    const charge = primaryCharge(order);
    if (!charge?.id)
      throw ordersApiError(prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `order ${transactionId} came back without a charge`));
    const canceled = await this.resource(
      prefix,
      () => this.http(ctx).delete<OrdersApiCharge>(`/charges/${encodeURIComponent(charge.id)}`, { body: { amount } }),
      'the refunded charge',
      true,
    );
    return fromOrdersApiRefund(canceled);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const recipient = this.member.withdrawalRecipient?.(ctx, input);
    if (!recipient) {
      throw invalidArgument(
        'withdraw.receiver_id',
        `withdraw.receiver_id is required: ${this.identity.id} withdraws from a recipient (or set the account's platform_id to the platform's default recipient)`,
      );
    }
    const withdrawal = await this.resource(
      FAILURE_PREFIXES.WITHDRAW,
      () =>
        this.http(ctx).post<OrdersApiWithdrawal>(
          `/recipients/${encodeURIComponent(recipient)}/withdrawals`,
          { amount: input.amount },
          // Pagar.me v5 takes an Idempotency-Key header: a payout retried by the gateway is recognised there too.
          { headers: input.idempotencyKey ? { 'idempotency-key': input.idempotencyKey } : {} },
        ),
      'a withdrawal with a status',
      true,
    );
    return fromOrdersApiWithdrawal(withdrawal);
  }

  /** Unsigned (the provider does not sign its webhooks): the gateway confirms money states with getTransaction. */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readOrdersApiEvent(notification.body, this.rules);
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const eventId = ordersApiEventId(notification.body);
    return eventId ? `event:${eventId}` : super.notificationKey(ctx, notification);
  }
}
