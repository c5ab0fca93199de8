/**
 * Money is integer cents inside the gateway. These are the only conversions to
 * and from reais, done on integers or decimal strings so that no float rounding
 * creeps in (0.29 * 100 !== 29).
 */

export function assertCents(value: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`amount must be an integer number of cents, got ${value}`);
  return value;
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
