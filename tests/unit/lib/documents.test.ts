import { describe, expect, it } from '@jest/globals';
import {
  cnpjWhenMoreThan11Digits,
  digitsOnly,
  documentTypeStrategies,
  formatCpf,
  formatDocument,
  inferDocumentType,
  isValidDocument,
  lowerCaseCpfWhenExactly11Digits,
  requireCnpjDigits,
  requireCpfDigits,
  requirePhoneDigits,
} from '../../../server/lib/documents.js';
import { GatewayError } from '../../../server/lib/errors.js';

const VALID_CPF = '12345678909';
const VALID_CNPJ = '11222333000181';

function thrown(action: () => unknown): GatewayError {
  try {
    action();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('documents', () => {
  it('keeps only the digits of a masked document', () => {
    expect(digitsOnly('123.456.789-09')).toBe(VALID_CPF);
    expect(digitsOnly('11.222.333/0001-81')).toBe(VALID_CNPJ);
    expect(digitsOnly('abc')).toBe('');
  });

  it('infers by the spec default: 11 digits is CPF, otherwise CNPJ', () => {
    expect(inferDocumentType(VALID_CPF)).toBe('CPF');
    expect(inferDocumentType('123.456.789-09')).toBe('CPF');
    expect(inferDocumentType(VALID_CNPJ)).toBe('CNPJ');
    expect(inferDocumentType('1234567890')).toBe('CNPJ');
    expect(inferDocumentType('123456789012')).toBe('CNPJ');
  });

  it('offers the "more than 11 digits is CNPJ" variant', () => {
    expect(cnpjWhenMoreThan11Digits(VALID_CNPJ)).toBe('CNPJ');
    expect(cnpjWhenMoreThan11Digits('123456789012')).toBe('CNPJ');
    expect(cnpjWhenMoreThan11Digits(VALID_CPF)).toBe('CPF');
    // Where it differs from the default: a short document stays CPF.
    expect(cnpjWhenMoreThan11Digits('1234567890')).toBe('CPF');
    expect(inferDocumentType('1234567890')).toBe('CNPJ');
  });

  it("offers Lumina's lower-case 'exactly 11 digits is cpf' variant", () => {
    expect(lowerCaseCpfWhenExactly11Digits('123.456.789-09')).toBe('cpf');
    expect(lowerCaseCpfWhenExactly11Digits(VALID_CNPJ)).toBe('cnpj');
    expect(lowerCaseCpfWhenExactly11Digits('1234567890')).toBe('cnpj');
  });

  it('names the strategies so an adapter can pick one', () => {
    expect(documentTypeStrategies.default('1234567890')).toBe('CNPJ');
    expect(documentTypeStrategies.moreThan11IsCnpj('1234567890')).toBe('CPF');
    expect(documentTypeStrategies.exactly11IsLowerCaseCpf(VALID_CPF)).toBe('cpf');
  });

  it('formats an 11-digit CPF as ddd.ddd.ddd-dd (ROYALTY) and leaves other lengths alone', () => {
    expect(formatCpf(VALID_CPF)).toBe('123.456.789-09');
    expect(formatCpf('123.456.789-09')).toBe('123.456.789-09');
    expect(formatCpf(VALID_CNPJ)).toBe(VALID_CNPJ);
    expect(formatCpf('1234')).toBe('1234');
  });

  it('formats documents for display: 11 digits as CPF, 14 as CNPJ', () => {
    expect(formatDocument(VALID_CPF)).toBe('123.456.789-09');
    expect(formatDocument(VALID_CNPJ)).toBe('11.222.333/0001-81');
    expect(formatDocument('12345')).toBe('12345');
  });

  it('validates check digits through brazilian-utils', () => {
    expect(isValidDocument(VALID_CPF)).toBe(true);
    expect(isValidDocument('123.456.789-09')).toBe(true);
    expect(isValidDocument('12345678900')).toBe(false);
    expect(isValidDocument('00000000000')).toBe(false);
    expect(isValidDocument(VALID_CNPJ)).toBe(true);
    expect(isValidDocument('11222333000180')).toBe(false);
    expect(isValidDocument(VALID_CPF, 'CNPJ')).toBe(false);
  });

  it('enforces RAPDYN formats with the spec messages', () => {
    expect(requireCpfDigits('123.456.789-09')).toBe(VALID_CPF);
    const cpf = thrown(() => requireCpfDigits('1234567890'));
    expect(cpf.code).toBe('INVALID_ARGUMENT');
    expect(cpf.message).toBe('CPF inválido, deve conter 11 dígitos.');
    expect(cpf.details.field).toBe('document');

    expect(requireCnpjDigits('11.222.333/0001-81')).toBe(VALID_CNPJ);
    expect(thrown(() => requireCnpjDigits(VALID_CPF)).code).toBe('INVALID_ARGUMENT');

    expect(requirePhoneDigits('(11) 3000-0000')).toBe('1130000000');
    expect(requirePhoneDigits('(11) 98765-4321')).toBe('11987654321');
    const phone = thrown(() => requirePhoneDigits('987654321', 'pixKey'));
    expect(phone.code).toBe('INVALID_ARGUMENT');
    expect(phone.message).toBe('Telefone inválido, número de dígitos incorreto.');
    expect(phone.details.field).toBe('pixKey');
    expect(() => requirePhoneDigits('5511987654321')).toThrow('Telefone inválido, número de dígitos incorreto.');
  });
});
