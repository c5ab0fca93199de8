import { describe, expect, it } from '@jest/globals';
import { CARD_TOKEN_SEPARATOR, decryptCardToken } from '../../../server/lib/card.js';
import { GatewayError } from '../../../server/lib/errors.js';
import {
  GATEWAY_CARD_TOKEN_PREFIX,
  authenticateCardToken,
  cardTokenHash,
  derivedCardTokenKeys,
  isGatewayCardToken,
  openCardToken,
  sealCardToken,
} from '../../../server/lib/gatewayCardToken.js';
import { SecretBox } from '../../../server/lib/secretBox.js';

const PAN = '4111111111111111';
const CVV = '737';
const CARD = { cardNumber: '4111 1111-1111 1111', holderName: 'Ana Souza', holderDocument: '123.456.789-09', expMonth: '3', expYear: '30', cvv: CVV };
const NOW = new Date('2026-11-28T12:00:00Z');
const box = SecretBox.fromEncodedKey(SecretBox.generateEncodedKey());
const keys = derivedCardTokenKeys((info) => box.deriveKeys(info), 1);
const ACCOUNT = '3f1d1c0e-2b59-4d1b-9b1a-1c2d3e4f5a6b';

const seal = (options: Partial<Parameters<typeof sealCardToken>[1]> = {}) =>
  sealCardToken(CARD, { accountId: ACCOUNT, keys, now: NOW, ttlSeconds: 3600, ...options });

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a refusal');
}

