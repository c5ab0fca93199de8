import { invalidArgument } from '../lib/errors.js';

/** Amounts are positive integer cents. */
export function requirePositiveCents(field: string, amount: number | undefined): number {
  if (amount === undefined || amount === 0) throw invalidArgument(field, `${field} is required: a positive integer number of cents`, 'REQUIRED');
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw invalidArgument(field, `${field} must be a positive integer number of cents, got ${amount}`, 'POSITIVE_CENTS');
  return amount;
}

export function requireText(field: string, value: string | undefined): string {
  if (!value?.trim()) throw invalidArgument(field, `${field} is required`, 'REQUIRED');
  return value.trim();
}

export function optionalUrl(field: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return value;
  } catch {
    throw invalidArgument(field, `${field} must be an http(s) URL`);
  }
}

/** The text trimmed, refused beyond `max` characters. */
export function limitedText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (text.length > max) throw invalidArgument(field, `${field} must be at most ${max} characters`, 'TOO_LONG', { maxLength: String(max) });
  return text;
}
