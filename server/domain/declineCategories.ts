import { normalDeclineCode } from './routing.js';

/**
 * The gateway's few categories for a card decline, so that "insufficient funds" and "declined" no longer read the
 * same. Read from the provider's reason as adapters report it (TransactionResult.declineReason): Stripe-style names
 * and the ISO 8583 response codes most acquirers answer, compared lower-cased. A reason none of these names is
 * `other`: the provider's own text is shown beside it, never replaced.
 */
export type DeclineCategory = 'insufficient_funds' | 'card_declined' | 'fraud_suspected' | 'card_expired' | 'invalid_card' | 'try_again' | 'other';

const CATEGORIES: Readonly<Record<Exclude<DeclineCategory, 'other'>, readonly string[]>> = {
  // ISO 8583 51 not sufficient funds, 61 over the withdrawal limit, 65 over the frequency limit.
  insufficient_funds: ['insufficient_funds', 'card_velocity_exceeded', 'withdrawal_count_limit_exceeded', '51', '61', '65'],
  // 05 do not honour, 57 not permitted to the cardholder, 62 restricted.
  card_declined: [
    'card_declined',
    'generic_decline',
    'do_not_honor',
    'transaction_not_allowed',
    'card_not_supported',
    'restricted_card',
    'not_permitted',
    '05',
    '57',
    '62',
  ],
  // 04, 07 pick up; 41 lost; 43 stolen; 59 suspected fraud.
  fraud_suspected: ['fraudulent', 'lost_card', 'stolen_card', 'pickup_card', 'merchant_blacklist', 'security_violation', '04', '07', '41', '43', '59'],
  // 54 expired card.
  card_expired: ['expired_card', '54'],
  // 14 invalid card number, 82/N7 bad CVV.
  invalid_card: ['invalid_number', 'incorrect_number', 'incorrect_cvc', 'invalid_cvc', 'invalid_expiry_month', 'invalid_expiry_year', '14', '82', 'n7'],
  // 19 re-enter, 91 issuer unavailable, 96 system malfunction.
  try_again: ['issuer_not_available', 'processing_error', 'try_again_later', 'reenter_transaction', '19', '91', '96'],
};

const BY_CODE: ReadonlyMap<string, DeclineCategory> = new Map(
  Object.entries(CATEGORIES).flatMap(([category, codes]) => codes.map((code) => [code, category as DeclineCategory] as const)),
);

/** The category of a provider's decline reason; undefined when there is no reason. */
export function declineCategory(reason: string | undefined): DeclineCategory | undefined {
  if (!reason?.trim()) return undefined;
  return BY_CODE.get(normalDeclineCode(reason)) ?? 'other';
}