describe("the gateway's card token", () => {
  it('seals the card fields in the specification format under a per-account key and opens them at that account', () => {
    const { token, expiresAt } = seal();
    expect(token.startsWith(`${GATEWAY_CARD_TOKEN_PREFIX}.`)).toBe(true);
    expect(isGatewayCardToken(token)).toBe(true);
    expect(isGatewayCardToken('card_abc')).toBe(false);
    expect(expiresAt).toEqual(new Date('2026-11-28T13:00:00Z'));
    // Neither the number (in any spelling) nor the CVV is readable in the token.
    expect(token).not.toContain(PAN);
    expect(token).not.toContain(CVV);
    const opened = openCardToken(token, { accountId: ACCOUNT, keys, now: new Date(NOW.getTime() + 60_000) });
    expect(opened.card).toEqual({ cardNumber: PAN, holderName: 'Ana Souza', holderDocument: '123.456.789-09', expMonth: '03', expYear: '2030', cvv: CVV });
    expect(opened.keyVersion).toBe(1);
    // The sealed part is card.ts's spec format: iv | tag | ciphertext of the fields joined by '|', under the account's derived key.
    const [, , , , sealed] = token.split('.');
    const raw = Buffer.from(sealed!, 'base64');
    expect(raw.length).toBe(12 + 16 + [PAN, 'Ana Souza', '123.456.789-09', '03', '2030', CVV].join(CARD_TOKEN_SEPARATOR).length);
    const head = token.slice(0, token.lastIndexOf('.'));
    expect(decryptCardToken(sealed!, keys.keysFor(ACCOUNT, 1)[0].toString('base64'), Buffer.from(head))).toEqual(opened.card);
    // Two tokens of one card differ (a fresh IV each time).
    expect(seal().token).not.toBe(token);
  });

  it('refuses a token past its expiry with FAILED_PRECONDITION', () => {
    const { token } = seal({ ttlSeconds: 60 });
    expect(openCardToken(token, { accountId: ACCOUNT, keys, now: new Date(NOW.getTime() + 59_000) }).card.cvv).toBe(CVV);
    const error = refusal(() => openCardToken(token, { accountId: ACCOUNT, keys, now: new Date(NOW.getTime() + 60_000) }));
    expect(error.code).toBe('FAILED_PRECONDITION');
    expect(error.message).toBe('the card token expired at 2026-11-28T12:01:00.000Z: create a new one');
    expect(error.details).toMatchObject({ field: 'transaction.card_id', reason: 'CARD_TOKEN_EXPIRED' });
    // Authenticity alone does not look at the date (the expiry is checked where the token is used).
    expect(authenticateCardToken(token, { accountId: ACCOUNT, keys }).expiresAt).toEqual(new Date('2026-11-28T12:01:00Z'));
  });

  it("refuses another account's token, even with its header rewritten to this account", () => {
    const { token } = seal({ accountId: 'other-account' });
    const foreign = refusal(() => openCardToken(token, { accountId: ACCOUNT, keys, now: NOW }));
    expect(foreign.code).toBe('INVALID_ARGUMENT');
    expect(foreign.message).toBe('card_id is not a usable card token: it was made for another provider account');
    const parts = token.split('.');
    parts[1] = Buffer.from(ACCOUNT).toString('base64url');
    const rewritten = refusal(() => openCardToken(parts.join('.'), { accountId: ACCOUNT, keys, now: NOW }));
    expect(rewritten.message).toBe('card_id is not a usable card token: it was altered or not made by this gateway');
  });

  it('refuses a token with any part altered: a later expiry, a flipped ciphertext bit, a truncation, garbage', () => {
    const { token } = seal({ ttlSeconds: 60 });
    const parts = token.split('.');
    const later = [...parts];
    later[3] = String(Number(parts[3]) + 86_400);
    const raw = Buffer.from(parts[4]!, 'base64');
    raw[raw.length - 1]! ^= 1;
    const flipped = [...parts.slice(0, 4), raw.toString('base64')];
    for (const altered of [later.join('.'), flipped.join('.'), token.slice(0, -4), `${GATEWAY_CARD_TOKEN_PREFIX}.x`, 'gct_v1.....']) {
      const error = refusal(() => openCardToken(altered, { accountId: ACCOUNT, keys, now: NOW }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details.reason).toBe('INVALID_CARD_TOKEN');
      expect(error.message).not.toContain(PAN);
    }
  });

  it('rotates: new tokens use the new key version, tokens of the old version still open until they expire, a newer version than known is refused', () => {
    const old = seal();
    const rotated = derivedCardTokenKeys((info) => box.deriveKeys(info), 2);
    const fresh = sealCardToken(CARD, { accountId: ACCOUNT, keys: rotated, now: NOW, ttlSeconds: 3600 });
    expect(fresh.token.split('.')[2]).toBe('2');
    // The versions' keys differ, so the version is part of what a token is sealed under.
    expect(rotated.keysFor(ACCOUNT, 2)[0].equals(rotated.keysFor(ACCOUNT, 1)[0])).toBe(false);
    expect(openCardToken(old.token, { accountId: ACCOUNT, keys: rotated, now: NOW }).keyVersion).toBe(1);
    expect(openCardToken(fresh.token, { accountId: ACCOUNT, keys: rotated, now: NOW }).keyVersion).toBe(2);
    expect(() => openCardToken(old.token, { accountId: ACCOUNT, keys: rotated, now: new Date(NOW.getTime() + 3_600_000) })).toThrow('expired');
    expect(refusal(() => openCardToken(fresh.token, { accountId: ACCOUNT, keys, now: NOW })).message).toBe(
      'card_id is not a usable card token: its key version is unknown',
    );
    // Another gateway secrets key derives other keys: its tokens do not open here.
    const otherBox = SecretBox.fromEncodedKey(SecretBox.generateEncodedKey());
    const stranger = sealCardToken(CARD, {
      accountId: ACCOUNT,
      keys: derivedCardTokenKeys((info) => otherBox.deriveKeys(info), 1),
      now: NOW,
      ttlSeconds: 3600,
    });
    expect(() => openCardToken(stranger.token, { accountId: ACCOUNT, keys, now: NOW })).toThrow('it was altered or not made by this gateway');
  });

  it('refuses to seal a card that is not one, naming the field and never the value', () => {
    const cases: [Partial<typeof CARD>, string, string][] = [
      [{ cardNumber: '4111111111111112' }, 'card.card_number', 'card.card_number is not a valid card number'],
      [{ holderName: ' ' }, 'card.holder_name', 'card.holder_name is required'],
      [{ expMonth: '13' }, 'card.exp_month', 'card.exp_month must be a month from 01 to 12'],
      [{ expYear: '203' }, 'card.exp_year', 'card.exp_year must have 2 or 4 digits'],
      [{ expMonth: '10', expYear: '26' }, 'card.exp_year', 'the card has expired'],
      [{ cvv: '12' }, 'card.cvv', 'card.cvv must have 3 or 4 digits'],
      [{ holderName: 'Ana|Souza' }, 'holderName', "Card fields must not contain '|'"],
    ];
    for (const [change, field, message] of cases) {
      const error = refusal(() => sealCardToken({ ...CARD, ...change }, { accountId: ACCOUNT, keys, now: NOW, ttlSeconds: 3600 }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toBe(message);
      expect(error.details.field).toBe(field);
    }
    // November's card is still good on the 28th.
    expect(() => sealCardToken({ ...CARD, expMonth: '11', expYear: '26' }, { accountId: ACCOUNT, keys, now: NOW, ttlSeconds: 3600 })).not.toThrow();
  });

  it('keeps a hash of a token that does not reveal it', () => {
    const { token } = seal();
    expect(cardTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(cardTokenHash(token)).toBe(cardTokenHash(token));
    expect(cardTokenHash(token)).not.toBe(cardTokenHash(seal().token));
  });
});

describe('SecretBox.deriveKey', () => {
  it('derives a stable 32-byte key per purpose with HKDF, other for every purpose and every secrets key', () => {
    const key = box.deriveKey('card-token key v1 account a');
    expect(key.length).toBe(32);
    expect(box.deriveKey('card-token key v1 account a').equals(key)).toBe(true);
    expect(box.deriveKey('card-token key v1 account b').equals(key)).toBe(false);
    expect(SecretBox.fromEncodedKey(SecretBox.generateEncodedKey()).deriveKey('card-token key v1 account a').equals(key)).toBe(false);
  });
});
