import type {
  Customer,
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
import { invalidArgument } from '../../lib/errors.js';
import { ProviderCallError, providerMessage } from '../../lib/http/index.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { providerPixKey, type PixKeyType } from '../../lib/pixKey.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf, idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';

/**
 * PRONTTUS (spec doc 2, group 2): a bespoke dialect. What the spec says:
 * POST /payment/withdraw; POST /payment; GET /payment/{id}; POST
 * /v1/payment/refund (§7); "infraction is CHARGEBACK in PRONTTUS … the notes
 * also give PRONTTUS as APPROVED for PAID or INFRACTION (the two readings
 * conflict)" (§4): the table's reading is kept, INFRACTION is CHARGEBACK
 * (docs/decisions.md). What the provider research shows (pronttus.readme.io,
 * cited by public integrations): host api.pronttus.com.br/v1, the keys in
 * `x-client-id` and `x-client-secret`, POST /v1/payment {customer{name,
 * document, email, phone}, amount (cents), description} answered
 * {transactionId, pixCode}, 4xx errors {code, message}, a withdraw variant
 * {amount, type, details{name, document, key, keyType}}. The rest (the read
 * and refund answers, the refund body, the notifications) was not seen: the
 * gateway's decision, recorded in docs/decisions.md.
 *
 * The spec's refund path alone names the API version, which the other paths
 * leave to the host: it is taken from the host's root (the account's base URL
 * without its /v1), so that it reaches /v1/payment/refund beside /v1/payment
 * and never /v1/v1/payment/refund.
 *
 * Read top to bottom: declaration → wire shapes → request mappers → status
 * tables → response mappers → notifications → the operations, one HTTP
 * exchange each.
 */

// ---------------------------------------------------------------- declaration

export const PRONTTUS: ProviderDeclaration = {
  identity: { id: 'PRONTTUS', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.pronttus.com.br/v1' },
  // PIX only: the research's integrations charge by PIX only, and no card body is shown anywhere.
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  // The client secret is the credential (redacted in logs); the client id rides beside it.
  auth: { type: 'apiKey', header: 'x-client-secret' },
  headers: { 'x-client-id': 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
};

/** Spec doc 2 §7. The refund path is resolved from the host's root (see above). */
export const PRONTTUS_PATHS = {
  create: '/payment',
  get: '/payment/{id}',
  withdraw: '/payment/withdraw',
  refund: '/v1/payment/refund',
} as const;

/** The version segment the research's host carries, which the refund path names again. */
const VERSION_SEGMENT = /\/v1\/?$/;

// ---------------------------------------------------------------- wire shapes

/** Body of POST /payment (research). */
export interface PronttusPaymentRequest {
  customer?: { name: string; document: string; email: string; phone: string };
  /** Cents. */
  amount: number;
  description: string;
}

/** Answer of POST /payment and GET /payment/{id}, bare or inside `data`. */
export interface PronttusPayment {
  transactionId?: string | number;
  id?: string | number;
  status?: string;
  amount?: number | string;
  pixCode?: string;
  expiresAt?: string;
  data?: PronttusPayment;
}

/** Body of POST /payment/withdraw: the research's variant without its campaign. */
export interface PronttusWithdrawRequest {
  /** Cents. */
  amount: number;
  type: 'PIX';
  details: { key: string; keyType: string; name?: string; document?: string };
}

export interface PronttusWithdrawal {
  id?: string | number;
  withdrawId?: string | number;
  status?: string;
  amount?: number | string;
  data?: PronttusWithdrawal;
}

/** Body of POST /v1/payment/refund: the path names no payment, so the body does. */
export interface PronttusRefundRequest {
  transactionId: string;
  /** Cents. */
  amount: number;
}

export interface PronttusRefund {
  refundId?: string | number;
  id?: string | number;
  status?: string;
  data?: PronttusRefund;
}

// ---------------------------------------------------------------- request mappers

const toPronttusCustomer = (customer: Customer) => ({
  name: customer.name,
  document: digitsOnly(customer.document),
  email: customer.email,
  phone: nationalPhoneDigits(customer.phone),
});

/** The description the research's integration sends when the caller gives none. */
const DEFAULT_DESCRIPTION = 'Pagamento via PIX';

export function toPronttusPayment(input: TransactionInput, amount: number): PronttusPaymentRequest {
  return {
    ...(input.customer ? { customer: toPronttusCustomer(input.customer) } : {}),
    amount,
    description: input.description || DEFAULT_DESCRIPTION,
  };
}

/** A PIX payout: CPF, CNPJ and PHONE keys as digits, EMAIL and RANDOM as given, the type by our name. */
export function toPronttusWithdraw(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, amount: number): PronttusWithdrawRequest {
  const { key, type } = providerPixKey(input.pixKey, input.pixType);
  const document = input.document ? digitsOnly(input.document) : '';
  return {
    amount,
    type: 'PIX',
    details: { key, keyType: type, ...(input.name ? { name: input.name } : {}), ...(document ? { document } : {}) },
  };
}

// ---------------------------------------------------------------- status tables

/**
 * Payments, matched case-insensitively: doc 2 §4's PAID and INFRACTION (the
 * table's reading: CHARGEBACK), its common pattern (waiting, processing,
 * authorized PENDING; refunded REFUNDED, chargedback CHARGEBACK; unknown
 * REJECTED) and doc 1 §4's families for the rest.
 */
export const PRONTTUS_STATUSES = statusTable<TransactionStatus>(
  {
    PENDING: 'PENDING',
    WAITING: 'PENDING',
    WAITING_PAYMENT: 'PENDING',
    PROCESSING: 'PENDING',
    CREATED: 'PENDING',
    AUTHORIZED: 'PENDING',
    PAID: 'APPROVED',
    APPROVED: 'APPROVED',
    COMPLETED: 'APPROVED',
    REFUNDED: 'REFUNDED',
    INFRACTION: 'CHARGEBACK',
    CHARGEBACK: 'CHARGEBACK',
    CHARGEDBACK: 'CHARGEBACK',
    FAILED: 'REJECTED',
    REFUSED: 'REJECTED',
    EXPIRED: 'REJECTED',
    CANCELED: 'CANCELED',
    CANCELLED: 'CANCELED',
  },
  'REJECTED',
);

/** Payouts: doc 1 §4's withdraw rules; unknown stays PENDING (a payout wrongly recorded as failed could be paid twice). */
export const PRONTTUS_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  {
    PENDING: 'PENDING',
    PROCESSING: 'PENDING',
    PAID: 'APPROVED',
    APPROVED: 'APPROVED',
    COMPLETED: 'APPROVED',
    FINALIZED: 'APPROVED',
    FAILED: 'REJECTED',
    REJECTED: 'REJECTED',
    REFUSED: 'REJECTED',
    CANCELED: 'CANCELED',
  },
  'PENDING',
);

/** Refund answers whose status says the refund was refused (a refusal in a 2xx body). */
const REFUND_REFUSED: ReadonlySet<string> = new Set(['refused', 'rejected', 'failed', 'denied', 'error']);

// ---------------------------------------------------------------- response mappers

/** The object, bare or inside `{ data: … }` (an envelope has no status of its own). */
function unwrapped<T extends { data?: T }>(body: unknown): T {
  if (!isRecord(body)) return {} as T;
  return body.status === undefined && isRecord(body.data) ? (body.data as T) : (body as T);
}

const has = (value: unknown): boolean => value !== undefined && value !== null;

interface ReadTerms<S> {
  status: (value: unknown) => S;
  /** A RangeError-free reader: an unreadable amount is the operation's error. */
  amount: (value: unknown) => number;
}

/**
 * A payment → our result. At creation (`created` given) it needs its id and
 * its copy-and-paste code and may leave the status out (a new PIX charge is
 * PENDING); a read needs a status. Undefined otherwise: an error, never a status.
 */
export function fromPronttusPayment(
  body: unknown,
  terms: ReadTerms<TransactionStatus> & { created?: { amount: number; expiresAt: Date } },
): TransactionResult | undefined {
  const payment = unwrapped<PronttusPayment>(body);
  const transactionId = idText(payment.transactionId) ?? idText(payment.id);
  const status = textOf(payment.status);
  const pixCode = textOf(payment.pixCode);
  if (terms.created ? !transactionId || !pixCode : !status) return undefined;
  const expiresAt = dateOf(payment.expiresAt) ?? terms.created?.expiresAt;
  return {
    paymentMethod: 'PIX',
    transactionId: transactionId ?? '',
    status: status ? terms.status(status) : 'PENDING',
    amount: has(payment.amount) ? terms.amount(payment.amount) : (terms.created?.amount ?? 0),
    ...(pixCode ? { pixCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** A payout answer → our result: its id, and its status or PENDING (accepted). Undefined without an id. */
export function fromPronttusWithdrawal(body: unknown, terms: ReadTerms<WithdrawStatus> & { requestedAmount: number }): WithdrawResult | undefined {
  const withdrawal = unwrapped<PronttusWithdrawal>(body);
  const withdrawId = idText(withdrawal.id) ?? idText(withdrawal.withdrawId);
  if (!withdrawId) return undefined;
  const status = textOf(withdrawal.status);
  return {
    withdrawId,
    amount: has(withdrawal.amount) ? terms.amount(withdrawal.amount) : terms.requestedAmount,
    status: status ? terms.status(status) : 'PENDING',
  };
}

/**
 * A refund answer → our result; undefined when it says nothing about the
 * refund (no status and no id: an outage, never "refunded"). A refusal status
 * is `status: false`; the refund id is the answer's, else the payment's.
 */
export function fromPronttusRefund(body: unknown, transactionId: string): RefundResult | undefined {
  const refund = unwrapped<PronttusRefund>(body);
  const status = textOf(refund.status);
  const refundId = idText(refund.refundId) ?? idText(refund.id);
  if (!status && !refundId) return undefined;
  return { refundId: refundId ?? transactionId, status: !(status && REFUND_REFUSED.has(status.toLowerCase())) };
}

// ---------------------------------------------------------------- notifications

export interface PronttusNotification {
  kind: 'payment' | 'withdrawal';
  id: string;
  status: string;
}

const WITHDRAWAL_EVENT = /withdraw|cash[._-]?out|transfer/i;
const PAYMENT_EVENT = /payment|transaction|pix|infraction/i;

/**
 * Not seen in the research ("none seen"); read as the payment object the API
 * answers, bare or inside `data`: { transactionId | id, status, type | event? }.
 * A `type`/`event` naming a withdrawal (withdraw, cashout, transfer) is a
 * payout; one naming a payment, transaction, PIX or infraction, or none, a
 * payment; any other is ignored, as is a body without an id or a status.
 */
export function readPronttusNotification(body: Buffer): PronttusNotification | undefined {
  const envelope = parseJsonObject(body);
  if (!envelope) return undefined;
  const event = envelope.type ?? envelope.event;
  if (event !== undefined && (typeof event !== 'string' || !(WITHDRAWAL_EVENT.test(event) || PAYMENT_EVENT.test(event)))) return undefined;
  const kind = typeof event === 'string' && WITHDRAWAL_EVENT.test(event) ? 'withdrawal' : 'payment';
  const object = unwrapped<PronttusPayment & PronttusWithdrawal>(envelope);
  const id = idText(object.transactionId) ?? idText(object.id) ?? idText(object.withdrawId);
  const status = textOf(object.status);
  return id && status ? { kind, id, status } : undefined;
}

// ---------------------------------------------------------------- operations

export class PronttusAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = PRONTTUS, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: PRONTTUS_STATUSES, withdrawalStatuses: PRONTTUS_WITHDRAWAL_STATUSES });
  }

  /** An amount that is not one makes the answer unusable (UNAVAILABLE under the operation's prefix), never a guess. */
  private readonly amountOf = (value: unknown): number => {
    try {
      return this.fromProviderAmount(value);
    } catch {
      throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `valor ilegível na resposta do provedor: ${JSON.stringify(value)}`);
    }
  };

  /** A 2xx answer without the resource: the provider's {message} is its refusal; anything else (HTML, null, {}) an outage. */
  private unusable(operation: 'createTransaction' | 'getTransaction' | 'withdraw' | 'refoundTransaction', prefix: string, body: unknown, what: string) {
    const message = isRecord(body) ? providerMessage(body) : undefined;
    const error = message
      ? new ProviderCallError('INVALID_ARGUMENT', 'PROVIDER_REJECTED_REQUEST', message)
      : new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`);
    return this.failure(operation, prefix, error);
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toPronttusPayment(input, this.toProviderAmount(input.amount));
    const data = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(PRONTTUS_PATHS.create, body));
    const result = this.mapped('createTransaction', prefix, () =>
      fromPronttusPayment(data, { status: (value) => this.transactionStatus(value), amount: this.amountOf, created: { amount: input.amount, expiresAt } }),
    );
    if (!result) throw this.unusable('createTransaction', prefix, data, 'transactionId ou pixCode');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const data = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(PRONTTUS_PATHS.get, { id: transactionId })));
    const result = this.mapped('getTransaction', prefix, () =>
      fromPronttusPayment(data, { status: (value) => this.transactionStatus(value), amount: this.amountOf }),
    );
    if (!result) throw this.unusable('getTransaction', prefix, data, 'status do pagamento');
    // The id asked for stays the id, whatever the answer echoes.
    return withPixQrImage({ ...result, transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const body: PronttusRefundRequest = { transactionId, amount: this.toProviderAmount(amount) };
    const root = ctx.baseUrl.replace(VERSION_SEGMENT, '');
    const data = await this.exchange('refoundTransaction', prefix, () => this.http(ctx, { baseUrl: root }).post<unknown>(PRONTTUS_PATHS.refund, body));
    const result = fromPronttusRefund(data, transactionId);
    if (!result) throw this.unusable('refoundTransaction', prefix, data, 'dados do estorno');
    return result;
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const pixKey = input.pixKey?.trim();
    if (!pixKey) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals');
    // Never guessed from the key: an 11-digit key read as a CPF when it is a phone could pay someone else.
    if (!input.pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals');
    const prefix = this.prefixFor('withdraw');
    const body = toPronttusWithdraw({ ...input, pixKey, pixType: input.pixType }, this.toProviderAmount(input.amount));
    const data = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(PRONTTUS_PATHS.withdraw, body));
    const result = this.mapped('withdraw', prefix, () =>
      fromPronttusWithdrawal(data, { status: (value) => this.withdrawalStatus(value), amount: this.amountOf, requestedAmount: input.amount }),
    );
    if (!result) throw this.unusable('withdraw', prefix, data, 'id do saque');
    return result;
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = readPronttusNotification(notification.body);
    if (!event) return undefined;
    return event.kind === 'withdrawal'
      ? { type: 'WITHDRAW', transactionId: event.id, status: this.withdrawalStatus(event.status) }
      : { type: 'TRANSACTION', transactionId: event.id, status: this.transactionStatus(event.status) };
  }

  /** No event id is known: the object's kind, id and status identify one notification across re-deliveries. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const event = readPronttusNotification(notification.body);
    return event ? `pronttus:${event.kind}:${event.id}:${event.status.toLowerCase()}` : super.notificationKey(ctx, notification);
  }
}
