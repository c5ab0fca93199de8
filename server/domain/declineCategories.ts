import { normalDeclineCode } from './routing.js';

/**
 * The gateway's few categories for a card decline, so that "insufficient funds" and "declined" no longer read the
 * same. Read from the provider's reason as adapters report it (TransactionResult.declineReason): Stripe-style names
 * and the ISO 8583 response codes most acquirers answer, compared lower-cased. A reason none of these names is
 * `other`: the provider's own text is shown beside it, never replaced.
 */
export type DeclineCategory = 'insufficient_funds' | 'card_declined' | 'fraud_suspected' | 'card_expired' | 'invalid_card' | 'try_again' | 'other';

/**
 * Mercado Pago's `status_detail` of a rejected card (its "reasons for rejection" guide and collection-results page),
 * put where the Stripe name of the same refusal sits. Left as `other`: cc_rejected_invalid_installments (the
 * merchant's plan), cc_rejected_duplicated_payment and cc_rejected_max_attempts (Mercado Pago's own limits, not the
 * card's).
 */
const MERCADOPAGO_DETAILS = {
  insufficient_funds: ['cc_rejected_insufficient_amount'],
  // call_for_authorize: the issuer wants the cardholder to authorise it (Stripe's call_issuer, a card_declined).
  card_declined: ['cc_rejected_call_for_authorize', 'cc_rejected_card_disabled', 'cc_rejected_card_type_not_allowed', 'cc_rejected_other_reason'],
  fraud_suspected: ['cc_rejected_high_risk', 'cc_rejected_blacklist'],
  invalid_card: ['cc_rejected_bad_filled_card_number', 'cc_rejected_bad_filled_date', 'cc_rejected_bad_filled_other', 'cc_rejected_bad_filled_security_code'],
  try_again: ['cc_rejected_card_error'],
} as const;

/**
 * ABECS Normativo 21 (return codes of declined authorisations, in force since 15 July 2020; its table as Cielo,
 * Payzu and a55 publish it by brand, https://docs.cielo.com.br/ecommerce-cielo/page/abecs) gives Elo, Visa and
 * Mastercard/Hiper two-character codes (51, 05, N7...), which acquirers and PSPs pass on as they store them: '51',
 * '5' (the tables themselves write 4, 5, 6) or zero-padded to four ('0051': Cel_Cash's AbecsReasonDenied.code has
 * four characters, the SDK's transactionsSchema). Its American Express table uses Amex's three-digit ISO 8583:1993
 * action codes instead (100 generic, 116 and 121 insufficient balance or limit); the other Amex codes below are from
 * Amex's action-code list as acquirers publish it (Lyra's "codes returned by AMEX Global": 101 expired, 122 bad
 * security code, 200 pick up, 909 malfunction, 912 issuer not available).
 */
const AMEX_ACTION_CODES = {
  insufficient_funds: ['116', '121'],
  card_declined: ['100'],
  fraud_suspected: ['200'],
  card_expired: ['101'],
  invalid_card: ['122'],
  try_again: ['909', '912'],
} as const;

const CATEGORIES: Readonly<Record<Exclude<DeclineCategory, 'other'>, readonly string[]>> = {
  // ISO 8583 51 not sufficient funds, 61 over the withdrawal limit, 65 over the frequency limit.
  insufficient_funds: [
    'insufficient_funds',
    'card_velocity_exceeded',
    'withdrawal_count_limit_exceeded',
    '51',
    '61',
    '65',
    ...MERCADOPAGO_DETAILS.insufficient_funds,
    ...AMEX_ACTION_CODES.insufficient_funds,
  ],
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
    ...MERCADOPAGO_DETAILS.card_declined,
    ...AMEX_ACTION_CODES.card_declined,
  ],
  // 04, 07 pick up; 41 lost; 43 stolen; 59 suspected fraud.
  fraud_suspected: [
    'fraudulent',
    'lost_card',
    'stolen_card',
    'pickup_card',
    'merchant_blacklist',
    'security_violation',
    '04',
    '07',
    '41',
    '43',
    '59',
    ...MERCADOPAGO_DETAILS.fraud_suspected,
    ...AMEX_ACTION_CODES.fraud_suspected,
  ],
  // 54 expired card.
  card_expired: ['expired_card', '54', ...AMEX_ACTION_CODES.card_expired],
  // 14 invalid card number, 82/N7 bad CVV.
  invalid_card: [
    'invalid_number',
    'incorrect_number',
    'incorrect_cvc',
    'invalid_cvc',
    'invalid_expiry_month',
    'invalid_expiry_year',
    '14',
    '82',
    'n7',
    ...MERCADOPAGO_DETAILS.invalid_card,
    ...AMEX_ACTION_CODES.invalid_card,
  ],
  // 19 re-enter, 91 issuer unavailable, 96 system malfunction.
  try_again: [
    'issuer_not_available',
    'processing_error',
    'try_again_later',
    'reenter_transaction',
    '19',
    '91',
    '96',
    ...MERCADOPAGO_DETAILS.try_again,
    ...AMEX_ACTION_CODES.try_again,
  ],
};

const BY_CODE: ReadonlyMap<string, DeclineCategory> = new Map(
  Object.entries(CATEGORIES).flatMap(([category, codes]) => codes.map((code) => [code, category as DeclineCategory] as const)),
);

/**
 * A numeric code as the tables above write it: leading zeros dropped, and a one- or two-digit code written with two
 * ('0051' and '51' → '51', '5' and '0005' → '05'; Amex's '0100' → '100'). Anything else is left as it came.
 */
export function abecsCode(code: string): string {
  const normal = normalDeclineCode(code);
  if (!/^\d{1,4}$/.test(normal)) return normal;
  return normal.replace(/^0+/, '').padStart(2, '0');
}

/** The category of a provider's decline reason; undefined when there is no reason. */
export function declineCategory(reason: string | undefined): DeclineCategory | undefined {
  if (!reason?.trim()) return undefined;
  return BY_CODE.get(abecsCode(reason)) ?? 'other';
}
