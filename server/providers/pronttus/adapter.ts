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
import { z } from 'zod';
import { digitsOnly } from '../../lib/documents.js';
import { ProviderCallError, providerMessage } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { notificationKeyOf } from '../notificationKeys.js';

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
 * Read top to bottom: declaration → request bodies → request mappers → status
 * tables → answers (schemas) and their mappers → notifications → the
 * operations, one HTTP exchange each, its answer parsed by its schema.
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
  evidence: { level: 'third-party' },
  sources:
    'paths, PAID and INFRACTION (CHARGEBACK): spec (doc 2 §4/§7); host `api.pronttus.com.br/v1`, `x-client-id` (public key) and `x-client-secret` (secret key), `POST /payment {customer{name, document, email, phone}, amount (cents), description}` answered `{transactionId, pixCode}`, 4xx `{code, message}`, the payout body `{amount, type, details{name, document, key, keyType}}`: research (public integrations, which cite pronttus.readme.io; no page of it could be read); the read answer, the refund body and answer, the notifications: gateway',
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

// ---- wire: the request bodies (the answers' schemas follow the status tables)

/** Body of POST /payment (research): `amount` in integer cents. */
export const pronttusPaymentRequest = z.object({
  customer: z.object({ name: z.string(), document: z.string(), email: z.string(), phone: z.string() }).optional(),
  amount: z.number().int().positive(),
  description: z.string().min(1),
});
export type PronttusPaymentRequest = z.infer<typeof pronttusPaymentRequest>;

/** Body of POST /payment/withdraw: the research's variant without its campaign; `amount` in integer cents, the key type by our name. */
export const pronttusWithdrawRequest = z.object({
  amount: z.number().int().positive(),
  type: z.literal('PIX'),
  details: z.object({
    key: z.string().min(1),
    keyType: z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM']),
    name: z.string().optional(),
    document: z.string().regex(/^\d+$/).optional(),
  }),
});
export type PronttusWithdrawRequest = z.infer<typeof pronttusWithdrawRequest>;

/** Body of POST /v1/payment/refund: the path names no payment, so the body does; `amount` in integer cents. */
export const pronttusRefundRequest = z.object({ transactionId: z.string().min(1), amount: z.number().int().nonnegative() });
export type PronttusRefundRequest = z.infer<typeof pronttusRefundRequest>;

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
  const document = input.document ? digitsOnly(input.document) : '';
  return {
    amount,
    type: 'PIX',
    details: {
      key: normalizePixKey(input.pixKey, input.pixType),
      keyType: input.pixType,
      ...(input.name ? { name: input.name } : {}),
      ...(document ? { document } : {}),
    },
  };
}

/** A refund of `amount` (the provider's unit) of a payment. */
export const toPronttusRefund = (transactionId: string, amount: number): PronttusRefundRequest => ({ transactionId, amount });

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

// ---------------------------------------------------------------- answers (schemas) and their mappers

/** The object, bare or inside `{ data: … }` (an envelope has no status of its own): a mismatch names the object's field at fault. */
const inData = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && !('status' in value) && 'data' in value && typeof value.data === 'object' && value.data !== null
    ? value.data
    : value;

/** Pronttus's error `{code, message}` (research), and nothing else: a 2xx carrying it is a refusal that keeps its message. */
export const pronttusRefusal = z.strictObject({ code: absentable(wireText), message: wireText });
export type PronttusRefusal = z.output<typeof pronttusRefusal>;

/**
 * An answer: exactly Pronttus's error shape is a refusal (`{refused}`); anything
 * else must be `resource` (`{answer}`), its first field at fault named when it
 * is not: an unreadable success is never read as a refusal.
 */
function orRefusal<T>(resource: z.ZodType<T>) {
  const read = z.preprocess(inData, resource);
  return z.unknown().transform((value, ctx): { refused: PronttusRefusal } | { answer: T } => {
    const refused = pronttusRefusal.safeParse(value);
    if (refused.success) return { refused: refused.data };
    const parsed = read.safeParse(value);
    if (parsed.success) return { answer: parsed.data };
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  });
}

