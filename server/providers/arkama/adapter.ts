import { randomUUID } from 'node:crypto';
import type { TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { z } from 'zod';
import { parseJsonObject } from '../../lib/json.js';
import { COUNTRY_CODE, nationalPhoneDigits } from '../../lib/phone.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText, unwrappedAnswer } from '../kit/answers.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * ARKAMA (spec doc 2, group 1): the spec shows no paths for group 1, so its
 * API as public integrations use it (provider research, and the stored public
 * code read for this adapter; every source is in docs/decisions.md):
 * - host `https://app.arkama.com.br/api/v1`, `Authorization: Bearer <token>`
 *   and a `User-Agent` (research);
 * - PIX orders `POST /orders {paymentMethod "pix", value (reais),
 *   customer{name, email, document, cellphone}, items[{title, quantity,
 *   unitPrice (reais), isDigital}], shipping{address{cep, city, state, street,
 *   neighborhood, number, complement}}, ip, externalRef}` answered `{id,
 *   pix{payload}}`, bare or under `data`; the account the research read
 *   validated paymentMethod, items.*.isDigital, shipping.address and ip as
 *   required (research);
 * - `GET /orders/{id}` answered `{status, …}`, bare or under `data`, with the
 *   statuses UNDEFINED, PENDING, PAID, CANCELED, REFUSED, CHARGEDBACK,
 *   REFUNDED, IN_ANALYSIS, IN_DISPUTE, PROCESSING, PRE_CHARGEDBACK (stored code);
 * - webhooks in Arkama's own postback format 2.0.0 (its documentation,
 *   ARKAMA_POSTBACK_V2): `{token, event: "ORDER_" + the order's status,
 *   data{cart{…}, order{id, status, value, …}}}` (`CART_…` events are the
 *   cart's, not a charge's); the older `{event: "ORDER_STATUS_CHANGED",
 *   data{id, status, …}}` one integration in stored code sends is still read.
 *   No signature is documented, so they are unsigned and the gateway confirms
 *   them by the read.
 * Where the caller leaves out what Arkama requires (customer, items, address,
 * ip), the charge is refused with INVALID_ARGUMENT naming the field: document
 * 1 §9's placeholder fallbacks are not reproduced, and no address is invented.
 */

// ---------------------------------------------------------------- declaration

export const ARKAMA_PATHS = { orders: '/orders', order: '/orders/{id}' } as const;

/** Arkama's documentation of its postback format 2.0.0 (the webhook shape read below). */
export const ARKAMA_POSTBACK_V2 = 'https://arkama.readme.io/reference/arkama-postback-v2';

