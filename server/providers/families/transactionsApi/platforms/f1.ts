import { z } from 'zod';
import type { TransactionInput, WithdrawInput } from '../../../../domain/types.js';
import { invalidArgument } from '../../../../lib/errors.js';
import { brazilDate, expiresAfter } from '../../../../lib/expiry.js';
import { pixKeyTypeName } from '../../../../lib/pixKey.js';
import type { AdapterContext } from '../../../adapter.js';
import { TransactionsApiAdapter } from '../adapter.js';
import { toApiTransaction, toApiWithdrawal, type RequestTerms } from '../mappers.js';
import type { TransactionsApiMember } from '../member.js';
import { apiTransactionRequest, apiWithdrawalRequest } from '../wire.js';

/**
 * The "Pagar.me-v4 clone" platform (provider research F1: PodPay, Hawkpay,
 * Pagnet, PaySharkGateway, Orbita; its public clients and the postback pages
 * of its other instances): the family's dialect, with what the platform does
 * its own way, written once.
 * - A card is charged by the hash the platform's card script (ShieldHelper,
 *   PodPay's PodSub) made of it: `card: { hash }`, the caller's card id being
 *   that hash. The platform saves no card by id.
 * - A boleto expires on `boleto.expirationDate` (yyyy-MM-dd, Brazil's day);
 *   the platform documents no `expiresInDays` for boletos (it does for PIX).
 * - Payouts are POST /transfers `{method: 'fiat', amount, pixKey, pixKeyType,
 *   postbackUrl}` with the account's `x-withdraw-key`; key types lower case,
 *   a random key `evp`.
 * A member spreads F1_PLATFORM into its declaration and registers F1Adapter
 * (or a subclass).
 */
export const F1_PLATFORM = {
  money: 'cents',
  withdrawKeyHeader: 'x-withdraw-key',
} as const satisfies Partial<TransactionsApiMember>;

// ---- wire: where the platform's bodies differ from the family's

/** Body of POST /transactions on the platform: the family's, a card by its hash, a boleto by its date. */
export const f1TransactionRequest = apiTransactionRequest.omit({ card: true, boleto: true }).extend({
  card: z.object({ hash: z.string() }).optional(),
  boleto: z.object({ expirationDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }).optional(),
});
export type F1TransactionRequest = z.infer<typeof f1TransactionRequest>;

/** Body of POST /transfers on the platform. */
export const f1TransferRequest = apiWithdrawalRequest.extend({ method: z.literal('fiat') });
export type F1TransferRequest = z.infer<typeof f1TransferRequest>;

/** Our transaction → the platform's POST body; `now` dates the boleto's expiry. */
export function toF1Transaction(input: TransactionInput, terms: RequestTerms & { now: Date }): F1TransactionRequest {
  const { card: _card, boleto: _boleto, ...common } = toApiTransaction(input, terms);
  return {
    ...common,
    ...(input.paymentMethod === 'CREDIT_CARD' && input.cardId ? { card: { hash: input.cardId } } : {}),
    ...(input.paymentMethod === 'BILLET' ? { boleto: { expirationDate: brazilDate(expiresAfter(terms.now, terms.boletoSeconds)) } } : {}),
  };
}

/** Our payout → the platform's POST /transfers body; `pixKeyType` the key's type name (lower case, random `evp`). */
export function toF1Transfer(input: WithdrawInput, pixKeyType: string, terms: Pick<RequestTerms, 'amount' | 'notificationUrl'>): F1TransferRequest {
  return { ...toApiWithdrawal(input, terms), pixKeyType, method: 'fiat' };
}

/** The platform's hooks: its charge and transfer bodies. Every operation is the family's. */
export class F1Adapter extends TransactionsApiAdapter {
  /** The platform charges a card only by its script's hash; no body of the card's own fields is documented. */
  override takesCardData(_ctx: AdapterContext): boolean {
    return false;
  }

  /** The platform's transaction object carries `refundedAmount` (its typed public clients, e.g. Pagnet's). */
  protected override readsRefundedAmount(): boolean {
    return true;
  }

  protected override transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    return toF1Transaction(input, {
      amount: (cents) => this.toProviderAmount(cents),
      pixSeconds: this.pixExpirySeconds,
      boletoSeconds: this.boletoExpirySeconds,
      notificationUrl: ctx.notificationUrl,
      now: this.now(),
    });
  }

  protected override withdrawalBody(input: WithdrawInput, ctx: AdapterContext): object {
    const pixKeyType = input.pixType ? pixKeyTypeName(input.pixType, { randomAs: 'evp' }) : this.untypedKeyType();
    return toF1Transfer(input, pixKeyType, { amount: (cents) => this.toProviderAmount(cents), notificationUrl: ctx.notificationUrl });
  }

  /** The type sent for a key the caller did not type: none by default (never guessed); a member whose spec has a rule overrides this. */
  protected untypedKeyType(): string {
    throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals', 'REQUIRED');
  }
}
