import { expect, it } from '@jest/globals';
import { cardBrandOf, cardSummary } from '../../../server/lib/cardBrand.js';

it.each([
  ['4111 1111 1111 1111', 'visa'],
  ['5555555555554444', 'mastercard'],
  ['2223000048400011', 'mastercard'],
  ['378282246310005', 'amex'],
  ['36006666333344', 'diners'],
  ['30569309025904', 'diners'],
  ['6011111111111117', 'discover'],
  ['3530111333300000', 'jcb'],
  // Elo and Hipercard BINs sit inside Visa's, Discover's and Diners' ranges: read first.
  ['4011 7888 8888 8888', 'elo'],
  ['5067 2300 0000 0008', 'elo'],
  ['6504 8600 0000 0002', 'elo'],
  ['6062 8288 8866 6688', 'hipercard'],
  ['3841 0000 0000 0006', 'hipercard'],
] as const)('reads %s as %s', (number, brand) => {
  expect(cardBrandOf(number)).toBe(brand);
});

it('gives no brand to a prefix no brand has, or to too few digits', () => {
  expect(cardBrandOf('9999999999999999')).toBeUndefined();
  expect(cardBrandOf('1234567890123')).toBeUndefined();
  expect(cardBrandOf('41111')).toBeUndefined();
});

it('keeps the brand and the last four digits only, and nothing of a text too short to be a card', () => {
  expect(cardSummary('4111 1111-1111 1234')).toEqual({ brand: 'visa', last4: '1234' });
  expect(cardSummary('9999999999990001')).toEqual({ brand: undefined, last4: '0001' });
  expect(cardSummary('4111 1111')).toBeUndefined();
});