export const ARKAMA: ProviderDeclaration = {
  identity: { id: 'ARKAMA', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://app.arkama.com.br/api/v1' },
  // PIX orders, read back by GET /orders/{id}; their status webhooks. No payouts or refunds were found.
  capabilities: { paymentMethods: ['PIX'], webhooks: true },
  auth: { type: 'bearer', token: 'secretKey' },
  // Arkama's API wants a User-Agent; it names the gateway, nothing of the account.
  headers: { 'user-agent': { fixed: 'payment-gateway/1' } },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  sources:
    'host `app.arkama.com.br/api/v1`, Bearer token and User-Agent, reais, POST /orders `{paymentMethod, value, customer{name, email, document, cellphone}, items[{title, quantity, unitPrice, isDigital}], shipping{address{cep, city, state, street, neighborhood, number, complement}}, ip, externalRef}` → `{id, pix{payload}}` (or under `data`), paymentMethod, isDigital, shipping.address and ip required: research (docs arkama.readme.io cited by integration 51855407285; integrations 35056424503, 35413680008, 33131544253, 15218951938, 15458571485); GET /orders/{id} and its statuses (stored public code 35275554849, 35615630511, 51855407285); the webhook `{token, event: "ORDER_" + status, data{cart, order{id, status, value, …}}}`: Arkama\'s postback 2.0.0 documentation (https://arkama.readme.io/reference/arkama-postback-v2), the older ORDER_STATUS_CHANGED one (35540121732) still read; the cellphone as 55 + DDD + number (35056424503); refusing a charge without customer, items, address or ip, PIX only, UNDEFINED as PENDING, PRE_CHARGEDBACK as CHARGEBACK, no signature: the gateway\'s decision; PIX valid 1 day (nothing sent): document 1 §9',
};

// ---------------------------------------------------------------- wire

/** An order as Arkama answers it (bare or under `data`). */
const arkamaOrder = z.object({ id: wireId, status: absentable(wireStatus), value: absentable(wireAmount) });

/** Bare or under `data`: the object under `data` where there is one. */
const underData = <T extends z.ZodType>(schema: T) => unwrappedAnswer(schema);

/** A created order: nobody can pay one without its PIX payload. */
export const arkamaCreated = underData(arkamaOrder.extend({ pix: z.object({ payload: wireText }) }));

/** A read order carries its status and value. */
export const arkamaRead = underData(arkamaOrder.extend({ id: absentable(wireId), status: wireStatus, value: wireAmount }));

/**
 * Postback 2.0.0 as Arkama documents it: a sale's event is "ORDER_" followed by
 * the order's status, the order under `data.order`. An event that does not
 * name the status its order carries is not one Arkama sends, so it is not read.
 */
export const arkamaPostbackV2 = z
  .object({ event: z.string(), data: z.object({ order: z.object({ id: wireId, status: wireStatus }) }) })
  .refine((postback) => postback.event === `ORDER_${postback.data.order.status}`)
  .transform((postback) => postback.data.order);

/** The older webhook one integration sends: ORDER_STATUS_CHANGED with its order's id and status. */
export const arkamaNotification = z
  .object({ event: z.literal('ORDER_STATUS_CHANGED'), data: z.object({ id: wireId, status: wireStatus }) })
  .transform((notification) => notification.data);

/**
 * Body of POST /orders (research): a PIX order in reais, with the customer,
 * items that say whether they are digital, the shipping address and the
 * buyer's IP, all of which the account the research read required.
 */
export const arkamaOrderRequest = z.object({
  paymentMethod: z.literal('pix'),
  value: z.number().positive(),
  customer: z.object({
    name: z.string(),
    email: z.string(),
    document: z.string().regex(/^\d+$/),
    cellphone: z.string().regex(/^\d+$/).optional(),
  }),
  items: z.array(z.object({ title: z.string(), quantity: z.number().int().positive(), unitPrice: z.number().nonnegative(), isDigital: z.boolean() })).min(1),
  shipping: z.object({
    address: z.object({
      cep: z.string(),
      city: z.string(),
      state: z.string(),
      street: z.string(),
      neighborhood: z.string(),
      number: z.string(),
      complement: z.string(),
    }),
  }),
  ip: z.string().min(1),
  externalRef: z.string().min(1),
});
export type ArkamaOrderRequest = z.infer<typeof arkamaOrderRequest>;

// ---------------------------------------------------------------- request mappers

const required = (field: string, what: string): never => {
  throw invalidArgument(field, `${field} is required for ARKAMA orders (${what})`, 'REQUIRED');
};

/**
 * The body of POST /orders from the caller's own values. Arkama requires a
 * customer, items that say whether they are digital, a shipping address and
 * the buyer's IP; a charge without one of them is refused naming the field.
 */
export function toArkamaOrder(input: TransactionInput, toReais: (cents: number) => number): ArkamaOrderRequest {
  const customer = input.customer ?? required('transaction.customer', 'its name, email, document and cellphone');
  if (!input.items.length) required('transaction.items', 'each item says whether it is digital');
  const address = input.address ?? required('transaction.address', 'the order is sent with its shipping address');
  const ip = input.customerIp?.trim() || required('transaction.customer_ip', "the buyer's IP");
  const phone = nationalPhoneDigits(customer.phone ?? '');
  return {
    paymentMethod: 'pix',
    value: toReais(input.amount),
    customer: {
      name: customer.name,
      email: customer.email,
      document: digitsOnly(customer.document),
      ...(phone ? { cellphone: `${COUNTRY_CODE}${phone}` } : {}),
    },
    items: input.items.map((item) => ({ title: item.title, quantity: item.quantity, unitPrice: toReais(item.unitPrice), isDigital: !item.tangible })),
    shipping: {
      address: {
        cep: digitsOnly(address.zipCode),
        city: address.city,
        state: address.state,
        street: address.address,
        neighborhood: address.district,
        number: address.number,
        // The contract carries no complement; empty, as the body the research's account validated sent it.
        complement: '',
      },
    },
    ip,
    externalRef: input.orderId ?? input.idempotencyKey ?? randomUUID(),
  };
}

// ---------------------------------------------------------------- statuses

/**
 * Arkama's order statuses (stored code) by document 1 §4: PAID APPROVED;
 * PENDING, PROCESSING, IN_ANALYSIS and UNDEFINED (nothing decided yet)
 * PENDING; REFUNDED REFUNDED; CHARGEDBACK, PRE_CHARGEDBACK and IN_DISPUTE
 * CHARGEBACK (§4's dispute family); REFUSED REJECTED; CANCELED a charge never
 * paid; unknown REJECTED (group 1).
 */
export const ARKAMA_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ UNDEFINED: 'PENDING', PENDING: 'PENDING', PROCESSING: 'PENDING', IN_ANALYSIS: 'PENDING' },
    ...{ PAID: 'APPROVED', REFUNDED: 'REFUNDED', CHARGEDBACK: 'CHARGEBACK', PRE_CHARGEDBACK: 'CHARGEBACK', IN_DISPUTE: 'CHARGEBACK' },
    ...{ CANCELED: 'CANCELED', REFUSED: 'REJECTED' },
  },
  'REJECTED',
);

