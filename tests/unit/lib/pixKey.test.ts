import { describe, expect, it } from '@jest/globals';
import { normalizePixKey, pixKeyTypeName, providerPixKey } from '../../../server/lib/pixKey.js';

describe('pixKey normalisation', () => {
  it('strips non-digits from CPF, CNPJ and PHONE keys', () => {
    expect(normalizePixKey('123.456.789-09', 'CPF')).toBe('12345678909');
    expect(normalizePixKey('11.222.333/0001-81', 'CNPJ')).toBe('11222333000181');
    expect(normalizePixKey('(11) 98765-4321', 'PHONE')).toBe('11987654321');
  });

  it('sends EMAIL and RANDOM keys exactly as given', () => {
    expect(normalizePixKey('Fulano.Silva+pix@Example.com', 'EMAIL')).toBe('Fulano.Silva+pix@Example.com');
    const evp = '71C7D9BE-4B85-4E43-9F1C-1F3B8B4E9A2D';
    expect(normalizePixKey(evp, 'RANDOM')).toBe(evp);
    expect(normalizePixKey(evp, 'RANDOM', { phonePrefix: '+55', randomAs: 'EVP' })).toBe(evp);
  });

  it('always prefixes +55 to PHONE keys in the Podpay/Onz style', () => {
    expect(normalizePixKey('(11) 98765-4321', 'PHONE', { phonePrefix: '+55' })).toBe('+5511987654321');
    expect(normalizePixKey('11987654321', 'PHONE', { phonePrefix: '+55' })).toBe('+5511987654321');
    // The prefix applies to PHONE only.
    expect(normalizePixKey('123.456.789-09', 'CPF', { phonePrefix: '+55' })).toBe('12345678909');
  });

  it('prefixes +55 in the Lexxen style unless the digits already start with 55', () => {
    expect(normalizePixKey('(11) 98765-4321', 'PHONE', { phonePrefix: 'lexxen' })).toBe('+5511987654321');
    expect(normalizePixKey('+55 (11) 98765-4321', 'PHONE', { phonePrefix: 'lexxen' })).toBe('+5511987654321');
    expect(normalizePixKey('5511987654321', 'PHONE', { phonePrefix: 'lexxen' })).toBe('+5511987654321');
  });

  it('names RANDOM as EVP for Bravive/Lexxen/Rapdyn and evp (lower case) for PaySharkGateway', () => {
    expect(pixKeyTypeName('RANDOM')).toBe('RANDOM');
    expect(pixKeyTypeName('RANDOM', { randomAs: 'EVP' })).toBe('EVP');
    expect(pixKeyTypeName('CPF', { randomAs: 'EVP' })).toBe('CPF');
    expect(pixKeyTypeName('RANDOM', { randomAs: 'evp' })).toBe('evp');
    expect(pixKeyTypeName('PHONE', { randomAs: 'evp' })).toBe('phone');
    expect(pixKeyTypeName('EMAIL', { randomAs: 'evp' })).toBe('email');
  });

  it('returns key and type name together in one provider style', () => {
    expect(providerPixKey('(11) 98765-4321', 'PHONE', { phonePrefix: '+55', randomAs: 'EVP' })).toEqual({ key: '+5511987654321', type: 'PHONE' });
    expect(providerPixKey('abc-123', 'RANDOM', { randomAs: 'EVP' })).toEqual({ key: 'abc-123', type: 'EVP' });
  });
});
