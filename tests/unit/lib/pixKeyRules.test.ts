import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { inferPixKeyType, isValidPixKey } from '../../../shared/pixKeyRules.js';
import { inferPixKeyType as reexported } from '../../../server/lib/pixKey.js';

describe('pixKey inference (Veltrax table)', () => {
  it.each([
    ['fulano@example.com', 'EMAIL'],
    ['12345678909', 'CPF'],
    ['123.456.789-09', 'CPF'],
    // 11 digits is read as CPF first, even when it is a mobile number.
    ['11987654321', 'CPF'],
    ['11222333000181', 'CNPJ'],
    ['11.222.333/0001-81', 'CNPJ'],
    ['1130000000', 'PHONE'],
    ['(11) 3000-0000', 'PHONE'],
    ['+55 11 98765-4321', 'PHONE'],
    ['+5511987654321', 'PHONE'],
    ['71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d', 'RANDOM'],
    ['123456789', 'RANDOM'],
    ['123456789012', 'RANDOM'],
  ] as const)('%s is %s', (key, type) => {
    expect(inferPixKeyType(key)).toBe(type);
  });

  it('does not read a random key as a document because its hex holds 11 digits', () => {
    const evp = '12345678-90ab-cdef-1abc-defabcdefabc';
    expect(evp.replace(/\D/g, '')).toHaveLength(11);
    expect(inferPixKeyType(evp)).toBe('RANDOM');
  });

  it('is the inference the gateway toolkit exports (one rule for the server and the back-office)', () => {
    expect(reexported).toBe(inferPixKeyType);
  });
});

describe('pixKey validation', () => {
  it.each([
    ['123.456.789-09', 'CPF'],
    ['12345678909', 'CPF'],
    ['11.222.333/0001-81', 'CNPJ'],
    ['fulano.silva+pix@example.com', 'EMAIL'],
    ['+55 11 98765-4321', 'PHONE'],
    ['71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d', 'RANDOM'],
    ['71C7D9BE-4B85-4E43-9F1C-1F3B8B4E9A2D', 'RANDOM'],
  ] as const)('accepts %s as %s', (key, type) => {
    expect(inferPixKeyType(key)).toBe(type);
    expect(isValidPixKey(key)).toBe(true);
    expect(isValidPixKey(key, type)).toBe(true);
  });

  it.each([
    ['a CPF with a wrong check digit', '123.456.789-00'],
    ['a CPF of one repeated digit', '111.111.111-11'],
    ['a CNPJ with a wrong check digit', '11.222.333/0001-82'],
    ['an e-mail without a domain', 'fulano@'],
    ['an e-mail with a space', 'fulano silva@example.com'],
    ['a landline (the DICT registers mobiles)', '(11) 3000-0000'],
    ['a +55 number that is too short', '+55 11 9876-543'],
    ['a random key that is not a UUID', 'chave-qualquer'],
    ['nine digits', '123456789'],
    ['nothing', '   '],
  ])('refuses %s', (_what, key) => {
    expect(isValidPixKey(key)).toBe(false);
  });

  it('refuses a bare 11-digit mobile as the CPF it is inferred to be; written with +55 it is a valid phone', () => {
    expect(inferPixKeyType('11987654321')).toBe('CPF');
    expect(isValidPixKey('11987654321')).toBe(false);
    expect(isValidPixKey('+55 11987654321')).toBe(true);
  });

  it('refuses a key of another type than the one given', () => {
    expect(isValidPixKey('123.456.789-09', 'PHONE')).toBe(false);
    expect(isValidPixKey('fulano@example.com', 'RANDOM')).toBe(false);
  });

  it('imports nothing but a browser-safe library, so the back-office can bundle it', () => {
    const source = readFileSync('shared/pixKeyRules.ts', 'utf8');
    expect([...source.matchAll(/from\s+'([^']+)'/g)].map((match) => match[1])).toEqual(['@brazilian-utils/brazilian-utils/get-pix-key-info']);
  });
});
