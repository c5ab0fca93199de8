import { createHash, randomUUID } from 'node:crypto';
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
import { brazilDate } from '../../lib/expiry.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { providerPixKey } from '../../lib/pixKey.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { providerFailure } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer } from '../kit/declaredAdapter.js';

/**
 * SUITPAY (spec doc 2, group 1): the spec shows no paths for group 1, so its
 * real API as its documentation export and integrations record it (provider
 * research): host ws.suitpay.app, the headers `ci` (client id) and `cs`
 * (client secret), amounts in reais, PIX charges by POST
 * /api/v1/gateway/request-qrcode answered `{idTransaction, paymentCode,
 * response: OK|ERROR, message}`, PIX payouts by POST
 * /api/v1/gateway/pix-payment `{value, key, typeKey}`, and flat webhooks
 * `{idTransaction, typeTransaction, statusTransaction, …, hash}` whose `hash`
 * is the SHA-256 of every other field's value, in the order received, followed
 * by the client secret. What the gateway leaves out, and why, is in
 * docs/decisions.md (no read call for a charge; boleto and card need data the
 * contract does not carry).
 */

// ---------------------------------------------------------------- declaration

export const SUITPAY: ProviderDeclaration = {
  identity: { id: 'SUITPAY', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://ws.suitpay.app' },
  capabilities: { paymentMethods: ['PIX'], transactionLookup: false, withdrawMethods: ['PIX'], webhooks: true },
  // The client secret is a secret: sent through `auth`, so the logs redact it; the client id is a plain header.
  auth: { type: 'apiKey', header: 'cs', value: 'secretKey' },
  headers: { ci: 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'reais',
  sources:
    "host `ws.suitpay.app`, `ci`/`cs` headers, reais, POST /api/v1/gateway/request-qrcode and its `{idTransaction, paymentCode, response}` answer, POST /api/v1/gateway/pix-payment `{value, key, typeKey}`, the webhook's fields, statuses and `hash`: research (SuitPay's API documentation export and integrations); statuses not named there: document 1 §4; PIX only, no charge read, CANCELED as CANCELED: the gateway's decision",
};

export const SUITPAY_PATHS = { qrCode: '/api/v1/gateway/request-qrcode', pixPayment: '/api/v1/gateway/pix-payment' } as const;

// ---------------------------------------------------------------- request mappers

export function toSuitpayQrCode(input: TransactionInput, terms: { amount: number; expiresAt: Date; callbackUrl: string }) {
  return {
    // SuitPay's own reference must be unique per request: the order id where the caller gives one.
    requestNumber: input.orderId ?? input.idempotencyKey ?? randomUUID(),
    dueDate: brazilDate(terms.expiresAt),
    amount: terms.amount,
    ...(input.customer
      ? {
          client: {
            name: input.customer.name,
            document: digitsOnly(input.customer.document),
            phoneNumber: nationalPhoneDigits(input.customer.phone),
            email: input.customer.email,
          },
        }
      : {}),
    callbackUrl: terms.callbackUrl,
  };
}

// ---------------------------------------------------------------- statuses

/** `statusTransaction` of PIX charges (research: PAID_OUT, CHARGEBACK) with document 1 §4's words; CANCELED is a charge that was never paid. */
export const SUITPAY_STATUSES = statusTable<TransactionStatus>(
  { paid_out: 'APPROVED', chargeback: 'CHARGEBACK', canceled: 'CANCELED', waiting_for_approval: 'PENDING', unpaid: 'PENDING', pending: 'PENDING' },
  'REJECTED',
);

/** Payouts: PAID_OUT paid, CANCELED given back; anything else still on its way (a payout wrongly failed could be paid twice). */
export const SUITPAY_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>({ paid_out: 'APPROVED', canceled: 'CANCELED' }, 'PENDING');

// ---------------------------------------------------------------- notifications

/** The webhook: PIX (a charge) and PIX_CASHOUT (a payout); CARD and BOLETO are not offered, so ignored. */
export function readSuitpayWebhook(body: Buffer): { kind: 'transaction' | 'withdrawal'; id: string; status: string } | undefined {
  const event = parseJsonObject(body);
  const type = textOf(event?.typeTransaction);
  const id = idText(event?.idTransaction);
  const status = textOf(event?.statusTransaction);
  if (!id || !status || (type !== 'PIX' && type !== 'PIX_CASHOUT')) return undefined;
  return { kind: type === 'PIX' ? 'transaction' : 'withdrawal', id, status };
}

/** SHA-256 (hex) of every field's value but `hash`, in the order received, then the client secret (research: the integrations' reading). */
export function suitpayHash(event: Record<string, unknown>, clientSecret: string): string {
  const values = Object.entries(event)
    .filter(([key]) => key !== 'hash')
    .map(([, value]) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)));
  return createHash('sha256')
    .update(values.join('') + clientSecret)
    .digest('hex');
}

// ---------------------------------------------------------------- operations

export class SuitpayAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = SUITPAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: SUITPAY_STATUSES, withdrawalStatuses: SUITPAY_WITHDRAWAL_STATUSES });
  }

  /** `response: "ERROR"` in a 2xx answer is SuitPay refusing, with its message. */
  private refusal(prefix: string, answer: unknown): Error | undefined {
    if (!isRecord(answer) || textOf(answer.response)?.toUpperCase() !== 'ERROR') return undefined;
    return providerFailure(prefix, textOf(answer.message) ?? 'ERROR', 'INVALID_ARGUMENT');
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toSuitpayQrCode(input, { amount: this.toProviderAmount(input.amount), expiresAt, callbackUrl: ctx.notificationUrl });
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(SUITPAY_PATHS.qrCode, body));
    const result = this.mapped('createTransaction', prefix, (): TransactionResult => {
      const refused = this.refusal(prefix, answer);
      if (refused) throw refused;
      const charge = isRecord(answer) ? answer : {};
      const transactionId = idText(charge.idTransaction) ?? unusableAnswer('idTransaction');
      const pixCode = textOf(charge.paymentCode) ?? unusableAnswer('paymentCode');
      // A charge just created has not been paid.
      return { paymentMethod: 'PIX', transactionId, status: 'PENDING', amount: input.amount, pixCode, expiresAt };
    });
    return withPixQrImage(result);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const { key, type } = providerPixKey(payout.pixKey, payout.pixType);
    const prefix = this.prefixFor('withdraw');
    const answer = await this.exchange('withdraw', prefix, () =>
      this.http(ctx).post<unknown>(SUITPAY_PATHS.pixPayment, { value: this.toProviderAmount(input.amount), key, typeKey: type }),
    );
    return this.mapped('withdraw', prefix, (): WithdrawResult => {
      const refused = this.refusal(prefix, answer);
      if (refused) throw refused;
      const withdrawId = (isRecord(answer) ? idText(answer.idTransaction) : undefined) ?? unusableAnswer('idTransaction');
      // Accepted, not yet paid: the PIX_CASHOUT webhook says PAID_OUT or CANCELED.
      return { withdrawId, status: 'PENDING', amount: input.amount };
    });
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readSuitpayWebhook(notification.body));
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readSuitpayWebhook(notification.body), ctx, notification);
  }

  /** Every webhook carries `hash`, keyed by the account's client secret: checked always (constant time). */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const event = parseJsonObject(notification.body);
    const hash = textOf(event?.hash);
    if (!event || !hash || !ctx.secretKey) return 'invalid';
    return safeEqualText(hash.toLowerCase(), suitpayHash(event, ctx.secretKey)) ? 'valid' : 'invalid';
  }
}
