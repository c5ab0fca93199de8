import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { isSavedCardId, newSavedCardId, openSavedCard, savedCardKeyInfo, savedCardUuid, sealSavedCard } from '../../server/lib/savedCard.js';

const CARD = { cardNumber: '4111111111111111', holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '03', expYear: '2030', cvv: '737' };

describe('saved cards (savedCard.ts)', () => {
  it('seals the card without its CVV and opens it with an empty one', () => {
    const key = randomBytes(32);
    const sealed = sealSavedCard(CARD, key);
    expect(sealed).not.toContain('4111');
    expect(Buffer.from(sealed.split('.')[3]!, 'base64url').toString('latin1')).not.toContain('737');
    expect(openSavedCard(sealed, [key])).toEqual({ ...CARD, cvv: '' });
  });

  it('opens under no other key (another account)', () => {
    expect(() => openSavedCard(sealSavedCard(CARD, randomBytes(32)), [randomBytes(32)])).toThrow();
  });

  it('has ids of its own prefix and a UUID, and reads back only such ids', () => {
    const id = newSavedCardId();
    expect(isSavedCardId(id)).toBe(true);
    expect(savedCardUuid(id)).toBe(id.slice(4));
    expect(isSavedCardId('card_123')).toBe(false);
    expect(savedCardUuid('gsc_not-a-uuid')).toBeUndefined();
    expect(savedCardUuid('card_00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('names one key per account', () => {
    expect(savedCardKeyInfo('a')).not.toBe(savedCardKeyInfo('b'));
  });
});
