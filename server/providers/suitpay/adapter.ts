import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type {
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { digitsOnly } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { brazilDate } from '../../lib/expiry.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { providerFailure } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { absentable, wireId, wireStatus, wireText } from '../kit/answers.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * SUITPAY (spec doc 2, group 1): the spec shows no paths for group 1, so its
 * real API as SuitPay's own documentation (its Postman collection, "Documentação
 * API's SuitPay" / "SuitPay API's PIX Documentation") gives it: host
 * ws.suitpay.app, the headers `ci` (client id) and `cs` (client secret), amounts
 * in reais, PIX charges by POST /api/v1/gateway/request-qrcode answered
 * `{idTransaction, paymentCode, paymentCodeBase64, response: "OK"}`, PIX payouts
 * by POST /api/v1/gateway/pix-payment `{value, key, typeKey, callbackUrl,
 * externalId}` answered `{idTransaction, response: "OK"}` (`typeKey` one of
 * document, phoneNumber, email, randomKey, paymentCode), refusals `{response:
 * <code>, message}`, and flat webhooks `{idTransaction, typeTransaction,
 * statusTransaction, …, hash}` whose `hash` is the SHA-256 of every other
 * field's value, in the order received, with the client secret. What the
 * gateway leaves out, and why, is in docs/decisions.md (no read call for a
 * charge or a payout exists; boleto and card need data the contract does not carry).
 */

// ---------------------------------------------------------------- declaration

/** Where SuitPay's shapes come from (the stand-in, tests/standins/suitpay.ts, is written from the same pages). */
export const SUITPAY_DOCUMENTATION = 'https://pix.suitpay.app/view/metadata/2sA3BrXVKq';

export const SUITPAY: ProviderDeclaration = {
  identity: { id: 'SUITPAY', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://ws.suitpay.app' },
  capabilities: { paymentMethods: ['PIX'], transactionLookup: false, withdrawMethods: ['PIX'], webhooks: true },
  // The client secret is a secret: sent through `auth`, so the logs redact it; the client id is a plain header.
  auth: { type: 'apiKey', header: 'cs', value: 'secretKey' },
  headers: { ci: 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'reais',
  sources:
    "host `ws.suitpay.app` (sandbox `sandbox.ws.suitpay.app`), `ci`/`cs` headers, reais, POST /api/v1/gateway/request-qrcode `{requestNumber, dueDate (AAAA-MM-DD), amount, client{name, document, phoneNumber (DDD+number), email}, callbackUrl}` and its `{idTransaction, paymentCode, paymentCodeBase64, response}` answer, POST /api/v1/gateway/pix-payment `{value, key, typeKey document|phoneNumber|email|randomKey, callbackUrl, externalId}` and its `{idTransaction, response}` answer, refusals `{response, message}` (400) and 404 for an unknown key, the PIX and PIX_CASHOUT webhooks, their statuses and `hash`: SuitPay's own API documentation (its Postman collection, Portuguese 'Documentação API's SuitPay' and English 'SuitPay API's PIX Documentation'); the `hash` order (values, then the secret: the integrations' reading, the other order also accepted) and numbers as received: the gateway's reading of that page; statuses not named there: document 1 §4; PIX only, no charge read, CANCELED as CANCELED: the gateway's decision",
  evidence: { level: 'documented', addresses: [SUITPAY_DOCUMENTATION] },
};

export const SUITPAY_PATHS = { qrCode: '/api/v1/gateway/request-qrcode', pixPayment: '/api/v1/gateway/pix-payment' } as const;

// ---------------------------------------------------------------- wire

/** `typeKey` of a payout, SuitPay's documented values for our key types (its fifth, paymentCode, pays a BR Code: not in the contract). */
export const SUITPAY_KEY_TYPES = {
  CPF: 'document',
  CNPJ: 'document',
  PHONE: 'phoneNumber',
  EMAIL: 'email',
  RANDOM: 'randomKey',
} as const satisfies Record<PixKeyType, string>;

/** Body of POST /api/v1/gateway/request-qrcode (the fields the gateway fills; shipping, products, split and the address are optional there). */
export const SUITPAY_QR_CODE_REQUEST = z.object({
  requestNumber: z.string().min(1),
  dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  amount: z.number().positive(),
  client: z.object({
    name: z.string().min(1),
    document: z.string().min(1),
    phoneNumber: z.string().min(1).optional(),
    email: z.string().min(1),
  }),
  callbackUrl: z.string().min(1),
});
export type SuitpayQrCodeRequest = z.infer<typeof SUITPAY_QR_CODE_REQUEST>;

/** Body of POST /api/v1/gateway/pix-payment. `externalId` makes SuitPay refuse a repeat (DUPLICATE_EXTERNAL_ID) instead of paying twice. */
export const SUITPAY_PIX_PAYMENT_REQUEST = z.object({
  value: z.number().positive(),
  key: z.string().min(1),
  typeKey: z.enum(['document', 'phoneNumber', 'email', 'randomKey']),
  callbackUrl: z.string().min(1),
  externalId: z.string().min(1),
});
export type SuitpayPixPaymentRequest = z.infer<typeof SUITPAY_PIX_PAYMENT_REQUEST>;

const OK = /^OK$/i;

/** SuitPay's refusal in a 2xx body: any `response` but OK, with its message when it gives one. */
const SUITPAY_REFUSAL = z.object({ response: wireText.refine((response) => !OK.test(response)), message: absentable(wireText) });

/** The PIX charge created, or SuitPay's refusal; an OK without its id or code matches neither (a bad answer). */
export const SUITPAY_QR_CODE_ANSWER = z.union([
  z.object({ response: wireText.regex(OK), idTransaction: wireId, paymentCode: wireText, paymentCodeBase64: absentable(z.string()) }),
  SUITPAY_REFUSAL,
]);
export type SuitpayQrCodeAnswer = z.output<typeof SUITPAY_QR_CODE_ANSWER>;

/** The payout accepted, or SuitPay's refusal. */
export const SUITPAY_PIX_PAYMENT_ANSWER = z.union([z.object({ response: wireText.regex(OK), idTransaction: wireId }), SUITPAY_REFUSAL]);
export type SuitpayPixPaymentAnswer = z.output<typeof SUITPAY_PIX_PAYMENT_ANSWER>;

/**
 * A webhook: PIX (a charge), PIX_CASHOUT (a payout), CARD and BOLETO (not
 * offered). SuitPay says new fields may be added at any time: they are allowed
 * (and count in the hash, which is computed over the body as received).
 */
export const SUITPAY_WEBHOOK = z.object({
  idTransaction: wireId,
  typeTransaction: wireText,
  statusTransaction: wireStatus,
  hash: absentable(wireText),
});
export type SuitpayWebhook = z.output<typeof SUITPAY_WEBHOOK>;

// ---------------------------------------------------------------- request mappers

/** The customer SuitPay requires on a charge (name, document, e-mail), or which field is missing. */
function suitpayClient(input: TransactionInput): SuitpayQrCodeRequest['client'] {
  const customer = input.customer;
  const name = customer?.name?.trim();
  const document = digitsOnly(customer?.document ?? '');
  const email = customer?.email?.trim();
  if (!name || !document || !email)
    throw invalidArgument(
      !name ? 'transaction.customer.name' : !document ? 'transaction.customer.document' : 'transaction.customer.email',
      "transaction.customer with name, document and email is required for SUITPAY charges (SuitPay's client)",
      'REQUIRED',
    );
  const phoneNumber = customer?.phone ? nationalPhoneDigits(customer.phone) : '';
  return { name, document, ...(phoneNumber ? { phoneNumber } : {}), email };
}

export function toSuitpayQrCode(input: TransactionInput, terms: { amount: number; expiresAt: Date; callbackUrl: string }): SuitpayQrCodeRequest {
  return {
    // SuitPay's own reference must be unique per request: the order id where the caller gives one.
    requestNumber: input.orderId ?? input.idempotencyKey ?? randomUUID(),
    dueDate: brazilDate(terms.expiresAt),
    amount: terms.amount,
    client: suitpayClient(input),
    callbackUrl: terms.callbackUrl,
  };
}

/** A key as SuitPay reads it: CPF/CNPJ digits; a phone as DDD + number, without the country code (its example: 62999998888). */
export function suitpayPixKey(key: string, type: PixKeyType): Pick<SuitpayPixPaymentRequest, 'key' | 'typeKey'> {
  return { key: type === 'PHONE' ? nationalPhoneDigits(key) : normalizePixKey(key, type), typeKey: SUITPAY_KEY_TYPES[type] };
}

export function toSuitpayPixPayment(
  payout: WithdrawInput & { pixKey: string; pixType: PixKeyType },
  terms: { value: number; callbackUrl: string },
): SuitpayPixPaymentRequest {
  return {
    value: terms.value,
    ...suitpayPixKey(payout.pixKey, payout.pixType),
    // The PIX_CASHOUT webhook goes to the URL of each payout.
    callbackUrl: terms.callbackUrl,
    // A retry with the same reference is refused by SuitPay (DUPLICATE_EXTERNAL_ID), never paid twice.
    externalId: payout.withdrawReference?.trim() || payout.idempotencyKey || randomUUID(),
  };
}

// ---------------------------------------------------------------- statuses

/** `statusTransaction` of PIX charges (documentation: PAID_OUT, CHARGEBACK) with document 1 §4's words; CANCELED is a charge that was never paid. */
export const SUITPAY_STATUSES = statusTable<TransactionStatus>(
  { paid_out: 'APPROVED', chargeback: 'CHARGEBACK', canceled: 'CANCELED', waiting_for_approval: 'PENDING', unpaid: 'PENDING', pending: 'PENDING' },
  'REJECTED',
);

/** Payouts (documentation: PAID_OUT paid, CANCELED cancelled or given back); anything else still on its way (a payout wrongly failed could be paid twice). */
export const SUITPAY_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>({ paid_out: 'APPROVED', canceled: 'CANCELED' }, 'PENDING');

// ---------------------------------------------------------------- notifications

/** The webhook's fields as received, numbers as written (JSON.parse's source text); undefined for anything but a JSON object. */
function receivedFields(body: Buffer): Array<[string, unknown, string | undefined]> | undefined {
  const numbers = new Map<object, Map<string, string>>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'), function (this: object, key: string, value: unknown, context?: { source?: string }) {
      if (typeof value === 'number' && context?.source) {
        const written = numbers.get(this) ?? new Map<string, string>();
        written.set(key, context.source);
        numbers.set(this, written);
      }
      return value;
    });
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const written = numbers.get(parsed);
  return Object.entries(parsed).map(([key, value]) => [key, value, written?.get(key)]);
}

/** A field's value as text: numbers as received where known, nothing for null. */
const asText = (value: unknown, written?: string): string =>
  written ?? (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** SHA-256 (hex) of every field's value but `hash`, in the order given, then the client secret (the integrations' reading of the documentation). */
export function suitpayHash(event: Record<string, unknown>, clientSecret: string): string {
  const values = Object.entries(event)
    .filter(([key]) => key !== 'hash')
    .map(([, value]) => asText(value));
  return createHash('sha256')
    .update(values.join('') + clientSecret)
    .digest('hex');
}

/**
 * The hashes a genuine webhook may carry. The documentation says "concatenate
 * your ClientSecret with the result of step 1" without fixing the side, so both
 * orders are accepted; the values are taken as received (numbers as written, as
 * the sender's own serialiser wrote them) and as JSON numbers read back. Every
 * candidate needs the client secret: accepting four costs no strength.
 */
function expectedHashes(fields: Array<[string, unknown, string | undefined]>, clientSecret: string): string[] {
  const rest = fields.filter(([key]) => key !== 'hash');
  const renderings = new Set([rest.map(([, value, written]) => asText(value, written)).join(''), rest.map(([, value]) => asText(value)).join('')]);
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  return [...renderings].flatMap((values) => [sha256(values + clientSecret), sha256(clientSecret + values)]);
}

/** The webhook as a charge (PIX) or a payout (PIX_CASHOUT); CARD, BOLETO and anything unparseable are ignored. */
export function readSuitpayWebhook(body: Buffer): ObjectNotification | undefined {
  const fields = receivedFields(body);
  const event = fields && SUITPAY_WEBHOOK.safeParse(Object.fromEntries(fields.map(([key, value]) => [key, value])));
  if (!event?.success) return undefined;
  const { idTransaction: id, typeTransaction: type, statusTransaction: status } = event.data;
  if (type === 'PIX') return { kind: 'transaction', id, status };
  if (type === 'PIX_CASHOUT') return { kind: 'withdrawal', id, status };
  return undefined;
}

// ---------------------------------------------------------------- response mappers

/** The charge SuitPay created (PENDING: not paid yet), or its refusal with its message. */
export function suitpayCharge(answer: SuitpayQrCodeAnswer, terms: { prefix: string; amount: number; expiresAt: Date }): TransactionResult {
  if (!('idTransaction' in answer)) throw providerFailure(terms.prefix, answer.message ?? answer.response, 'INVALID_ARGUMENT');
  return {
    paymentMethod: 'PIX',
    transactionId: answer.idTransaction,
    status: 'PENDING',
    amount: terms.amount,
    pixCode: answer.paymentCode,
    expiresAt: terms.expiresAt,
  };
}

/** The payout SuitPay accepted (PENDING until the PIX_CASHOUT webhook), or its refusal with its message. */
export function suitpayPayout(answer: SuitpayPixPaymentAnswer, terms: { prefix: string; amount: number }): WithdrawResult {
  if (!('idTransaction' in answer)) throw providerFailure(terms.prefix, answer.message ?? answer.response, 'INVALID_ARGUMENT');
  return { withdrawId: answer.idTransaction, status: 'PENDING', amount: terms.amount };
}

// ---------------------------------------------------------------- operations

export class SuitpayAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = SUITPAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: SUITPAY_STATUSES, withdrawalStatuses: SUITPAY_WITHDRAWAL_STATUSES });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toSuitpayQrCode(input, { amount: this.toProviderAmount(input.amount), expiresAt, callbackUrl: ctx.notificationUrl });
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(SUITPAY_PATHS.qrCode, body), SUITPAY_QR_CODE_ANSWER);
    return pixCodeOnly(this.mapped('createTransaction', prefix, () => suitpayCharge(answer, { prefix, amount: input.amount, expiresAt })));
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const prefix = this.prefixFor('withdraw');
    const body = toSuitpayPixPayment(payout, { value: this.toProviderAmount(input.amount), callbackUrl: ctx.notificationUrl });
    const answer = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(SUITPAY_PATHS.pixPayment, body), SUITPAY_PIX_PAYMENT_ANSWER);
    return this.mapped('withdraw', prefix, () => suitpayPayout(answer, { prefix, amount: input.amount }));
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readSuitpayWebhook(notification.body));
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readSuitpayWebhook(notification.body), ctx, notification);
  }

  /** Every webhook carries `hash`, keyed by the account's client secret: checked always (constant time). */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const fields = receivedFields(notification.body);
    const hash = fields?.find(([key]) => key === 'hash')?.[1];
    if (!fields || typeof hash !== 'string' || !hash.trim() || !ctx.secretKey) return 'invalid';
    const received = hash.trim().toLowerCase();
    // Every candidate is compared (no early exit), so the time taken says nothing about which one matched.
    const matches = expectedHashes(fields, ctx.secretKey).map((expected) => safeEqualText(received, expected));
    return matches.includes(true) ? 'valid' : 'invalid';
  }
}
