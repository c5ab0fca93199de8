import { expect, it } from '@jest/globals';
import { abecsCode, declineCategory } from '../../server/domain/declineCategories.js';

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
  // ABECS codes as Cel_Cash pads them, and as some PSPs write them without the leading zero.
  ['0051', 'insufficient_funds'],
  ['0005', 'card_declined'],
  ['5', 'card_declined'],
  ['0054', 'card_expired'],
  ['0059', 'fraud_suspected'],
  ['0091', 'try_again'],
  // ABECS's Amex table: three-digit action codes, padded or not.
  ['116', 'insufficient_funds'],
  ['0121', 'insufficient_funds'],
  ['100', 'card_declined'],
  ['0101', 'card_expired'],
  ['122', 'invalid_card'],
  ['200', 'fraud_suspected'],
  ['912', 'try_again'],
  // Not codes: a number longer than any table's is not cut down to one.
  ['00051', 'other'],
  ['1051', 'other'],
] as const)('puts the decline reason %p in %s', (reason, category) => {
  expect(declineCategory(reason)).toBe(category);
});

it('has no category without a reason', () => {
  expect(declineCategory(undefined)).toBeUndefined();
  expect(declineCategory('  ')).toBeUndefined();
});

it.each([
  ['0051', '51'],
  ['51', '51'],
  ['5', '05'],
  ['0000', '00'],
  ['0100', '100'],
  [' N7 ', 'n7'],
  ['cc_rejected_other_reason', 'cc_rejected_other_reason'],
] as const)('writes the ABECS code %p as %p', (code, written) => {
  expect(abecsCode(code)).toBe(written);
});
