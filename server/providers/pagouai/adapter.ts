import { z } from 'zod';
import type { PaymentMethod, RefundResult, TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import type { ProviderHttp } from '../../lib/http/index.js';
import { parseJson } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { declaredStatusTable, lookupStatus } from '../../lib/statusTable.js';
import type { AdapterContext, IncomingNotification } from '../adapter.js';
import { TransactionsApiAdapter, TRANSACTIONS_API_STATUSES, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { orderItems } from '../kit/orderItems.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import { fillPath, type AdapterRuntime } from '../kit/declaration.js';
import { unusableAnswer } from '../kit/declaredAdapter.js';

/**
 * PAGOUAI's own public API, v2 (developer.pagou.ai), chosen by an account's
 * api_version `v2`; the default stays the specification's dialect (the
 * transactions API family's F1 body on /transactions, doc 3 §7). A family
 * member may carry a dialect of its own this way: this subclass overrides the
 * family's operations only for `v2` and hands every other call to the family.
 *
 * What v2 is, from Pagou.ai's documentation (addresses in the declaration's
 * evidence): Bearer secret key; `POST /v2/transactions {external_ref, amount
 * (cents), currency, method pix|voucher|credit_card, buyer{name, email, phone,
 * document{type, number}, address}, products[{name, price (cents),
 * quantity}], notify_url, installments, token (pgct_/pgpm_), ip_address}`
 * answering `{success, requestId, data{id, status, method, amount, pix{qr_code,
 * expiration_date}, voucher{barcode, digitable_line, url, expiration_date}}}`;
 * `GET /v2/transactions/{id}` the same transaction; `PUT
 * /v2/transactions/{id}/refund {amount}` (omitted: the whole charge) with an
 * `Idempotency-Key`; failures as problem documents `{type, title, status,
 * detail, errors[{field, message}]}`; webhooks `{id: 'evt_…', event:
 * 'transaction', api_version, data{id, event_type, status, amount, …}}`,
 * unsigned (no signature is documented: the gateway confirms by a read).
 */

// ---------------------------------------------------------------- paths

/** v2 lives at the host's root, beside the specification's `/v1` base: its paths are taken from the account's origin. */
export const PAGOUAI_V2_PATHS = {
  create: '/v2/transactions',
  read: '/v2/transactions/{id}',
  refund: '/v2/transactions/{id}/refund',
} as const;

/** The documented card token prefixes: a single-use token (`pgct_`) or a saved payment method (`pgpm_`), both made by Pagou.ai's own card form. */
const PAGOUAI_CARD_TOKEN = /^(pgct_|pgpm_)/;

// ---------------------------------------------------------------- wire: requests

/**
 * POST /v2/transactions as documented: `amount` integer cents within
 * (0, 100000000], `buyer` and 1 to 100 `products` (price integer cents)
 * required, `installments` 1..12 and a `pgct_`/`pgpm_` token for a card.
 */
export const pagouaiV2ChargeRequest = z.object({
  external_ref: z.string().min(1).optional(),
  amount: z.number().int().min(1).max(100_000_000),
  currency: z.string().min(1),
  method: z.enum(['pix', 'voucher', 'credit_card']),
  notify_url: z.url().optional(),
  buyer: z.object({
    name: z.string().min(1),
    email: z.string().regex(/^[^@\s]+@[^@\s]+$/),
    phone: z.string().optional(),
    document: z.discriminatedUnion('type', [
      z.object({ type: z.literal('CPF'), number: z.string().regex(/^\d{11}$/) }),
      z.object({ type: z.literal('CNPJ'), number: z.string().regex(/^\d{14}$/) }),
    ]),
    address: z
      .object({
        street: z.string(),
        number: z.string(),
        neighborhood: z.string(),
        city: z.string(),
        state: z.string(),
        zipCode: z.string(),
        country: z.literal('BR'),
      })
      .optional(),
  }),
  products: z
    .array(
      z.object({
        name: z.string().min(1),
        price: z.number().int().nonnegative(),
        quantity: z.number().int().positive(),
        tangible: z.boolean(),
        sku: z.string().optional(),
      }),
    )
    .min(1)
    .max(100),
  installments: z.number().int().min(1).max(12).optional(),
  token: z.string().regex(PAGOUAI_CARD_TOKEN).optional(),
  ip_address: z.string().optional(),
});
export type PagouaiV2ChargeRequest = z.infer<typeof pagouaiV2ChargeRequest>;

/** PUT /v2/transactions/{id}/refund: `amount` in integer cents, omitted for the whole charge. */
export const pagouaiV2RefundRequest = z.object({ amount: z.number().int().positive().optional() });
export type PagouaiV2RefundRequest = z.infer<typeof pagouaiV2RefundRequest>;

// ---------------------------------------------------------------- wire: answers

const v2Pix = z.object({ qr_code: absentable(wireText), expiration_date: absentable(wireText) });
const v2Voucher = z.object({
  barcode: absentable(wireText),
  digitable_line: absentable(wireText),
  url: absentable(wireText),
  expiration_date: absentable(wireText),
});

/** A v2 transaction: id and status required, the rest as the method gives it. */
export const pagouaiV2Transaction = z.object({
  id: wireId,
  status: wireStatus,
  method: absentable(wireText),
  amount: wireAmount,
  pix: absentable(v2Pix),
  voucher: absentable(v2Voucher),
});
export type PagouaiV2Transaction = z.output<typeof pagouaiV2Transaction>;

/** The documented envelope `{success: true, requestId, data}`; some reference pages show the transaction bare, read the same. */
export const pagouaiV2TransactionAnswer = z.union([
  z.object({ success: z.literal(true), data: pagouaiV2Transaction }).transform((answer) => answer.data),
  pagouaiV2Transaction,
]);

/**
 * The refund's answer: `{success: true, data{transaction_id, status,
 * refunded_amount}}` on the refund guide, `data.id` in the SDK's example and
 * `is_full_refund` in public fixtures; all lenient but the envelope's success.
 */
export const pagouaiV2RefundAnswer = z.object({
  success: z.literal(true),
  data: absentable(
    z.object({
      transaction_id: absentable(wireId),
      id: absentable(wireId),
      status: absentable(wireStatus),
      refunded_amount: absentable(wireAmount),
      is_full_refund: absentable(z.boolean()),
    }),
  ),
});
export type PagouaiV2RefundAnswer = z.output<typeof pagouaiV2RefundAnswer>;

/** The payment webhook envelope; transfer (`type: 'payout.*'`) and subscription envelopes are not charges and are ignored. */
export const pagouaiV2Event = z.object({
  id: wireId,
  event: z.literal('transaction'),
  api_version: absentable(wireText),
  data: z.object({ id: wireId, event_type: absentable(wireText), status: wireStatus }),
});
export type PagouaiV2Event = z.output<typeof pagouaiV2Event>;

// ---------------------------------------------------------------- request mappers

/** Our payment method as v2's `method` (a boleto is a BRL `voucher`). */
function v2Method(method: PaymentMethod): PagouaiV2ChargeRequest['method'] | undefined {
  if (method === 'PIX') return 'pix';
  if (method === 'BILLET') return 'voucher';
  return method === 'CREDIT_CARD' ? 'credit_card' : undefined;
}

/** The v2 charge body; buyer and products are required by the API, so a charge without a customer is refused before anything is sent. */
export function toPagouaiV2Charge(input: TransactionInput, terms: { notificationUrl: string }): PagouaiV2ChargeRequest {
  const method = v2Method(input.paymentMethod);
  if (!method) throw invalidArgument('transaction.payment_method', `PAGOUAI api_version v2 does not charge ${input.paymentMethod}`, 'INVALID_VALUE');
  const customer = input.customer;
  if (!customer) throw invalidArgument('transaction.customer', 'PAGOUAI api_version v2 needs the buyer (transaction.customer)', 'REQUIRED');
  let token: string | undefined;
  if (method === 'credit_card') {
    token = input.cardId?.trim();
    if (!token || !PAGOUAI_CARD_TOKEN.test(token))
      throw invalidArgument('transaction.card_id', "PAGOUAI api_version v2 charges a card by its Pagou.ai token ('pgct_…' or 'pgpm_…')", 'INVALID_VALUE');
  }
  const phone = customer.phone ? nationalPhoneDigits(customer.phone) : '';
  const address = input.address;
  return {
    ...(input.orderId ? { external_ref: input.orderId } : {}),
    amount: input.amount,
    currency: input.currency || 'BRL',
    method,
    notify_url: terms.notificationUrl,
    buyer: {
      name: customer.name,
      email: customer.email,
      ...(phone ? { phone } : {}),
      document: { type: inferDocumentType(customer.document), number: digitsOnly(customer.document) },
      ...(address
        ? {
            address: {
              street: address.address,
              number: address.number,
              neighborhood: address.district,
              city: address.city,
              state: address.state,
              zipCode: digitsOnly(address.zipCode),
              country: 'BR' as const,
            },
          }
        : {}),
    },
    products: orderItems(input, (cents) => cents).map((item) => ({
      name: item.title,
      price: item.unitPrice,
      quantity: item.quantity,
      tangible: item.tangible,
      ...(item.externalRef ? { sku: item.externalRef } : {}),
    })),
    ...(token ? { installments: input.installments || 1, token } : {}),
    ...(input.customerIp ? { ip_address: input.customerIp } : {}),
  };
}

/** The refund body: the amount in cents; the whole charge (amount 0) omits it, as the API documents. */
export const toPagouaiV2Refund = (amount: number): PagouaiV2RefundRequest => (amount > 0 ? { amount } : {});

// ---------------------------------------------------------------- status table

/**
 * The v2 status reference (developer.pagou.ai "transaction statuses"): its
 * own words over the family's table. authorized is "not yet final" (PENDING),
 * three_ds_required, processed and partially_paid wait for a terminal status;
 * partially_refunded is a paid charge with part given back (the gateway
 * counts its refunds itself); unknown REJECTED (doc 3 §4).
 */
export const PAGOUAI_V2_STATUSES = declaredStatusTable(TRANSACTIONS_API_STATUSES, {
  overrides: {
    authorized: 'PENDING',
    three_ds_required: 'PENDING',
    processed: 'PENDING',
    partially_paid: 'PENDING',
    partially_refunded: 'APPROVED',
    in_protest: 'CHARGEBACK',
  },
});

/** A v2 refund answer whose status is still on its way (pending, processing) is in progress; refunded, partially_refunded or none: done. */
const REFUND_UNDER_WAY = new Set(['pending', 'processing', 'refund_pending', 'pending_refund']);

export function fromPagouaiV2Refund(answer: PagouaiV2RefundAnswer, transactionId: string): RefundResult {
  const data = answer.data;
  const refundId = data?.id ?? data?.transaction_id ?? transactionId;
  const status = data?.status?.toLowerCase();
  // A 2xx with success true is an accepted refund: done, or on its way where the answer says so (its cents stay reserved).
  return status && REFUND_UNDER_WAY.has(status) ? { refundId, status: true, pending: true } : { refundId, status: true };
}

// ---------------------------------------------------------------- the adapter

export class PagouaiAdapter extends TransactionsApiAdapter {
  constructor(member: TransactionsApiMember, runtime: AdapterRuntime = {}) {
    super(member, runtime);
  }

  private v2(ctx: AdapterContext): boolean {
    return this.apiVersion(ctx) === 'v2';
  }

  /** v2's paths sit at the host's root: the account's base URL without its path (the default base is the specification's `…/v1`). */
  private v2Http(ctx: AdapterContext): ProviderHttp {
    // One client per account context, as the family keeps its own (connections and breaker state are reused).
    const known = this.v2Clients.get(ctx);
    if (known) return known;
    const client = this.http(ctx, { baseUrl: new URL(ctx.baseUrl).origin });
    this.v2Clients.set(ctx, client);
    return client;
  }

  private readonly v2Clients = new WeakMap<AdapterContext, ProviderHttp>();

  private v2Status(value: string): TransactionStatus {
    return lookupStatus(PAGOUAI_V2_STATUSES, value, (providerStatus, mappedTo) =>
      this.log.warn({ provider: this.identity.id, providerStatus, mappedTo }, 'unknown provider transaction status'),
    );
  }

  private v2Result(transaction: PagouaiV2Transaction, fallbackMethod?: PaymentMethod): TransactionResult {
    const method = transaction.method?.toLowerCase();
    const paymentMethod: PaymentMethod =
      method === 'pix' ? 'PIX' : method === 'voucher' ? 'BILLET' : method === 'credit_card' ? 'CREDIT_CARD' : (fallbackMethod ?? 'PIX');
    const expiration = transaction.pix?.expiration_date ?? transaction.voucher?.expiration_date;
    const expiresAt = expiration && !Number.isNaN(Date.parse(expiration)) ? new Date(expiration) : undefined;
    const billetCode = transaction.voucher?.digitable_line ?? transaction.voucher?.barcode;
    return {
      paymentMethod,
      transactionId: transaction.id,
      status: this.v2Status(transaction.status),
      amount: this.fromProviderAmount(transaction.amount),
      ...(transaction.pix?.qr_code ? { pixCode: transaction.pix.qr_code } : {}),
      ...(billetCode ? { billetCode } : {}),
      ...(transaction.voucher?.url ? { billetUrl: transaction.voucher.url } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    };
  }

  /** The public API (v2) charges a card only by Pagou.ai's own token; the specification's dialect takes the family's card. */
  override takesCardData(ctx: AdapterContext): boolean {
    return !this.v2(ctx) && super.takesCardData(ctx);
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    if (!this.v2(ctx)) return super.createTransaction(ctx, input);
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const body = toPagouaiV2Charge(input, { notificationUrl: ctx.notificationUrl });
    const transaction = await this.exchange(
      'createTransaction',
      prefix,
      () => this.v2Http(ctx).post<unknown>(PAGOUAI_V2_PATHS.create, body),
      pagouaiV2TransactionAnswer,
    );
    const created = this.mapped('createTransaction', prefix, () => this.v2Result(transaction, input.paymentMethod));
    // A PIX charge without its BR Code is one nobody can pay (voucher lines may come later, by a read: documented).
    if (input.paymentMethod === 'PIX' && !created.pixCode) this.mapped('createTransaction', prefix, () => unusableAnswer('código PIX da transação'));
    return pixCodeOnly(created);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    if (!this.v2(ctx)) return super.getTransaction(ctx, transactionId);
    const prefix = this.prefixFor('getTransaction');
    const transaction = await this.exchange(
      'getTransaction',
      prefix,
      () => this.v2Http(ctx).get<unknown>(fillPath(PAGOUAI_V2_PATHS.read, { id: transactionId })),
      pagouaiV2TransactionAnswer,
    );
    return pixCodeOnly({ ...this.mapped('getTransaction', prefix, () => this.v2Result(transaction)), transactionId });
  }

  /** PUT /v2/transactions/{id}/refund with the gateway's idempotency key for this refund (the same on every retry: one refund at Pagou.ai). */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number, idempotencyKey?: string): Promise<RefundResult> {
    if (!this.v2(ctx)) return super.refoundTransaction(ctx, transactionId, amount);
    const prefix = this.prefixFor('refoundTransaction');
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
    const answer = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.v2Http(ctx).put<unknown>(fillPath(PAGOUAI_V2_PATHS.refund, { id: transactionId }), toPagouaiV2Refund(amount), { headers }),
      pagouaiV2RefundAnswer,
    );
    return fromPagouaiV2Refund(answer, transactionId);
  }

  override async processWebhook(ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    if (!this.v2(ctx)) return super.processWebhook(ctx, notification);
    const event = readPagouaiV2Event(notification.body);
    return event ? { type: 'TRANSACTION', transactionId: event.data.id, status: this.v2Status(event.data.status) } : undefined;
  }

  /** v2 events carry their own id, the documented key to deduplicate by (one transaction emits several events). */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    if (!this.v2(ctx)) return super.notificationKey(ctx, notification);
    const event = readPagouaiV2Event(notification.body);
    return this.eventNotificationKey(
      event ? { kind: 'transaction', id: event.data.id, status: event.data.status, eventId: event.id } : undefined,
      ctx,
      notification,
    );
  }
}

/** A v2 payment event, or undefined (not JSON, another envelope, no id or status): ignored, never a status. */
export function readPagouaiV2Event(body: Buffer | string): PagouaiV2Event | undefined {
  const parsed = pagouaiV2Event.safeParse(parseJson(body));
  return parsed.success ? parsed.data : undefined;
}
