import { invalidArgument } from '../lib/errors.js';

/** Amounts are positive integer cents. */
export function requirePositiveCents(field: string, amount: number | undefined): number {
  if (amount === undefined || amount === 0) throw invalidArgument(field, `${field} is required: a positive integer number of cents`);
  if (!Number.isSafeInteger(amount) || amount < 0) throw invalidArgument(field, `${field} must be a positive integer number of cents, got ${amount}`);
  return amount;
}

export function requireText(field: string, value: string | undefined): string {
  if (!value?.trim()) throw invalidArgument(field, `${field} is required`);
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
