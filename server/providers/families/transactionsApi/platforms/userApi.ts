import type { WithdrawInput } from '../../../../domain/types.js';
import { digitsOnly } from '../../../../lib/documents.js';
import { SECONDS_PER_DAY } from '../../../../lib/expiry.js';
import { normalizePixKey } from '../../../../lib/pixKey.js';
import { defaultWithdrawDescription } from '../../../../lib/withdrawDescription.js';
import type { AdapterContext } from '../../../adapter.js';
import { TransactionsApiAdapter } from '../adapter.js';
import type { TransactionsApiMember } from '../member.js';
import { DOC3_COMMON_OVERRIDES } from '../statuses.js';

/**
 * The "AtivoB2B" /user/* platform (provider research F7) as the fourth group
 * of doc 3 uses it: FastSoft and ByNet share its paths, its payout body, their
 * statuses, validity and failure prefixes (doc 3 §4, §7, §8, §9). A member
 * spreads USER_API_PLATFORM into its declaration, adds who it is and how it
 * authenticates, and registers UserApiAdapter.
 */
export const USER_API_PLATFORM: Required<
  Pick<TransactionsApiMember, 'capabilities' | 'money' | 'expiry' | 'paths' | 'statuses' | 'failurePrefixes' | 'payouts'>
> = {
  capabilities: { paymentMethods: ['PIX', 'BILLET'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  money: 'cents',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  /** Doc 3 §9: PIX 2 days and boleto 7 days for FastSoft and ByNet. */
  expiry: { pixSeconds: 2 * SECONDS_PER_DAY, boletoSeconds: 7 * SECONDS_PER_DAY },
  /** Doc 3 §7: "POST /user/transactions; GET /user/transactions/{id}; POST /user/transactions/{id}/refund; POST /user/cashout". */
  paths: {
    create: '/user/transactions',
    get: '/user/transactions/{id}',
    refund: { method: 'POST', path: '/user/transactions/{id}/refund' },
    withdraw: '/user/cashout',
  },
  statuses: {
    /**
     * Doc 3 §4: "paid, approved, captured APPROVED; refused, failed, declined
     * REJECTED; refunded, cancelled, voided REFUNDED", over doc 3's common
     * pattern (authorized APPROVED); unknown PENDING ("most fourth-group providers").
     */
    transaction: { overrides: { ...DOC3_COMMON_OVERRIDES, cancelled: 'REFUNDED', canceled: 'REFUNDED', voided: 'REFUNDED' }, unknown: 'PENDING' },
    /** The same words for payouts, which have no REFUNDED: a payout given back failed. ByNet's cancelled is CANCELED (the common table's). */
    withdrawal: { overrides: { captured: 'APPROVED', declined: 'REJECTED', refunded: 'REJECTED', voided: 'REJECTED' } },
  },
  failurePrefixes: { withdraw: 'WITHDRAW_FOURTH_GROUP', refoundTransaction: 'REFUND_FOURTH_GROUP' },
};

/** Body of POST /user/cashout (research F7, ByNet's documentation): the key, its type in upper case, the beneficiary. */
export function toUserCashout(
  input: WithdrawInput & { pixKey: string; pixType: NonNullable<WithdrawInput['pixType']> },
  amount: number,
  notificationUrl: string,
) {
  return {
    amount,
    pixKey: normalizePixKey(input.pixKey, input.pixType),
    pixType: input.pixType,
    ...(input.name ? { beneficiaryName: input.name } : {}),
    ...(input.document ? { beneficiaryDocument: digitsOnly(input.document) } : {}),
    description: input.description || defaultWithdrawDescription(input.amount, 'requested'),
    ...(input.withdrawReference ? { externalRef: input.withdrawReference } : {}),
    postbackUrl: notificationUrl,
  };
}

/** The platform's one hook: its payout body (a key type is required, never guessed). Every operation is the family's. */
export class UserApiAdapter extends TransactionsApiAdapter {
  protected override withdrawalBody(input: WithdrawInput, ctx: AdapterContext): object {
    return toUserCashout(this.pixPayout(input), this.toProviderAmount(input.amount), ctx.notificationUrl);
  }
}
