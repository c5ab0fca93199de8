import { pixQrCodeDataUrl } from '../../lib/pixQrCode.js';
import { lookupStatus, statusTable, type StatusTable as LibStatusTable } from '../../lib/statusTable.js';
import { createProviderHttp, providerError, providerMessage, type AuthStyle, type ProviderHttp } from '../../lib/http/index.js';
import { GatewayError } from '../../lib/errors.js';
import { centsToReais, reaisToCents } from '../../lib/money.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { SECONDS_PER_DAY, boletoDueDate, boletoDueDaysFor, pixExpiresAt, pixExpirySecondsFor } from '../../lib/expiry.js';
import { FAILURE_PREFIXES, catalogueError, paymentMethodNotSupportedBy, providerFailure, type CatalogueKey } from '../../lib/providerMessages.js';
import { logger as defaultLogger, type Logger } from '../../lib/logger.js';
import type { PaymentMethod, RefundResult, TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { ProviderAdapter, type AdapterContext, type IncomingNotification, type ProviderIdentity } from '../adapter.js';

/**
 * The "transactions API" family (spec doc 2 §7: PAGUESAFE, PIXIUM, HORIZONBANK,
 * TRANSAC, UNICOPAY, FAIRPAY, GATYWAY, NEWLEVEL, ROYALTY, VENIT, VENITIP, and the
 * white-label gateways of doc 3 that speak the same dialect): POST a transaction,
 * GET it by id, refund it by POST …/refund or DELETE, and receive the
 * transaction object back as a postback. Written once here; each member is a
 * TransactionsApiMember declaring only what differs.
 *
 * The spec shows paths and the fields mapped into our results, not the payload
 * shapes. The shapes below are the dialect these white-label gateways share
 * (camelCase, `paymentMethod: 'pix' | 'boleto' | 'credit_card'`,
 * `customer.document: { number, type }`, `pix`/`boleto` sub-objects, the
 * postback URL in `postbackUrl`); they are the gateway's decision, recorded in
 * the report of issue 5.
 */

// ---------------------------------------------------------------- the member declaration

/** `{id}` in a path is replaced by the URL-encoded transaction id. */
export interface TransactionsApiPaths {
  create: string;
  get: string;
  refund: { method: 'POST' | 'DELETE'; path: string };
}

export interface TransactionsApiMember {
  id: string;
  aliases?: readonly string[];
  specGroup: string;
  /** The spec omits hosts; accounts normally set base_url. */
  defaultBaseUrl: string;
  paymentMethods: readonly PaymentMethod[];
  auth: AuthStyle;
  /** How the provider's JSON carries money: integer cents, or a number in reais. */
  amounts: 'cents' | 'reais';
  /** Only what differs from DEFAULT_PATHS. */
  paths?: Partial<TransactionsApiPaths>;
  statuses?: {
    /** Replaces the family's table entirely (VENITIP's "only paid, received, confirmed are APPROVED"). */
    table?: Readonly<Record<string, TransactionStatus>>;
    /** Entries added to (or changed in) the family's table. */
    overrides?: Readonly<Record<string, TransactionStatus>>;
    /** A status in no entry; the spec's default is REJECTED. */
    unknown?: TransactionStatus;
  };
  /** Validity sent to the provider, in whole days; by default the lib/expiry tables for this id. */
  expiry?: { pixDays?: number; boletoDays?: number };
  /** A fixed catalogue text thrown when a refund fails, instead of 'Erro ao estornar transação: <provider message>'. */
  refundFailure?: CatalogueKey;
  timeoutMs?: number;
}

export const DEFAULT_PATHS: TransactionsApiPaths = {
  create: '/transactions',
  get: '/transactions/{id}',
  refund: { method: 'POST', path: '/transactions/{id}/refund' },
};

/** Run-time knobs that are not part of what the spec says about a member (tests set them). */
export interface TransactionsApiOptions {
  timeoutMs?: number;
  now?: () => Date;
  logger?: Pick<Logger, 'warn'>;
}

// ---------------------------------------------------------------- status table

/**
 * The family's provider status → our status (spec doc 1 §4 table, doc 2 §4
 * "common pattern"). Keys are lower case; lookups lower-case the provider's
 * value. `authorized` is PENDING, as doc 2's common pattern says for this group
 * (doc 1 has it APPROVED only "in some" providers). `canceled` is CANCELED: the
 * family's spec text does not name it, our vocabulary has it, and PENDING →
 * CANCELED is the only move a canceled, never-paid charge can make.
 */
export const TRANSACTIONS_API_STATUSES: Readonly<Record<string, TransactionStatus>> = {
  waiting: 'PENDING',
  waiting_payment: 'PENDING',
  processing: 'PENDING',
  pending: 'PENDING',
  created: 'PENDING',
  awaiting: 'PENDING',
  authorized: 'PENDING',
  paid: 'APPROVED',
  approved: 'APPROVED',
  confirmed: 'APPROVED',
  received: 'APPROVED',
  completed: 'APPROVED',
  captured: 'APPROVED',
  refunded: 'REFUNDED',
  chargeback: 'CHARGEBACK',
  chargedback: 'CHARGEBACK',
  in_protest: 'CHARGEBACK',
  in_dispute: 'CHARGEBACK',
  dispute: 'CHARGEBACK',
  retained: 'CHARGEBACK',
  refused: 'REJECTED',
  failed: 'REJECTED',
  declined: 'REJECTED',
  expired: 'REJECTED',
  canceled: 'CANCELED',
  cancelled: 'CANCELED',
};

export type StatusTable = LibStatusTable<TransactionStatus>;

/** The member's table: the family's (or its replacement) with its overrides, and its "unknown" default. */
export function statusTableFor(member: Pick<TransactionsApiMember, 'statuses'>): StatusTable {
  const { table = TRANSACTIONS_API_STATUSES, overrides = {}, unknown = 'REJECTED' } = member.statuses ?? {};
  return statusTable({ ...statusTable(table, unknown).entries, ...statusTable(overrides, unknown).entries }, unknown);
}

/** A provider status through a table; a status in no entry is logged as a warning and gets the table's default. */
export function mapTransactionStatus(table: StatusTable, status: unknown, provider: string, log: Pick<Logger, 'warn'> = defaultLogger): TransactionStatus {
  return lookupStatus(table, status, (providerStatus, mappedTo) => log.warn({ provider, providerStatus, mappedTo }, 'unknown provider transaction status'));
}

// ---------------------------------------------------------------- the provider's shapes

type ApiId = string | number;
type ApiAmount = number | string;
export type ApiPaymentMethod = 'pix' | 'boleto' | 'credit_card';

export interface ApiTransaction {
  id?: ApiId;
  status?: string;
  amount?: ApiAmount;
  paymentMethod?: string;
  /** PIX: `qrcode` is the copy-and-paste BR Code. */
  pix?: { qrcode?: string; expirationDate?: string } | null;
  boleto?: { url?: string; digitableLine?: string; barcode?: string; expirationDate?: string; dueDate?: string } | null;
  refunds?: Array<{ id?: ApiId }>;
  /** Some members answer inside an envelope. */
  data?: ApiTransaction;
}

// ---------------------------------------------------------------- request mappers

const METHOD_TO_API: Record<PaymentMethod, ApiPaymentMethod> = { PIX: 'pix', BILLET: 'boleto', CREDIT_CARD: 'credit_card' };
const METHOD_FROM_API: Readonly<Record<string, PaymentMethod>> = {
  pix: 'PIX',
  boleto: 'BILLET',
  billet: 'BILLET',
  credit_card: 'CREDIT_CARD',
  card: 'CREDIT_CARD',
};

/** Our integer cents → the member's unit. */
export const toApiAmount = (cents: number, amounts: TransactionsApiMember['amounts']): number => (amounts === 'reais' ? centsToReais(cents) : cents);

/** The member's unit → our integer cents. */
export function fromApiAmount(amount: ApiAmount, amounts: TransactionsApiMember['amounts']): number {
  if (amounts === 'reais') return reaisToCents(amount);
  const cents = Number(amount);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an amount in cents: ${JSON.stringify(amount)}`);
  return cents;
}

export interface ExpiryDays {
  pixDays: number;
  boletoDays: number;
}

/** The member's declared validity, or the lib/expiry tables' values for its id (spec doc 1 §9: 1 day PIX, 3 days boleto). */
export function expiryDaysFor(member: Pick<TransactionsApiMember, 'id' | 'expiry'>): ExpiryDays {
  return {
    pixDays: member.expiry?.pixDays ?? Math.max(1, Math.round(pixExpirySecondsFor(member.id) / SECONDS_PER_DAY)),
    boletoDays: member.expiry?.boletoDays ?? boletoDueDaysFor(member.id),
  };
}

type RequestMember = Pick<TransactionsApiMember, 'id' | 'amounts' | 'expiry'>;

/**
 * Our transaction → the provider's POST body. One item covering the amount is
 * sent when the caller gives none (these APIs require items). The postback URL
 * is always the gateway's sidecar: the caller's webhookUrl is served by the
 * gateway's own outbound deliveries.
 */
export function toApiTransaction(input: TransactionInput, member: RequestMember, ctx: Pick<AdapterContext, 'notificationUrl'>) {
  const amount = (cents: number) => toApiAmount(cents, member.amounts);
  const expiry = expiryDaysFor(member);
  if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
  const items = input.items.length
    ? input.items.map((item) => ({
        externalRef: item.id,
        title: item.title,
        unitPrice: amount(item.unitPrice),
        quantity: item.quantity,
        tangible: item.tangible,
      }))
    : [{ title: input.description || 'Pedido', unitPrice: amount(input.amount), quantity: 1, tangible: false }];
  return {
    amount: amount(input.amount),
    paymentMethod: METHOD_TO_API[input.paymentMethod],
    ...(input.paymentMethod === 'CREDIT_CARD' ? { installments: input.installments || 1, card: { id: input.cardId } } : {}),
    ...(input.paymentMethod === 'PIX' ? { pix: { expiresInDays: expiry.pixDays } } : {}),
    ...(input.paymentMethod === 'BILLET' ? { boleto: { expiresInDays: expiry.boletoDays } } : {}),
    ...(input.customer ? { customer: toApiCustomer(input) } : {}),
    items,
    ...(input.splits.length
      ? {
          splits: input.splits.map((split) => ({
            recipientId: split.recipientId,
            type: split.type === 'FIXED' ? 'fixed' : 'percentage',
            amount: split.type === 'FIXED' ? amount(split.amount) : split.amount,
            chargeProcessingFee: split.chargeProcessingFee,
            chargeRemainder: split.chargeRemainder,
            liable: split.liable,
          })),
        }
      : {}),
    postbackUrl: ctx.notificationUrl,
    ...(input.orderId ? { externalRef: input.orderId } : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.customerIp ? { ip: input.customerIp } : {}),
    currency: input.currency || 'BRL',
  };
}

function toApiCustomer(input: TransactionInput) {
  const customer = input.customer!;
  const address = input.address;
  return {
    name: customer.name,
    email: customer.email,
    phone: nationalPhoneDigits(customer.phone),
    document: { number: digitsOnly(customer.document), type: inferDocumentType(customer.document).toLowerCase() },
    ...(address
      ? {
          address: {
            street: address.address,
            streetNumber: address.number,
            neighborhood: address.district,
            city: address.city,
            state: address.state,
            zipCode: digitsOnly(address.zipCode),
            country: 'BR',
          },
        }
      : {}),
  };
}

/** The refund body: the amount to give back, in the member's unit (spec doc 1 §7: "POST /transactions/{id}/refund (amount)"). */
export const toApiRefund = (amountCents: number, member: Pick<TransactionsApiMember, 'amounts'>) => ({ amount: toApiAmount(amountCents, member.amounts) });

export const pathFor = (template: string, transactionId: string): string => template.replaceAll('{id}', encodeURIComponent(transactionId));

// ---------------------------------------------------------------- response mappers

const idText = (id: unknown): string | undefined =>
  typeof id === 'string' && id.trim() ? id.trim() : typeof id === 'number' && Number.isFinite(id) ? String(id) : undefined;
const dateOf = (value: unknown): Date | undefined => {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** The transaction object, whether the member answers it bare or inside `{ data: … }`. */
export const unwrapTransaction = (body: unknown): ApiTransaction =>
  body && typeof body === 'object'
    ? (body as ApiTransaction).id === undefined && (body as ApiTransaction).data && typeof (body as ApiTransaction).data === 'object'
      ? (body as ApiTransaction).data!
      : (body as ApiTransaction)
    : {};

export interface ResponseContext {
  provider: string;
  amounts: TransactionsApiMember['amounts'];
  table: StatusTable;
  expiry: ExpiryDays;
  /** When the charge was asked for: the base of the fallback expiry when the provider omits it. */
  now: Date;
  /** What we asked for, used where the answer leaves a field out (create). */
  requested?: { paymentMethod: PaymentMethod; amount: number };
  log?: Pick<Logger, 'warn'>;
}

/**
 * The provider's transaction → our result. Returns undefined when the body has
 * no transaction id or status: the operation turns that into an error carrying
 * the provider's message (a failure inside a 2xx body). `pixQrCode` is filled
 * later from the code (spec doc 2 §3: an image data URL).
 */
export function fromApiTransaction(body: unknown, context: ResponseContext): TransactionResult | undefined {
  const transaction = unwrapTransaction(body);
  const transactionId = idText(transaction.id);
  if (!transactionId || typeof transaction.status !== 'string' || !transaction.status) return undefined;
  const paymentMethod =
    METHOD_FROM_API[String(transaction.paymentMethod ?? '').toLowerCase()] ??
    context.requested?.paymentMethod ??
    (transaction.pix ? 'PIX' : transaction.boleto ? 'BILLET' : 'CREDIT_CARD');
  const amount =
    transaction.amount !== undefined && transaction.amount !== null ? fromApiAmount(transaction.amount, context.amounts) : (context.requested?.amount ?? 0);
  const result: TransactionResult = {
    paymentMethod,
    transactionId,
    status: mapTransactionStatus(context.table, transaction.status, context.provider, context.log),
    amount,
  };
  if (paymentMethod === 'PIX') {
    result.pixCode = transaction.pix?.qrcode || undefined;
    result.expiresAt = dateOf(transaction.pix?.expirationDate) ?? pixExpiresAt(context.now, context.expiry.pixDays * SECONDS_PER_DAY);
  }
  if (paymentMethod === 'BILLET') {
    result.billetCode = transaction.boleto?.digitableLine || transaction.boleto?.barcode || undefined;
    result.billetUrl = transaction.boleto?.url || undefined;
    result.expiresAt = dateOf(transaction.boleto?.expirationDate ?? transaction.boleto?.dueDate) ?? boletoDueDate(context.now, context.expiry.boletoDays);
  }
  return result;
}

/** The QR image of a PIX code, as a data URL. */
export const pixQrImage = pixQrCodeDataUrl;

/**
 * A refund answer → our result. A 2xx answer is a refund the provider took,
 * unless its body carries a status our table maps to REJECTED (a refusal in a
 * 2xx body): then `status: false`. The refund id is the newest entry of
 * `refunds`, else the body's id, else the transaction's.
 */
export function fromApiRefund(body: unknown, transactionId: string, table: StatusTable, provider: string, log?: Pick<Logger, 'warn'>): RefundResult {
  const answer = unwrapTransaction(body);
  const refunds = Array.isArray(answer.refunds) ? answer.refunds : [];
  // An answer with no status, id or refund list says nothing about the refund: never "ok" (an outage, not a refusal).
  if (!(typeof answer.status === 'string' && answer.status) && idText(answer.id) === undefined && refunds.length === 0) {
    throw providerFailure(FAILURE_PREFIXES.REFUND_TRANSACTION, 'resposta do provedor sem dados do estorno', 'UNAVAILABLE');
  }
  const refundId = idText(refunds.at(-1)?.id) ?? idText(answer.id) ?? transactionId;
  const refused = typeof answer.status === 'string' && answer.status !== '' && mapTransactionStatus(table, answer.status, provider, log) === 'REJECTED';
  return { refundId, status: !refused };
}

// ---------------------------------------------------------------- notifications

export interface ParsedNotification {
  transactionId: string;
  /** The provider's status text as sent. */
  status: string;
}

const ACCEPTED_EVENT = /^transactions?([._:-].*)?$/i;

/**
 * The postback these providers send is their transaction object. Accepted shapes:
 *   { type: 'transaction', objectId, data: { id, status, … } }   (the envelope)
 *   { data: { id, status, … } }
 *   { id, status, … }                                              (the bare object)
 * The transaction id is data.id, else objectId, else the top-level id (only
 * when there is no data: an envelope's own id is the postback's, not the
 * transaction's); the status is data.status, else the top-level status.
 * A `type` or `event` other than transaction(s)[.…] (transfers, withdrawals)
 * is irrelevant; a body without an id or a status cannot be used. Both give
 * undefined.
 */
export function parseTransactionNotification(body: Buffer | string): ParsedNotification | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const envelope = payload as Record<string, unknown>;
  const event = envelope.type ?? envelope.event;
  if (event !== undefined && !(typeof event === 'string' && ACCEPTED_EVENT.test(event))) return undefined;
  const data = envelope.data && typeof envelope.data === 'object' && !Array.isArray(envelope.data) ? (envelope.data as Record<string, unknown>) : undefined;
  const transactionId = idText(data?.id) ?? idText(envelope.objectId) ?? (data ? undefined : idText(envelope.id));
  const status = data?.status ?? envelope.status;
  if (!transactionId || typeof status !== 'string' || !status.trim()) return undefined;
  return { transactionId, status: status.trim() };
}

// ---------------------------------------------------------------- the adapter

/** One adapter class for every member; a member module is `new TransactionsApiAdapter(ITS_DECLARATION)`. */
export class TransactionsApiAdapter extends ProviderAdapter {
  readonly identity: ProviderIdentity;
  protected readonly member: TransactionsApiMember;
  protected readonly paths: TransactionsApiPaths;
  protected readonly table: StatusTable;
  protected readonly expiry: ExpiryDays;
  private readonly options: TransactionsApiOptions;

  constructor(member: TransactionsApiMember, options: TransactionsApiOptions = {}) {
    super();
    this.member = member;
    this.options = options;
    this.paths = { ...DEFAULT_PATHS, ...member.paths };
    this.table = statusTableFor(member);
    this.expiry = expiryDaysFor(member);
    this.identity = {
      id: member.id,
      aliases: member.aliases ?? [],
      specGroup: member.specGroup,
      paymentMethods: member.paymentMethods,
      withdrawMethods: [],
      defaultBaseUrl: member.defaultBaseUrl,
    };
  }

  protected http(ctx: AdapterContext): ProviderHttp {
    return createProviderHttp({ provider: this.member.id, timeoutMs: this.options.timeoutMs ?? this.member.timeoutMs, auth: this.member.auth, ctx });
  }

  private get log(): Pick<Logger, 'warn'> {
    return this.options.logger ?? defaultLogger;
  }

  private responseContext(now: Date, requested?: ResponseContext['requested']): ResponseContext {
    return { provider: this.member.id, amounts: this.member.amounts, table: this.table, expiry: this.expiry, now, requested, log: this.log };
  }

  /** A 2xx body without a transaction: the provider's message where it gives one (it refused), else an unusable answer (an outage). */
  private unusableAnswer(prefix: string, body: unknown): GatewayError {
    const message = providerMessage(body);
    return message
      ? providerFailure(prefix, message, 'INVALID_ARGUMENT')
      : providerFailure(prefix, 'resposta do provedor sem id ou status da transação', 'UNAVAILABLE');
  }

  private async withQrImage(result: TransactionResult): Promise<TransactionResult> {
    return result.pixCode ? { ...result, pixQrCode: await pixQrImage(result.pixCode) } : result;
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    if (!this.member.paymentMethods.includes(input.paymentMethod)) {
      throw new GatewayError('UNIMPLEMENTED', paymentMethodNotSupportedBy(this.member.id), {
        reason: 'PAYMENT_METHOD_NOT_SUPPORTED',
        field: 'transaction.payment_method',
      });
    }
    const body = toApiTransaction(input, this.member, ctx);
    const now = this.options.now?.() ?? new Date();
    const { data } = await this.http(ctx).post<unknown>(this.paths.create, body, { errorPrefix: FAILURE_PREFIXES.CREATE_TRANSACTION });
    const result = fromApiTransaction(data, this.responseContext(now, { paymentMethod: input.paymentMethod, amount: input.amount }));
    if (!result) throw this.unusableAnswer(FAILURE_PREFIXES.CREATE_TRANSACTION, data);
    return this.withQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const now = this.options.now?.() ?? new Date();
    const { data } = await this.http(ctx).get<unknown>(pathFor(this.paths.get, transactionId), { errorPrefix: FAILURE_PREFIXES.GET_TRANSACTION });
    const result = fromApiTransaction(data, this.responseContext(now));
    if (!result) throw this.unusableAnswer(FAILURE_PREFIXES.GET_TRANSACTION, data);
    return this.withQrImage(result);
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const { method, path } = this.paths.refund;
    const url = pathFor(path, transactionId);
    const body = toApiRefund(amount, this.member);
    try {
      const http = this.http(ctx);
      const { data } = method === 'DELETE' ? await http.delete<unknown>(url, { body }) : await http.post<unknown>(url, body);
      return fromApiRefund(data, transactionId, this.table, this.member.id, this.log);
    } catch (error) {
      const failure = providerError(FAILURE_PREFIXES.REFUND_TRANSACTION, error);
      if (!this.member.refundFailure) throw failure;
      // The spec's fixed text replaces the provider's message; keep that message in the log and the outcome's code.
      this.log.warn({ provider: this.member.id, transactionId, failure: failure.message }, 'refund failed');
      throw catalogueError(this.member.refundFailure, { code: failure.code });
    }
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const parsed = parseTransactionNotification(notification.body);
    if (!parsed) return undefined;
    return { type: 'TRANSACTION', transactionId: parsed.transactionId, status: mapTransactionStatus(this.table, parsed.status, this.member.id, this.log) };
  }

  /** Unsigned postbacks carry no event id of their own that survives re-delivery: the transaction id and its status identify one. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const parsed = parseTransactionNotification(notification.body);
    return parsed ? `transaction:${parsed.transactionId}:${parsed.status.toLowerCase()}` : super.notificationKey(ctx, notification);
  }
}
