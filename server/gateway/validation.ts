import { inferPixKeyType, isValidPixKey, type PixKeyType } from '../../shared/pixKeyRules.js';
import { isValidDocument } from '../lib/documents.js';
import { invalidArgument, type GatewayError } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';

/*
 * The shared checks of bad input. Each names the rule it broke (FieldRule, server/lib/errors.ts) and the values its
 * client text quotes, so that the back-office says it in its own language (issue 33 §8); the English message stays
 * the one callers quote, a call site passing its own where it always had one.
 */

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
    throw invalidArgument(field, `${field} must be an http(s) URL`, 'INVALID_URL');
  }
}

/** The text trimmed, refused beyond `max` characters. */
export function limitedText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (text.length > max) throw invalidArgument(field, `${field} must be at most ${max} characters`, 'TOO_LONG', { maxLength: String(max) });
  return text;
}

/** An id the gateway made (a UUID). */
export function requireUuid(field: string, value: string, message = `${field} must be a UUID`): string {
  if (!isUuid(value)) throw invalidArgument(field, message, 'INVALID_ID');
  return value;
}

/** Something@domain, as an operator's sign-in and the receivers' contacts are written. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

export const isEmailAddress = (value: string): boolean => EMAIL.test(value);

/** An e-mail address, trimmed. */
export function requireEmail(field: string, value: string, message = `${field} must be an e-mail address`): string {
  const text = value.trim();
  if (!isEmailAddress(text)) throw invalidArgument(field, message, 'INVALID_EMAIL');
  return text;
}

/** A well-formed PIX key of `type` (by default the type its shape says), trimmed; the client text names the type. */
export function requirePixKey(
  field: string,
  key: string,
  type: PixKeyType = inferPixKeyType(key),
  message = `${field} is not a valid ${type} PIX key`,
): string {
  const text = key.trim();
  if (!isValidPixKey(text, type)) throw invalidArgument(field, message, 'INVALID_PIX_KEY', { pixType: type });
  return text;
}

/** A CPF or CNPJ with valid check digits (punctuation allowed). */
export function requireDocument(field: string, value: string, message = `${field} must be a valid CPF or CNPJ`): string {
  const text = value.trim();
  if (!isValidDocument(text)) throw invalidArgument(field, message, 'INVALID_DOCUMENT');
  return text;
}

/** An enum's value that the request left UNSPECIFIED or that the contract (or the list) does not have. */
export const unknownValue = (field: string, message: string): GatewayError => invalidArgument(field, message, 'UNKNOWN_VALUE');

/** One of `allowed`. */
export function requireOneOf<T extends string>(
  field: string,
  value: string | undefined,
  allowed: readonly T[],
  message = `${field} must be one of ${allowed.join(', ')}`,
): T {
  if (value === undefined || !(allowed as readonly string[]).includes(value)) throw unknownValue(field, message);
  return value as T;
}

/** A range whose end (`toField`) comes before its start; `allowEqual` when a one-point range is fine (whole days). */
export function requireOrderedRange<T extends number | string>(
  toField: string,
  from: T | undefined,
  to: T | undefined,
  message: string,
  allowEqual = false,
): void {
  if (from === undefined || to === undefined) return;
  if (to < from || (!allowEqual && to === from)) throw invalidArgument(toField, message, 'RANGE_REVERSED');
}

/** A number outside min..max, the limits sent for the client text. */
export const outOfRange = (field: string, message: string, min: number, max: number): GatewayError =>
  invalidArgument(field, message, 'OUT_OF_RANGE', { min: String(min), max: String(max) });

/** A whole number from min to max. */
export function requireInRange(field: string, value: number, min: number, max: number, message = `${field} must be from ${min} to ${max}`): number {
  if (!Number.isInteger(value) || value < min || value > max) throw outOfRange(field, message, min, max);
  return value;
}

/** A page size: 0 (the list's default) to `max`. */
export function requirePageSize(field: string, size: number, max: number, message = `${field} must be from 0 to ${max}`): number {
  return requireInRange(field, size, 0, max, message);
}

/** A text of minLength to maxLength characters (a password), the limits sent for the client text. */
export function requireLength(field: string, value: string, minLength: number, maxLength: number, message: string): string {
  if (value.length < minLength || value.length > maxLength)
    throw invalidArgument(field, message, 'LENGTH_OUT_OF_RANGE', { minLength: String(minLength), maxLength: String(maxLength) });
  return value;
}

/** A field this request cannot take here (another one chooses for it, or the provider or rule does not read it). */
export const notAllowed = (field: string, message: string): GatewayError => invalidArgument(field, message, 'NOT_ALLOWED');

/** The nearest general rule of a one-off check, whose English message says the rest. */
export const invalidValue = (field: string, message: string): GatewayError => invalidArgument(field, message, 'INVALID_VALUE');