/** Answer of POST /payment: `{transactionId | id, pixCode, status?, amount?, expiresAt?}` (a new PIX charge without a status is PENDING). */
export const pronttusCreated = orRefusal(
  z
    .object({
      transactionId: absentable(wireId),
      id: absentable(wireId),
      pixCode: wireText,
      status: absentable(wireStatus),
      amount: absentable(wireAmount),
      expiresAt: absentable(wireText),
    })
    .transform((payment, ctx) => {
      const transactionId = payment.transactionId ?? payment.id;
      if (transactionId) return { ...payment, transactionId };
      ctx.addIssue({ code: 'custom', path: ['transactionId'], message: 'id do pagamento ausente' });
      return z.NEVER;
    }),
);

/** Answer of GET /payment/{id}: a status is what a read is for. */
export const pronttusPayment = orRefusal(
  z.object({ status: wireStatus, amount: absentable(wireAmount), pixCode: absentable(wireText), expiresAt: absentable(wireText) }),
);

/** Answer of POST /payment/withdraw: its id (`id` or `withdrawId`), its status or none (accepted: PENDING). */
export const pronttusWithdrawal = orRefusal(
  z
    .object({ id: absentable(wireId), withdrawId: absentable(wireId), status: absentable(wireStatus), amount: absentable(wireAmount) })
    .transform((payout, ctx) => {
      const withdrawId = payout.id ?? payout.withdrawId;
      if (withdrawId) return { withdrawId, status: payout.status, amount: payout.amount };
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'id do saque ausente' });
      return z.NEVER;
    }),
);

/** Answer of POST /v1/payment/refund: a status or an id at least (an answer with neither says nothing: never "refunded"). */
export const pronttusRefund = orRefusal(
  z.object({ refundId: absentable(wireId), id: absentable(wireId), status: absentable(wireStatus) }).transform((refund, ctx) => {
    const refundId = refund.refundId ?? refund.id;
    if (refundId || refund.status) return { refundId, status: refund.status };
    ctx.addIssue({ code: 'custom', path: ['status'], message: 'estorno sem status nem id' });
    return z.NEVER;
  }),
);

/** A refund answer → our result: a refusal status is `status: false`; the refund id is the answer's, else the payment's. */
export const fromPronttusRefund = (refund: { refundId?: string; status?: string }, transactionId: string): RefundResult => ({
  refundId: refund.refundId ?? transactionId,
  status: !(refund.status && REFUND_REFUSED.has(refund.status.toLowerCase())),
});

// ---------------------------------------------------------------- notifications

export interface PronttusNotification {
  kind: 'payment' | 'withdrawal';
  id: string;
  status: string;
}

const WITHDRAWAL_EVENT = /withdraw|cash[._-]?out|transfer/i;
const PAYMENT_EVENT = /payment|transaction|pix|infraction/i;

/** The envelope's `type` / `event`, when it names one (a non-text one is not an event this reads). */
const notificationEnvelope = z.object({ type: z.unknown().optional(), event: z.unknown().optional() });
const notificationObject = z.preprocess(
  inData,
  z.object({ transactionId: absentable(wireId), id: absentable(wireId), withdrawId: absentable(wireId), status: wireStatus }),
);

/**
 * Not seen in the research ("none seen"); read as the payment object the API
 * answers, bare or inside `data`: { transactionId | id, status, type | event? }.
 * A `type`/`event` naming a withdrawal (withdraw, cashout, transfer) is a
 * payout; one naming a payment, transaction, PIX or infraction, or none, a
 * payment; any other is ignored, as is a body without an id or a status.
 */
export function readPronttusNotification(body: Buffer): PronttusNotification | undefined {
  const json = parseJsonObject(body);
  const envelope = notificationEnvelope.safeParse(json);
  const object = notificationObject.safeParse(json);
  if (!envelope.success || !object.success) return undefined;
  const event = envelope.data.type ?? envelope.data.event;
  if (event !== undefined && (typeof event !== 'string' || !(WITHDRAWAL_EVENT.test(event) || PAYMENT_EVENT.test(event)))) return undefined;
  const id = object.data.transactionId ?? object.data.id ?? object.data.withdrawId;
  if (!id) return undefined;
  return { kind: typeof event === 'string' && WITHDRAWAL_EVENT.test(event) ? 'withdrawal' : 'payment', id, status: object.data.status };
}

