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

/**
 * The sandbox's own words for a decline, as a PSP puts a text beside its code (the sandbox's invention, in Portuguese
 * as its buyers would read it). A reason not listed (one a fault injects) comes with no text.
 */
export const DECLINE_MESSAGES: ReadonlyMap<string, string> = new Map([
  ['card_declined', 'Cartão recusado pelo emissor'],
  ['insufficient_funds', 'Saldo insuficiente na conta'],
  ['do_not_honor', 'Transação não autorizada pelo emissor'],
]);

export { passesLuhn } from '../lib/luhn.js';
