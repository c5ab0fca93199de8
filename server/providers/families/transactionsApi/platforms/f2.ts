import { createHmac } from 'node:crypto';
import type { TransactionInput } from '../../../../domain/types.js';
import { safeEqualHex } from '../../../../lib/hmacSignature.js';
import type { AdapterContext, IncomingNotification, NotificationVerdict } from '../../../adapter.js';
import { TransactionsApiAdapter } from '../adapter.js';
import { toApiTransaction } from '../mappers.js';
import type { TransactionsApiMember } from '../member.js';

/**
 * The "functions/v1" platform (provider research F2, a Supabase-edge variant
 * of the Pagar.me-v4 clone: BRPIX Digital, FairPayments, MediusPag, HunterSub,
 * FullPix) as the documentation of two of its instances shows it
 * (F2_PLATFORM_ADDRESSES): the family's dialect, with what the platform
 * writes its own way.
 * - Charges name the method and the buyer's document in upper case
 *   (`paymentMethod: "PIX"`, `document.type: "CPF"`), as both instances'
 *   examples and answers do. Card and boleto are named likewise
 *   (`CREDIT_CARD`, `BOLETO`): inferred from the PIX casing, those requests
 *   were not in the pages read.
 * - A charge may carry a `webhookSecret`; its postbacks then carry
 *   `X-Webhook-Signature: sha256=<hex>`, HMAC-SHA256 of the raw body with that
 *   secret. The account's webhook secret is sent with every charge, and a
 *   postback signed with anything else is refused; an unsigned one (payout
 *   events, which no page shows signed, or an account without a secret) is a
 *   hint the gateway confirms with a read.
 * - Payouts are POST /withdrawals/cashout (the family's `payoutBody:
 *   'cashout'`, mappers.ts `toApiCashout`), answered and notified as
 *   `{event: 'withdrawal.…', withdrawal{id, status, …}}` (wire.ts,
 *   notifications.ts). The platform has no payout read.
 * A member spreads F2_PLATFORM into its declaration and registers F2Adapter
 * (or a subclass).
 */
export const F2_PLATFORM = {
  money: 'cents',
  payoutBody: 'cashout',
} as const satisfies Partial<TransactionsApiMember>;

/** The platform's documentation read for it (HunterSub's and FullPix's pages). */
export const F2_PLATFORM_ADDRESSES = [
  'https://doc.huntersub.com.br/criar-transa%C3%A7%C3%A3o-14705465e0',
  'https://docs.fullpix.com.br/criar-nova-transa%C3%A7%C3%A3o-23912754e0',
  'https://docs.fullpix.com.br/criar-saque-23914658e0',
  'https://docs.fullpix.com.br/webhooks-1735917m0',
  'https://docs.fullpix.com.br/valida%C3%A7%C3%A3o-de-webhooks-1735899m0',
] as const;

/** The header a signed postback carries. */
export const F2_SIGNATURE_HEADER = 'x-webhook-signature';

/** The platform's signature of a postback body: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export const f2PostbackSignature = (secret: string, body: Buffer | string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Our transaction → the platform's POST body: the family's, names in upper case, the account's webhook secret when it has one. */
export function toF2Transaction(input: TransactionInput, terms: Parameters<typeof toApiTransaction>[1] & { webhookSecret?: string }): object {
  const { webhookSecret, ...family } = terms;
  const body = toApiTransaction(input, family);
  return {
    ...body,
    paymentMethod: body.paymentMethod.toUpperCase(),
    ...(body.customer ? { customer: { ...body.customer, document: { ...body.customer.document, type: body.customer.document.type.toUpperCase() } } } : {}),
    ...(webhookSecret ? { webhookSecret } : {}),
  };
}

/** The platform's hooks: its charge body and its postback signature. Every operation is the family's. */
export class F2Adapter extends TransactionsApiAdapter {
  /** The platform's transaction object carries `refundedAmount` (HunterSub's page: `{id, amount, refundedAmount, …}`). */
  protected override readsRefundedAmount(): boolean {
    return true;
  }

  protected override transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    return toF2Transaction(input, {
      amount: (cents) => this.toProviderAmount(cents),
      pixSeconds: this.pixExpirySeconds,
      boletoSeconds: this.boletoExpirySeconds,
      notificationUrl: ctx.notificationUrl,
      webhookSecret: ctx.webhookSecret,
    });
  }

  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const header = notification.headers[F2_SIGNATURE_HEADER];
    if (!ctx.webhookSecret || header === undefined) return 'unsigned';
    const [scheme, hex] = header.trim().split('=', 2);
    const expected = f2PostbackSignature(ctx.webhookSecret, notification.body).slice('sha256='.length);
    return scheme === 'sha256' && hex !== undefined && safeEqualHex(hex, expected) ? 'valid' : 'invalid';
  }
}
