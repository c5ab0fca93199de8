/**
 * The sandbox's documented test cards (README). Any other number that passes
 * the Luhn check is approved; these force an outcome.
 */
export const SANDBOX_TEST_CARDS = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export const DECLINING_CARDS: ReadonlyMap<string, string> = new Map([
  [SANDBOX_TEST_CARDS.declined, 'card_declined'],
  [SANDBOX_TEST_CARDS.insufficientFunds, 'insufficient_funds'],
]);

export { passesLuhn } from '../lib/luhn.js';