// ---------------------------------------------------------------- readers

/** A sale's postback (2.0.0, or the older ORDER_STATUS_CHANGED): its order's id and status. Undefined for anything else (a cart's event among them). */
export function readArkamaWebhook(body: Buffer): ObjectNotification | undefined {
  const parsed = parseJsonObject(body);
  const event = arkamaPostbackV2.safeParse(parsed);
  const order = event.success ? event.data : arkamaNotification.safeParse(parsed).data;
  return order ? { kind: 'transaction', id: order.id, status: order.status } : undefined;
}

// ---------------------------------------------------------------- operations

export class ArkamaAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = ARKAMA, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: ARKAMA_STATUSES });
  }

  /** POST /orders; Arkama is sent no validity, so document 1's PIX day is the charge's. */
  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const body = toArkamaOrder(input, (cents) => this.toProviderAmount(cents));
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const order = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(ARKAMA_PATHS.orders, body), arkamaCreated);
    return pixCodeOnly({
      paymentMethod: 'PIX',
      transactionId: order.id,
      // An order answered without a status has just been created: PENDING.
      status: order.status ? this.transactionStatus(order.status) : 'PENDING',
      amount: this.mapped('createTransaction', prefix, () => this.amountOr(order.value, input.amount, 'valor do pedido')),
      pixCode: order.pix.payload,
      expiresAt,
    });
  }

  /** GET /orders/{id}. */
  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const path = fillPath(ARKAMA_PATHS.order, { id: transactionId });
    const order = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(path), arkamaRead);
    return {
      paymentMethod: 'PIX',
      transactionId: order.id ?? transactionId,
      status: this.transactionStatus(order.status),
      amount: this.mapped('getTransaction', prefix, () => this.amountOr(order.value, undefined, 'valor do pedido')),
    };
  }

  /** Unsigned (none is documented): the gateway confirms every status it claims by GET /orders/{id}. */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readArkamaWebhook(notification.body));
  }

  /** No event id in the payload: the order and its status identify one across re-deliveries. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readArkamaWebhook(notification.body), ctx, notification);
  }
}
