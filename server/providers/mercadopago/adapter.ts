import { randomUUID } from 'node:crypto';
import type { PaymentMethod, RefundResult, TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { verifySignatureHeader } from '../../lib/hmacSignature.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf, idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer } from '../kit/declaredAdapter.js';

/**
 * MERCADOPAGO (spec doc 2, group 1): the spec shows no paths for group 1, so
 * Mercado Pago's public API (official documentation and SDK, provider
 * research): host api.mercadopago.com, `Authorization: Bearer <access token>`,
 * POST /v1/payments `{transaction_amount (reais), payment_method_id, token,
 * installments, payer, description, external_reference, notification_url,
 * date_of_expiration}` with the mandatory `X-Idempotency-Key`; PIX data in
 * `point_of_interaction.transaction_data`; boleto in `transaction_details` and
 * `barcode`; refunds POST /v1/payments/{id}/refunds `{amount}`; webhooks
 * `{type: "payment", action, data: {id}}` carrying no status (the payment is
 * read), signed in `x-signature: ts=…,v1=…` over the manifest
 * `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`.
 */

// ---------------------------------------------------------------- declaration

export const MERCADOPAGO: ProviderDeclaration = {
  identity: { id: 'MERCADOPAGO', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.mercadopago.com' },
  capabilities: { paymentMethods: ['PIX', 'BILLET', 'CREDIT_CARD'], refunds: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  sources:
    "host, Bearer access token, /v1/payments and its fields, `X-Idempotency-Key`, `point_of_interaction` PIX data, boleto fields, /v1/payments/{id}/refunds, statuses, the webhook and its `x-signature` manifest: research (official documentation, mercadopago/sdk-nodejs); boleto as `bolbradesco`, the card brand read from the card token by Mercado Pago, document 1 §4 readings of the statuses: the gateway's decision",
};

export const MERCADOPAGO_PATHS = { payments: '/v1/payments', payment: '/v1/payments/{id}', refunds: '/v1/payments/{id}/refunds' } as const;

/** Mercado Pago's `payment_method_id` for our methods; a card's brand comes with its token (Mercado Pago infers it), so only PIX and boleto are named. */
const PAYMENT_METHOD_IDS: Partial<Record<PaymentMethod, string>> = { PIX: 'pix', BILLET: 'bolbradesco' };

// ---------------------------------------------------------------- statuses

/** Mercado Pago's statuses by document 1 §4: authorized (not captured) and in_process wait; in_mediation is a dispute; cancelled never paid. */
export const MERCADOPAGO_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ pending: 'PENDING', in_process: 'PENDING', authorized: 'PENDING' },
    ...{ approved: 'APPROVED', refunded: 'REFUNDED', charged_back: 'CHARGEBACK', in_mediation: 'CHARGEBACK' },
    ...{ rejected: 'REJECTED', cancelled: 'CANCELED' },
  },
  'REJECTED',
);

// ---------------------------------------------------------------- request mapper

export function toMercadoPagoPayment(input: TransactionInput, terms: { amount: number; notificationUrl: string; expiresAt?: Date }) {
  const document = digitsOnly(input.customer?.document ?? '');
  const [firstName, ...rest] = (input.customer?.name ?? '').trim().split(/\s+/);
  return {
    transaction_amount: terms.amount,
    ...(PAYMENT_METHOD_IDS[input.paymentMethod] ? { payment_method_id: PAYMENT_METHOD_IDS[input.paymentMethod] } : {}),
    ...(input.paymentMethod === 'CREDIT_CARD' ? { token: input.cardId, installments: input.installments } : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.orderId ? { external_reference: input.orderId } : {}),
    notification_url: terms.notificationUrl,
    ...(terms.expiresAt ? { date_of_expiration: terms.expiresAt.toISOString() } : {}),
    ...(input.customer
      ? {
          payer: {
            email: input.customer.email,
            ...(firstName ? { first_name: firstName } : {}),
            ...(rest.length ? { last_name: rest.join(' ') } : {}),
            ...(document ? { identification: { type: inferDocumentType(document), number: document } } : {}),
          },
        }
      : {}),
  };
}

// ---------------------------------------------------------------- readers

interface MercadoPagoPayment {
  id: string;
  status: string;
  transaction_amount?: unknown;
  payment_method_id?: unknown;
  payment_type_id?: unknown;
  date_of_expiration?: unknown;
  point_of_interaction?: { transaction_data?: { qr_code?: unknown; qr_code_base64?: unknown } };
  transaction_details?: { external_resource_url?: unknown; digitable_line?: unknown };
  barcode?: { content?: unknown };
}

const mercadoPagoPayment = (answer: unknown): MercadoPagoPayment | undefined => {
  const id = isRecord(answer) ? idText(answer.id) : undefined;
  const status = isRecord(answer) ? textOf(answer.status) : undefined;
  return id && status ? ({ ...(answer as object), id, status } as MercadoPagoPayment) : undefined;
};

const methodOf = (payment: MercadoPagoPayment): PaymentMethod => {
  const type = textOf(payment.payment_type_id);
  if (textOf(payment.payment_method_id) === 'pix' || type === 'bank_transfer') return 'PIX';
  if (type === 'ticket') return 'BILLET';
  return 'CREDIT_CARD';
};

