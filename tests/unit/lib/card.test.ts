import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { CardInput } from '../../../server/domain/types.js';
import { cardDigits, decryptCardToken, encryptCardToken, fourDigitYear, randomStatementDescriptor, statementDescriptor } from '../../../server/lib/card.js';
import { GatewayError } from '../../../server/lib/errors.js';

const card: CardInput = {
  cardNumber: '4111111111111111',
  holderName: 'JOSÉ DA SILVA',
  holderDocument: '12345678909',
  expMonth: '12',
  expYear: '30',
  cvv: '123',
};

function thrown(action: () => unknown): GatewayError {
  try {
    action();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('card fields', () => {
  it('strips card numbers to digits', () => {
    expect(cardDigits('4111 1111-1111.1111')).toBe('4111111111111111');
  });

  it('builds the four-digit year as 2000 plus the two-digit year', () => {
    expect(fourDigitYear('30')).toBe('2030');
    expect(fourDigitYear('05')).toBe('2005');
    expect(fourDigitYear(30)).toBe('2030');
    expect(fourDigitYear('2030')).toBe('2030');
    const error = thrown(() => fourDigitYear('203'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details.field).toBe('expYear');
    expect(() => fourDigitYear('ab')).toThrow(GatewayError);
  });
});

describe('statement descriptor', () => {
  it('keeps at most 13 alphanumeric characters', () => {
    expect(statementDescriptor('Minha Loja Online 2024!')).toBe('MinhaLojaOnli');
    expect(statementDescriptor('LOJA*ABC')).toBe('LOJAABC');
    expect(statementDescriptor('São João')).toBe('SaoJoao');
    expect(statementDescriptor('ABCDEFGHIJKLM')).toBe('ABCDEFGHIJKLM');
  });

  it('defaults to 13 random upper-case letters and digits', () => {
    expect(statementDescriptor()).toMatch(/^[A-Z0-9]{13}$/);
    expect(statementDescriptor('***')).toMatch(/^[A-Z0-9]{13}$/);
    const many = new Set(Array.from({ length: 50 }, () => randomStatementDescriptor()));
    for (const value of many) expect(value).toMatch(/^[A-Z0-9]{13}$/);
    expect(many.size).toBe(50);
  });
});

describe('card token', () => {
  const rawKey = randomBytes(32).toString('base64');
  // A platform key that is not 32 bytes (e.g. a PEM) is hashed into one.
  const pemKey = Buffer.from('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg...\n-----END PRIVATE KEY-----\n').toString('base64');

  it('round-trips the card through AES-256-GCM with either kind of platform key', () => {
    for (const key of [rawKey, pemKey]) {
      const token = encryptCardToken(card, key);
      expect(decryptCardToken(token, key)).toEqual(card);
    }
  });

  it('uses a 32-byte platform key as the AES key and SHA-256 of any other key', () => {
    const seal = (aesKey: Buffer, plaintext: string): string => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
    };
    const plaintext = '4111111111111111|JOSÉ DA SILVA|12345678909|12|30|123';
    expect(decryptCardToken(seal(Buffer.from(rawKey, 'base64'), plaintext), rawKey)).toEqual(card);
    const hashed = createHash('sha256').update(Buffer.from(pemKey, 'base64')).digest();
    expect(decryptCardToken(seal(hashed, plaintext), pemKey)).toEqual(card);
  });

  it('is base64 of a 12-byte IV, a 16-byte tag and the ciphertext, never the card in clear', () => {
    const token = encryptCardToken(card, rawKey);
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const raw = Buffer.from(token, 'base64');
    const plaintextLength = Buffer.byteLength(Object.values(card).join('|'), 'utf8');
    expect(raw.length).toBe(12 + 16 + plaintextLength);
    expect(raw.toString('latin1')).not.toContain(card.cardNumber);
    // A fresh IV each time: the same card never yields the same token.
    expect(encryptCardToken(card, rawKey)).not.toBe(token);
  });

  it('refuses a tampered token', () => {
    const raw = Buffer.from(encryptCardToken(card, rawKey), 'base64');
    raw[raw.length - 1] ^= 0x01;
    const error = thrown(() => decryptCardToken(raw.toString('base64'), rawKey));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('Invalid card token');
    expect(error.message).not.toContain(card.cardNumber);
  });

  it('refuses a token sealed with another platform key', () => {
    const token = encryptCardToken(card, rawKey);
    expect(() => decryptCardToken(token, randomBytes(32).toString('base64'))).toThrow('Invalid card token');
    expect(() => decryptCardToken(token, pemKey)).toThrow('Invalid card token');
  });

  it('refuses a truncated or garbage token', () => {
    expect(() => decryptCardToken('', rawKey)).toThrow('Invalid card token');
    expect(() => decryptCardToken('bm90IGEgdG9rZW4=', rawKey)).toThrow('Invalid card token');
  });

  it("refuses card fields containing the '|' separator, naming only the field", () => {
    const error = thrown(() => encryptCardToken({ ...card, holderName: 'A|B' }, rawKey));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details.field).toBe('holderName');
    expect(error.message).not.toContain('A|B');
  });

  it('needs a platform key', () => {
    expect(thrown(() => encryptCardToken(card, '')).code).toBe('FAILED_PRECONDITION');
  });
});
