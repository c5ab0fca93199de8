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

export function passesLuhn(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