// ---------------------------------------------------------------- operations

export class PronttusAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = PRONTTUS, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: PRONTTUS_STATUSES, withdrawalStatuses: PRONTTUS_WITHDRAWAL_STATUSES });
  }

  /** An amount that is not one in cents makes the answer unusable (UNAVAILABLE under the operation's prefix), never a guess. */
  private readonly amountOf = (value: string | number): number => {
    try {
      return this.fromProviderAmount(value);
    } catch {
      throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `valor ilegível na resposta do provedor: ${JSON.stringify(value)}`);
    }
  };

  /** The provider's own refusal inside a 2xx `{code, message}`: its message, under the operation's prefix (its idempotency key is freed). */
  private refusal(operation: 'createTransaction' | 'getTransaction' | 'withdraw' | 'refoundTransaction', prefix: string, refused: PronttusRefusal) {
    const message = providerMessage(refused.message) ?? 'recusado pelo provedor';
    return this.failure(operation, prefix, new ProviderCallError('INVALID_ARGUMENT', 'PROVIDER_REJECTED_REQUEST', message));
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toPronttusPayment(input, this.toProviderAmount(input.amount));
    const read = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(PRONTTUS_PATHS.create, body), pronttusCreated);
    if ('refused' in read) throw this.refusal('createTransaction', prefix, read.refused);
    const payment = read.answer;
    const { amount } = payment;
    return pixCodeOnly({
      paymentMethod: 'PIX',
      transactionId: payment.transactionId,
      status: payment.status ? this.transactionStatus(payment.status) : 'PENDING',
      amount: amount !== undefined ? this.mapped('createTransaction', prefix, () => this.amountOf(amount)) : input.amount,
      pixCode: payment.pixCode,
      expiresAt: dateOf(payment.expiresAt) ?? expiresAt,
    });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const read = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get<unknown>(fillPath(PRONTTUS_PATHS.get, { id: transactionId })),
      pronttusPayment,
    );
    if ('refused' in read) throw this.refusal('getTransaction', prefix, read.refused);
    const payment = read.answer;
    const { amount } = payment;
    const expiresAt = dateOf(payment.expiresAt);
    // The id asked for stays the id, whatever the answer echoes.
    return pixCodeOnly({
      paymentMethod: 'PIX',
      transactionId,
      status: this.transactionStatus(payment.status),
      amount: amount !== undefined ? this.mapped('getTransaction', prefix, () => this.amountOf(amount)) : 0,
      ...(payment.pixCode ? { pixCode: payment.pixCode } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const body = toPronttusRefund(transactionId, this.toProviderAmount(amount));
    const root = ctx.baseUrl.replace(VERSION_SEGMENT, '');
    const read = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.http(ctx, { baseUrl: root }).post<unknown>(PRONTTUS_PATHS.refund, body),
      pronttusRefund,
    );
    if ('refused' in read) throw this.refusal('refoundTransaction', prefix, read.refused);
    return fromPronttusRefund(read.answer, transactionId);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const prefix = this.prefixFor('withdraw');
    const body = toPronttusWithdraw(payout, this.toProviderAmount(input.amount));
    const read = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(PRONTTUS_PATHS.withdraw, body), pronttusWithdrawal);
    if ('refused' in read) throw this.refusal('withdraw', prefix, read.refused);
    const { withdrawId, status, amount } = read.answer;
    return {
      withdrawId,
      amount: amount !== undefined ? this.mapped('withdraw', prefix, () => this.amountOf(amount)) : input.amount,
      status: status ? this.withdrawalStatus(status) : 'PENDING',
    };
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
    return event ? notificationKeyOf({ subject: event.kind, id: event.id, status: event.status }, notification.body) : super.notificationKey(ctx, notification);
  }
}
