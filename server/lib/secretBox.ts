import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM sealing for secrets kept at rest. The sealed form is
 * "v1.<iv>.<tag>.<ciphertext>" in base64url, so a stored value says how to open it.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new RangeError('SecretBox needs a 32-byte key');
    this.key = key;
  }

  /** Accepts 32 bytes as base64 or 64 hex characters. */
  static fromEncodedKey(encoded: string): SecretBox {
    const text = encoded.trim();
    const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
    if (key.length !== 32) throw new RangeError('SECRETS_KEY must be 32 bytes, as base64 or 64 hex characters');
    return new SecretBox(key);
  }

  static generateEncodedKey(): string {
    return randomBytes(32).toString('base64');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v1', iv, tag, ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /**
   * Names this key without revealing it (an HMAC of a fixed text under the key): two processes compare their keys by
   * it, whichever encoding (base64 or hex) each was given.
   */
  fingerprint(): string {
    return keyFingerprint(this.key, 'secrets-key');
  }

  /**
   * A 32-byte key for one purpose, derived from this key with HKDF-SHA-256 (RFC 5869): `info` names the purpose
   * (and whatever it is bound to, e.g. an account and a key version), so each purpose gets a key of its own and
   * none of them reveals this one.
   */
  deriveKey(info: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, 'payment-gateway derived key v1', info, 32));
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A key's fingerprint for one purpose: HMAC-SHA-256 of a fixed text, base64url. It says whether two keys are equal, not what they are. */
export const keyFingerprint = (key: Buffer | string, purpose: string): string =>
  createHmac('sha256', key).update(`payment-gateway key fingerprint v1 ${purpose}`).digest('base64url');
