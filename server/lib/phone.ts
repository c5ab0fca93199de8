import { formatPhone } from '@brazilian-utils/brazilian-utils/format-phone';
import { digitsOnly } from './documents.js';

/** Brazil's country calling code (spec doc 1 §9). */
export const COUNTRY_CODE = '55';

export interface SplitPhone {
  /** The 2-digit DDD. */
  areaCode: string;
  /** The subscriber number, 8 or 9 digits for a valid phone. */
  number: string;
}

/**
 * The national number: digits only, with a leading 55 removed only when 12 or
 * 13 digits remain to leave 10 or 11 (DDD + 8 or 9 digits). Going by length keeps
 * DDD 55 (Rio Grande do Sul) numbers such as 55 98765-4321 intact.
 * brazilian-utils' parsePhone applies the same rule but silently cuts anything
 * longer to 11 digits; a bad number should reach the provider as it is, not
 * shortened into a different valid-looking one.
 */
export function nationalPhoneDigits(phone: string): string {
  const digits = digitsOnly(phone);
  const hasCountryCode = (digits.length === 12 || digits.length === 13) && digits.startsWith(COUNTRY_CODE);
  return hasCountryCode ? digits.slice(COUNTRY_CODE.length) : digits;
}

/** Spec doc 1 §5: "A phone is split into a 2-digit area code and the rest." */
export function splitPhone(phone: string): SplitPhone {
  const digits = nationalPhoneDigits(phone);
  return { areaCode: digits.slice(0, 2), number: digits.slice(2) };
}

/**
 * Display (doc 3 §5): an 11-digit phone as (DD) NNNNN-NNNN; a 10-digit landline
 * as (DD) NNNN-NNNN; any other length as given, since a mask would misrepresent it.
 */
export function formatPhoneForDisplay(phone: string): string {
  const digits = nationalPhoneDigits(phone);
  return digits.length === 10 || digits.length === 11 ? formatPhone(digits, { mask: 'nanp' }) : phone;
}
