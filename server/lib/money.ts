/**
 * Money is integer cents inside the gateway. These are the only conversions to
 * and from reais, done on integers or decimal strings so that no float rounding
 * creeps in (0.29 * 100 !== 29).
 */

export function assertCents(value: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`amount must be an integer number of cents, got ${value}`);
  return value;
}

/**
 * An amount a provider sent that is not one: not a whole, positive number of cents (a string where the provider
 * sends numbers, a fraction of a cent, a negative, zero) or nothing where its format always carries one. What it
 * sent is kept as text for the operators' record; it never matches a charge or a payout.
 */
export interface UnreadableAmount {
  unreadable: string;
}

/** A money amount the gateway can compare: a whole, positive number of cents. */
export const isWholeCents = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * What a provider that always states amounts as integer cents said: the integer (a zero or negative one is kept as
 * sent, and matches nothing), else what it sent instead.
 */
export function statedCents(value: unknown): number | UnreadableAmount {
  if (Number.isSafeInteger(value)) return value as number;
  return { unreadable: value === undefined ? 'nothing' : JSON.stringify(value) };
}

/** 1990 → "19.90" */
export function centsToReaisString(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const reais = Math.trunc(abs / 100);
  const rest = abs % 100;
  return `${sign}${reais}.${rest.toString().padStart(2, '0')}`;
}

/** 1990 → 19.9 (for providers whose JSON wants a number in reais). */
export function centsToReais(cents: number): number {
  return Number(centsToReaisString(cents));
}

/** "19.90", 19.9, "1999.99" → cents, parsing the decimal text rather than multiplying floats. */
export function reaisToCents(reais: number | string): number {
  const text = typeof reais === 'number' ? reais.toFixed(2) : reais.trim();
  const match = /^(-)?(\d+)(?:\.(\d{1,2})\d*)?$/.exec(text);
  if (!match) throw new RangeError(`not an amount in reais: ${JSON.stringify(reais)}`);
  const [, minus, whole, fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return minus ? -cents : cents;
}

/** "R$ 19,90" style, for human-facing descriptions. */
export function formatBRL(cents: number): string {
  return `R$ ${centsToReaisString(cents).replace('.', ',')}`;
}