/** The webhook names a payment (`type: payment`, `data.id`); anything else is ignored. */
export function mercadoPagoNotifiedPayment(body: Buffer): { id: string; eventId?: string } | undefined {
  const event = parseJsonObject(body);
  if (!event || textOf(event.type) !== 'payment' || !isRecord(event.data)) return undefined;
  const id = idText(event.data.id);
  const eventId = idText(event.id);
  return id ? { id, ...(eventId ? { eventId } : {}) } : undefined;
}

// ---------------------------------------------------------------- operations

export class MercadoPagoAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = MERCADOPAGO, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: MERCADOPAGO_STATUSES });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const seconds = input.paymentMethod === 'PIX' ? this.pixExpirySeconds : input.paymentMethod === 'BILLET' ? this.boletoExpirySeconds : undefined;
    const expiresAt = seconds === undefined ? undefined : this.expiresAt(seconds);
    const body = toMercadoPagoPayment(input, { amount: this.toProviderAmount(input.amount), notificationUrl: ctx.notificationUrl, expiresAt });
    // Mandatory on POST /v1/payments: the caller's key, so a retry is the same payment there too; else one of ours.
    const headers = { 'X-Idempotency-Key': input.idempotencyKey?.trim() || randomUUID() };
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(MERCADOPAGO_PATHS.payments, body, { headers }));
    const result = this.mapped('createTransaction', prefix, () => this.result(answer, input.amount, input.paymentMethod, expiresAt, true));
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(MERCADOPAGO_PATHS.payment, { id: transactionId })));
    return this.mapped('getTransaction', prefix, () => this.result(answer));
  }

  private result(answer: unknown, requested?: number, method?: PaymentMethod, expiresAt?: Date, created = false): TransactionResult {
    const payment = mercadoPagoPayment(answer) ?? unusableAnswer('id e status do pagamento');
    const paymentMethod = method ?? methodOf(payment);
    const base = {
      paymentMethod,
      transactionId: payment.id,
      status: this.transactionStatus(payment.status),
      amount: this.amountOr(payment.transaction_amount, requested, 'valor do pagamento'),
    };
    if (!created) return base;
    const expiry = dateOf(payment.date_of_expiration) ?? expiresAt;
    if (paymentMethod === 'PIX') {
      const data = payment.point_of_interaction?.transaction_data;
      const pixCode = textOf(data?.qr_code) ?? unusableAnswer('point_of_interaction.transaction_data.qr_code');
      // The QR image is drawn from the code (withPixQrImage), the same for every provider.
      return { ...base, pixCode, ...(expiry ? { expiresAt: expiry } : {}) };
    }
    if (paymentMethod === 'BILLET') {
      const billetCode = textOf(payment.transaction_details?.digitable_line) ?? textOf(payment.barcode?.content) ?? unusableAnswer('linha digitável do boleto');
      const billetUrl = textOf(payment.transaction_details?.external_resource_url) ?? unusableAnswer('URL do boleto');
      return { ...base, billetCode, billetUrl, ...(expiry ? { expiresAt: expiry } : {}) };
    }
    return base;
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const headers = { 'X-Idempotency-Key': randomUUID() };
    const answer = await this.exchange('refoundTransaction', prefix, () =>
      this.http(ctx).post<unknown>(fillPath(MERCADOPAGO_PATHS.refunds, { id: transactionId }), { amount: this.toProviderAmount(amount) }, { headers }),
    );
    return this.mapped('refoundTransaction', prefix, () => {
      const refund = isRecord(answer) ? answer : {};
      const refundId = idText(refund.id) ?? unusableAnswer('id do estorno');
      return { refundId, status: !['rejected', 'cancelled'].includes(textOf(refund.status)?.toLowerCase() ?? '') };
    });
  }

  /** The webhook names the payment only: its status is read from Mercado Pago (a failed read fails the notification, which is retried). */
  override async processWebhook(ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const notified = mercadoPagoNotifiedPayment(notification.body);
    if (!notified) return undefined;
    const payment = await this.getTransaction(ctx, notified.id);
    return { type: 'TRANSACTION', transactionId: payment.transactionId, status: payment.status };
  }

  /** Mercado Pago's notification id where it sends one, else the payment and the body. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const notified = mercadoPagoNotifiedPayment(notification.body);
    return notified?.eventId ? `mercadopago:${notified.eventId}` : super.notificationKey(ctx, notification);
  }

  /**
   * With a webhook secret on the account: `x-signature: ts=…,v1=…`, v1 the hex
   * HMAC-SHA256 of `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` (parts
   * left out when absent), the timestamp within the tolerance of the arrival.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    if (!ctx.webhookSecret) return 'unsigned';
    const id = mercadoPagoNotifiedPayment(notification.body)?.id;
    const requestId = notification.headers['x-request-id'];
    const manifest = (ts: string) => `${id ? `id:${id.toLowerCase()};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
    const check = verifySignatureHeader(ctx.webhookSecret, notification.headers['x-signature'], manifest, {
      timestampKey: 'ts',
      receivedAt: (notification.receivedAt ?? this.now()).getTime(),
    });
    return check.valid ? 'valid' : 'invalid';
  }
}
