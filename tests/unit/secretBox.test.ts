import { expect, it } from '@jest/globals';
import { SecretBox } from '../../server/lib/secretBox.js';

it('seals with AES-256-GCM, opens what it sealed, and refuses a tampered or foreign value', () => {
  const box = SecretBox.fromEncodedKey(SecretBox.generateEncodedKey());
  const sealed = box.seal('sk_live_123');
  expect(sealed).not.toContain('sk_live_123');
  expect(box.seal('sk_live_123')).not.toBe(sealed);
  expect(box.open(sealed)).toBe('sk_live_123');
  const [version, iv, tag, body] = sealed.split('.');
  expect(() => box.open([version, iv, tag, `${body}A`].join('.'))).toThrow();
  expect(() => SecretBox.fromEncodedKey(SecretBox.generateEncodedKey()).open(sealed)).toThrow();
  expect(() => SecretBox.fromEncodedKey('short')).toThrow('SECRETS_KEY must be 32 bytes');
});
