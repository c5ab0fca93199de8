import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../server/config.js';
import { derivedCardTokenKeys, openCardToken, sealCardToken } from '../../server/lib/gatewayCardToken.js';
import { openSavedCard, savedCardKeyInfo, sealSavedCard } from '../../server/lib/savedCard.js';
import { SecretBox } from '../../server/lib/secretBox.js';

/**
 * SECRETS_KEY during a rotation: a process seals under SECRETS_KEY and opens under it or SECRETS_KEY_OTHER, for the
 * stored secrets, the saved cards' derived keys and the card tokens' derived keys alike.
 */
const OLD = SecretBox.generateEncodedKey();
const NEW = SecretBox.generateEncodedKey();
const oldOnly = SecretBox.fromEncodedKey(OLD);
const newOnly = SecretBox.fromEncodedKey(NEW);
/** Step 1: still sealing under the old key, opening the new one's too. */
const stepOne = SecretBox.fromEncodedKey(OLD, NEW);
/** Step 2: sealing under the new key, opening the old one's too. */
const stepTwo = SecretBox.fromEncodedKey(NEW, OLD);

describe('the key ring', () => {
  it('seals under SECRETS_KEY only and opens under either key', () => {
    const byStepOne = stepOne.seal('sk_live_1');
    const byStepTwo = stepTwo.seal('sk_live_2');
    expect(oldOnly.open(byStepOne)).toBe('sk_live_1');
    expect(() => newOnly.open(byStepOne)).toThrow('opens under no key');
    expect(newOnly.open(byStepTwo)).toBe('sk_live_2');
    expect(() => oldOnly.open(byStepTwo)).toThrow('opens under no key');
    for (const box of [stepOne, stepTwo]) expect([box.open(byStepOne), box.open(byStepTwo)]).toEqual(['sk_live_1', 'sk_live_2']);
    expect(() => stepTwo.open(SecretBox.fromEncodedKey(SecretBox.generateEncodedKey()).seal('x'))).toThrow('opens under no key');
  });

  it('reseals what opens only under the other key, leaves what is current, refuses what opens under neither', () => {
    const old = oldOnly.seal('whsec_1');
    const resealed = stepTwo.reseal(old)!;
    expect(newOnly.open(resealed)).toBe('whsec_1');
    expect(stepTwo.reseal(resealed)).toBeUndefined();
    expect(() => stepTwo.reseal(SecretBox.fromEncodedKey(SecretBox.generateEncodedKey()).seal('x'))).toThrow('opens under no key');
    expect([stepTwo.opens(old), newOnly.opens(old)]).toEqual([true, false]);
  });

  it('fingerprints name the current key, and the other one apart, whatever their encoding', () => {
    expect(stepTwo.fingerprint()).toBe(newOnly.fingerprint());
    expect(stepTwo.otherFingerprint()).toBe(oldOnly.fingerprint());
    expect(newOnly.otherFingerprint()).toBeUndefined();
    expect(SecretBox.fromEncodedKey(Buffer.from(NEW, 'base64').toString('hex'), OLD).fingerprint()).toBe(newOnly.fingerprint());
  });

  it('derives from the current key first, then the other', () => {
    const info = savedCardKeyInfo('acct-1');
    expect(stepTwo.deriveKeys(info)).toEqual([newOnly.deriveKey(info), oldOnly.deriveKey(info)]);
    expect(newOnly.deriveKeys(info)).toEqual([newOnly.deriveKey(info)]);
  });

  it('refuses a malformed other key, naming the setting, and the same key twice', () => {
    expect(() => SecretBox.fromEncodedKey(NEW, 'short')).toThrow('SECRETS_KEY_OTHER must be 32 bytes, as base64 or 64 hex characters');
    expect(() => SecretBox.fromEncodedKey(NEW, Buffer.from(NEW, 'base64').toString('hex'))).toThrow('SECRETS_KEY_OTHER is the same key as SECRETS_KEY');
  });
});

describe('derived keys', () => {
  const CARD = { cardNumber: '4111111111111111', holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '03', expYear: '2030', cvv: '737' };
  const NOW = new Date('2026-11-28T12:00:00Z');
  const ACCOUNT = '3f1d1c0e-2b59-4d1b-9b1a-1c2d3e4f5a6b';
  const tokenKeys = (box: SecretBox) => derivedCardTokenKeys((info) => box.deriveKeys(info), 1);

  it('a saved card sealed under either key opens during the rotation, and only under its own key without one', () => {
    const info = savedCardKeyInfo(ACCOUNT);
    const sealedOld = sealSavedCard(CARD, stepOne.deriveKeys(info)[0]);
    const sealedNew = sealSavedCard(CARD, stepTwo.deriveKeys(info)[0]);
    for (const box of [stepOne, stepTwo]) {
      expect(openSavedCard(sealedOld, box.deriveKeys(info)).cardNumber).toBe(CARD.cardNumber);
      expect(openSavedCard(sealedNew, box.deriveKeys(info)).cardNumber).toBe(CARD.cardNumber);
    }
    expect(() => openSavedCard(sealedOld, newOnly.deriveKeys(info))).toThrow();
  });

  it('a card token made under either key opens at a process of the other side of the rotation', () => {
    const options = { accountId: ACCOUNT, now: NOW, ttlSeconds: 3600 };
    const beforeRotation = sealCardToken(CARD, { ...options, keys: tokenKeys(oldOnly) }).token;
    const byStepTwo = sealCardToken(CARD, { ...options, keys: tokenKeys(stepTwo) }).token;
    for (const box of [stepOne, stepTwo]) {
      expect(openCardToken(beforeRotation, { ...options, keys: tokenKeys(box) }).card.cvv).toBe('737');
      expect(openCardToken(byStepTwo, { ...options, keys: tokenKeys(box) }).card.cvv).toBe('737');
    }
    expect(openCardToken(byStepTwo, { ...options, keys: tokenKeys(newOnly) }).card.cvv).toBe('737');
    expect(() => openCardToken(beforeRotation, { ...options, keys: tokenKeys(newOnly) })).toThrow('it was altered or not made by this gateway');
  });
});

describe('SECRETS_KEY_OTHER in the configuration', () => {
  const keysOf = (more: Record<string, string>) => {
    const config = loadConfig({ DATA_DIR: join(tmpdir(), 'secrets-key-config'), API_TOKENS: 't', OUTBOUND_WEBHOOK_SECRET: 's', ADMIN_PASSWORD: 'p', ...more });
    return { secretsKey: config.secretsKey, secretsKeyOther: config.secretsKeyOther };
  };

  it('is read beside SECRETS_KEY, and absent by default', () => {
    expect(keysOf({ SECRETS_KEY: NEW })).toEqual({ secretsKey: NEW, secretsKeyOther: undefined });
    expect(keysOf({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: ` ${OLD} ` })).toEqual({ secretsKey: NEW, secretsKeyOther: OLD });
  });

  it('a malformed one, or the same key as SECRETS_KEY (in any encoding), stops the start with the setting named and no key', () => {
    const errorOf = (env: Record<string, string>) => {
      try {
        keysOf(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('no error');
    };
    const malformed = errorOf({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: 'not-a-key' });
    expect(malformed).toBe('SECRETS_KEY_OTHER must be 32 bytes, as base64 or 64 hex characters');
    const same = errorOf({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: Buffer.from(NEW, 'base64').toString('hex') });
    expect(same).toBe('SECRETS_KEY_OTHER is the same key as SECRETS_KEY: it is the other key of a rotation in progress; unset it when none is');
    for (const message of [malformed, same]) expect(message).not.toContain(NEW);
  });
});
