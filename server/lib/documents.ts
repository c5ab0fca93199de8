import { formatCnpj as formatCnpjDigits } from '@brazilian-utils/brazilian-utils/format-cnpj';
import { formatCpf as formatCpfDigits } from '@brazilian-utils/brazilian-utils/format-cpf';
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { catalogueError } from './providerMessages.js';

export type DocumentType = 'CPF' | 'CNPJ';

/**
 * CPF/CNPJ rules (spec doc 1 §5, doc 2 §5, doc 3 §5) in one place, so that a
 * provider adapter declares which inference it uses instead of re-deriving it.
 * Checksums and masks come from @brazilian-utils/brazilian-utils; only the
 * providers' length rules are ours.
 */

const CPF_LENGTH = 11;
const CNPJ_LENGTH = 14;

/** Callers send documents and phones masked or bare; every rule below counts digits. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * The spec's default: "Document of length 11 means CPF, otherwise CNPJ".
 * Length is taken on the digits, so a masked CPF ("123.456.789-09", 14
 * characters) is still a CPF.
 */
export function inferDocumentType(document: string): DocumentType {
  return digitsOnly(document).length === CPF_LENGTH ? 'CPF' : 'CNPJ';
}

/** Provider variant: "more than 11 digits is CNPJ", so anything shorter (even a bad document) is sent as CPF. */
export function cnpjWhenMoreThan11Digits(document: string): DocumentType {
  return digitsOnly(document).length > CPF_LENGTH ? 'CNPJ' : 'CPF';
}

/** Lumina's variant: exactly 11 digits is 'cpf', anything else 'cnpj', in the lower case its API expects. */
export function lowerCaseCpfWhenExactly11Digits(document: string): 'cpf' | 'cnpj' {
  return digitsOnly(document).length === CPF_LENGTH ? 'cpf' : 'cnpj';
}

/** The inference an adapter picks by name, e.g. `documentTypeStrategies.moreThan11IsCnpj`. */
export const documentTypeStrategies = {
  default: inferDocumentType,
  moreThan11IsCnpj: cnpjWhenMoreThan11Digits,
  exactly11IsLowerCaseCpf: lowerCaseCpfWhenExactly11Digits,
} as const;

/**
 * ddd.ddd.ddd-dd for an 11-digit CPF (ROYALTY sends it that way). Anything
 * that is not 11 digits is returned untouched: the provider, not this helper,
 * decides whether it is acceptable, and a half-formatted value would hide the error.
 */
export function formatCpf(document: string): string {
  const digits = digitsOnly(document);
  return digits.length === CPF_LENGTH ? formatCpfDigits(digits) : document;
}

/** Display rule (doc 3 §5): 11 digits as CPF, 14 as CNPJ, anything else as given. */
export function formatDocument(document: string): string {
  const digits = digitsOnly(document);
  if (digits.length === CPF_LENGTH) return formatCpfDigits(digits);
  if (digits.length === CNPJ_LENGTH) return formatCnpjDigits(digits);
  return document;
}

/** Check digits, via brazilian-utils; the type defaults to the spec's inference. */
export function isValidDocument(document: string, type: DocumentType = inferDocumentType(document)): boolean {
  const digits = digitsOnly(document);
  return type === 'CPF' ? isValidCpf(digits) : isValidCnpj(digits);
}

/*
 * RAPDYN's format checks (doc 2 §5): length only, no check digits, with the
 * provider's own messages. They are kept together because they are one
 * provider's rule set, and each returns the digits it checked so the adapter
 * sends exactly what was validated.
 */

export function requireCpfDigits(value: string, field = 'document'): string {
  const digits = digitsOnly(value);
  if (digits.length !== CPF_LENGTH) throw catalogueError('RAPDYN_INVALID_CPF', { field });
  return digits;
}

export function requireCnpjDigits(value: string, field = 'document'): string {
  const digits = digitsOnly(value);
  if (digits.length !== CNPJ_LENGTH) throw catalogueError('RAPDYN_INVALID_CNPJ', { field });
  return digits;
}

export function requirePhoneDigits(value: string, field = 'phone'): string {
  const digits = digitsOnly(value);
  if (digits.length !== 10 && digits.length !== 11) throw catalogueError('RAPDYN_INVALID_PHONE', { field });
  return digits;
}
