import { expect, it } from '@jest/globals';
import { declineCategory } from '../../server/domain/declineCategories.js';

it.each([
  ['insufficient_funds', 'insufficient_funds'],
  ['51', 'insufficient_funds'],
  ['card_declined', 'card_declined'],
  [' Do_Not_Honor ', 'card_declined'],
  ['05', 'card_declined'],
  ['stolen_card', 'fraud_suspected'],
  ['59', 'fraud_suspected'],
  ['expired_card', 'card_expired'],
  ['54', 'card_expired'],
  ['incorrect_cvc', 'invalid_card'],
  ['N7', 'invalid_card'],
  ['issuer_not_available', 'try_again'],
  ['96', 'try_again'],
  ['Cartão recusado pelo emissor', 'other'],
  ['cc_rejected_insufficient_amount', 'insufficient_funds'],
  ['cc_rejected_call_for_authorize', 'card_declined'],
  ['cc_rejected_high_risk', 'fraud_suspected'],
  ['cc_rejected_bad_filled_security_code', 'invalid_card'],
  ['cc_rejected_card_error', 'try_again'],
  ['cc_rejected_duplicated_payment', 'other'],
] as const)('puts the decline reason %p in %s', (reason, category) => {
  expect(declineCategory(reason)).toBe(category);
});

it('has no category without a reason', () => {
  expect(declineCategory(undefined)).toBeUndefined();
  expect(declineCategory('  ')).toBeUndefined();
});
