import type { RefundResult, TransactionInput, TransactionResult, WebhookResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { SECONDS_PER_HOUR } from '../../lib/expiry.js';
import { z } from 'zod';
import { parseJsonObject } from '../../lib/json.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { declaredStatusTable } from '../../lib/statusTable.js';
import { DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { credentialPart } from '../kit/credentials.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, wireAmount, wireId, wireStatus, wireText, unwrappedAnswer } from '../kit/answers.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * OWEMPAY (spec doc 3, group 3), a bespoke PIX dialect. What the spec says:
 * POST /pix/in/dynamic-qrcode, GET /pix/in/dynamic-qrcode/{id}, POST
 * /pix/in/refund/{id} (§7); PIX only (§5); the secret key packs
 * 'apiKey|secret|accountId' ('Credenciais não configuradas', 'Formato de
 * credenciais inválido. Use: apiKey|secret|accountId', §5); 1 hour PIX (§9);
 * only events beginning with pix_in: or pix_out: are handled (§4). No public
 * material on its API (provider research): auth, bodies and units are the
 * gateway's decision (docs/decisions.md).
 */

// ---------------------------------------------------------------- declaration

const CREDENTIALS = {
  secretKey: ['apiKey', 'secret', 'accountId'],
  missing: 'OWEMPAY_CREDENTIALS_MISSING',
  format: 'OWEMPAY_CREDENTIALS_FORMAT',
} as const;

export const OWEMPAY: ProviderDeclaration = {
  identity: { id: 'OWEMPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.owempay.com.br' },
  capabilities: { paymentMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: credentialPart(CREDENTIALS, 'apiKey'), password: credentialPart(CREDENTIALS, 'secret') },
  headers: { 'x-account-id': credentialPart(CREDENTIALS, 'accountId') },
  credentials: CREDENTIALS,
  money: 'reais',
  expiry: { pixSeconds: SECONDS_PER_HOUR },
  evidence: { level: 'specification-only' },
  sources:
    "paths, PIX only, packed credentials and their texts, 1-hour PIX, pix_in:/pix_out: events: spec (doc 3 §4/§5/§7/§9); Basic apiKey:secret with the account id in x-account-id, reais, bodies and answers: the gateway's decision (no public material); host: placeholder",
};

export const OWEMPAY_PATHS = { create: '/pix/in/dynamic-qrcode', get: '/pix/in/dynamic-qrcode/{id}', refund: '/pix/in/refund/{id}' } as const;

// ---- wire

const qrCodeFields = z.object({
  id: wireId,
  status: wireStatus,
  amount: absentable(wireAmount),
  emv: absentable(wireText),
  expiresAt: absentable(wireText),
});

/** The QR code bare or wrapped in `data` (an object there is the QR code): a mismatch names the QR code's field at fault. */
/** Answer of create and read: the dynamic QR code. */
export const owemQrCode = unwrappedAnswer(qrCodeFields);
export type OwemQrCode = z.output<typeof owemQrCode>;

/** Answer of a refund: its status (a failed one is a refusal), its id where sent. */
export const owemRefund = z.object({ id: absentable(wireId), status: wireStatus });

/** A notification: `{id?, event, data: {id, status}}`. */
export const owemNotification = z.object({ id: absentable(wireId), event: wireText, data: z.object({ id: wireId, status: wireStatus }) });

/** What the notification key reads: the event and whatever identifies it. */
const owemNotificationKey = z.object({
  id: absentable(wireId),
  event: wireText,
  data: absentable(z.object({ id: absentable(wireId), status: absentable(wireStatus) })),
});

/** Body of POST /pix/in/dynamic-qrcode (the gateway's reading): `amount` in reais, the validity in seconds. */
export const owemQrCodeRequest = z.object({
  amount: z.number().positive(),
  expiration: z.number().int().positive(),
  description: z.string().optional(),
  externalId: z.string().optional(),
  payer: z.object({ name: z.string(), document: z.string().regex(/^\d*$/) }).optional(),
  callbackUrl: z.string().min(1),
});
export type OwemQrCodeRequest = z.infer<typeof owemQrCodeRequest>;

/** Body of POST /pix/in/refund/{id}: `amount` in reais. */
export const owemRefundRequest = z.object({ amount: z.number().nonnegative() });
export type OwemRefundRequest = z.infer<typeof owemRefundRequest>;

// ---------------------------------------------------------------- request mappers

export const toOwemQrCode = (input: TransactionInput, terms: { amount: number; expirySeconds: number; notificationUrl: string }): OwemQrCodeRequest => ({
  amount: terms.amount,
  expiration: terms.expirySeconds,
  ...(input.description ? { description: input.description } : {}),
  ...(input.orderId ? { externalId: input.orderId } : {}),
  ...(input.customer ? { payer: { name: input.customer.name, document: digitsOnly(input.customer.document) } } : {}),
  callbackUrl: terms.notificationUrl,
});

/** A refund of `amount` (reais) of a charge. */
export const toOwemRefund = (amount: number): OwemRefundRequest => ({ amount });

// ---------------------------------------------------------------- status table (doc 3 §4's common pattern; unknown REJECTED)

export const OWEMPAY_STATUSES = declaredStatusTable(DOC3_COMMON_STATUSES, { overrides: { active: 'PENDING', expired: 'REJECTED', canceled: 'REJECTED' } });

/** A PIX received is `pix_in:…`; `pix_out:…` is money leaving the account, which the gateway only sends as refunds (answered by the refund call). */
const PIX_IN = /^pix_in:/i;
const PIX_OUT = /^pix_out:/i;

/** Refund statuses that say the provider refused it (anything else was accepted). */
const REFUSED_REFUNDS = new Set(['failed', 'refused', 'rejected', 'error']);

// ---------------------------------------------------------------- operations

export class OwempayAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = OWEMPAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: OWEMPAY_STATUSES });
  }

  /** The QR code answered (parsed) → our result. */
  private qrCode(answer: OwemQrCode, fallback: { amount?: number; expiresAt?: Date } = {}): TransactionResult {
    const expiresAt = dateOf(answer.expiresAt) ?? fallback.expiresAt;
    return {
      paymentMethod: 'PIX',
      transactionId: answer.id,
      status: this.transactionStatus(answer.status),
      amount: answer.amount !== undefined ? this.fromProviderAmount(answer.amount) : (fallback.amount ?? 0),
      ...(answer.emv ? { pixCode: answer.emv } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toOwemQrCode(input, {
      amount: this.toProviderAmount(input.amount),
      expirySeconds: this.pixExpirySeconds,
      notificationUrl: ctx.notificationUrl,
    });
    const answer = await this.exchange(
      'createTransaction',
      this.prefixFor('createTransaction'),
      () => this.http(ctx).post<unknown>(OWEMPAY_PATHS.create, body),
      owemQrCode,
    );
    return pixCodeOnly(this.qrCode(answer, { amount: input.amount, expiresAt }));
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const answer = await this.exchange(
      'getTransaction',
      this.prefixFor('getTransaction'),
      () => this.http(ctx).get<unknown>(fillPath(OWEMPAY_PATHS.get, { id: transactionId })),
      owemQrCode,
    );
    return pixCodeOnly({ ...this.qrCode(answer), transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const answer = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.http(ctx).post<unknown>(fillPath(OWEMPAY_PATHS.refund, { id: transactionId }), toOwemRefund(this.toProviderAmount(amount))),
      owemRefund,
    );
    return { refundId: answer.id ?? transactionId, status: !REFUSED_REFUNDS.has(answer.status.toLowerCase()) };
  }

  /** `{event: 'pix_in:…', data: {id, status}}`: pix_in through the table; pix_out (refunds) and anything else nothing. */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const parsed = owemNotification.safeParse(parseJsonObject(notification.body));
    if (!parsed.success || !PIX_IN.test(parsed.data.event)) return undefined;
    return { type: 'TRANSACTION', transactionId: parsed.data.data.id, status: this.transactionStatus(parsed.data.data.status) };
  }

  /** The event id where the body has one, else the event, the QR code's id and its status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const parsed = owemNotificationKey.safeParse(parseJsonObject(notification.body));
    if (!parsed.success || !(PIX_IN.test(parsed.data.event) || PIX_OUT.test(parsed.data.event))) return super.notificationKey(ctx, notification);
    const { id, event, data } = parsed.data;
    return notificationKeyOf(id ? { eventId: id } : { subject: event, id: data?.id ?? '', status: data?.status ?? '' }, notification.body);
  }
}
