import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM sealing for secrets kept at rest. The sealed form is
 * "v1.<iv>.<tag>.<ciphertext>" in base64url, so a stored value says how to open it.
 *
 * During a key rotation it holds two keys: it seals under the current one and opens under either (GCM's tag tells
 * which key a value was sealed under), so processes on either side of the rotation open each other's values.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly other: Buffer | undefined;

  constructor(key: Buffer, other?: Buffer) {
    if (key.length !== 32 || (other && other.length !== 32)) throw new RangeError('SecretBox needs a 32-byte key');
    if (other?.equals(key)) throw new RangeError('SecretBox needs two different keys');
    this.key = key;
    this.other = other;
  }

  /** Accepts 32 bytes as base64 or 64 hex characters: the current key and, during a rotation, the other one. */
  static fromEncodedKey(encoded: string, otherEncoded?: string): SecretBox {
    const other = otherEncoded === undefined ? undefined : decodeSecretsKey(otherEncoded, 'SECRETS_KEY_OTHER');
    const key = decodeSecretsKey(encoded, 'SECRETS_KEY');
    if (other?.equals(key))
      throw new RangeError('SECRETS_KEY_OTHER is the same key as SECRETS_KEY: it is the other key of a rotation in progress; unset it when none is');
    return new SecretBox(key, other);
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

  /** The other key's fingerprint, when a rotation is under way. */
  otherFingerprint(): string | undefined {
    return this.other && keyFingerprint(this.other, 'secrets-key');
  }

  /**
   * A 32-byte key for one purpose, derived from this key with HKDF-SHA-256 (RFC 5869): `info` names the purpose
   * (and whatever it is bound to, e.g. an account and a key version), so each purpose gets a key of its own and
   * none of them reveals this one.
   */
  deriveKey(info: string): Buffer {
    return derive(this.key, info);
  }

  /** deriveKey's key from the current key first (it seals), then the other's (it still opens). */
  deriveKeys(info: string): DerivedKeys {
    return this.other ? [derive(this.key, info), derive(this.other, info)] : [derive(this.key, info)];
  }

  open(sealed: string): string {
    const opened = this.openTelling(sealed);
    if (!opened) throw new Error('the sealed secret opens under no key of this process');
    return opened.plaintext;
  }

  /**
   * A value sealed under the other key, sealed again under the current one; undefined when it is sealed under the
   * current key already. Throws when it opens under neither.
   */
  reseal(sealed: string): string | undefined {
    const opened = this.openTelling(sealed);
    if (!opened) throw new Error('the sealed secret opens under no key of this process');
    return opened.underCurrent ? undefined : this.seal(opened.plaintext);
  }

  /** Whether a value opens under either key (without answering what it holds). */
  opens(sealed: string): boolean {
    return this.openTelling(sealed) !== undefined;
  }

  private openTelling(sealed: string): { plaintext: string; underCurrent: boolean } | undefined {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    for (const key of this.other ? [this.key, this.other] : [this.key]) {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return {
          plaintext: Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8'),
          underCurrent: key === this.key,
        };
      } catch {
        // The tag did not authenticate under this key: try the next.
      }
    }
    return undefined;
  }
}

/** Derived keys of one purpose: the first seals, every one opens (the second during a rotation). */
export type DerivedKeys = readonly [Buffer, ...Buffer[]];

const derive = (key: Buffer, info: string): Buffer => Buffer.from(hkdfSync('sha256', key, 'payment-gateway derived key v1', info, 32));

/** 32 bytes from base64 or 64 hex characters; the error names the setting, never the value. */
function decodeSecretsKey(encoded: string, setting: string): Buffer {
  const text = encoded.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new RangeError(`${setting} must be 32 bytes, as base64 or 64 hex characters`);
  return key;
}

/** A key's fingerprint for one purpose: HMAC-SHA-256 of a fixed text, base64url. It says whether two keys are equal, not what they are. */
export const keyFingerprint = (key: Buffer | string, purpose: string): string =>
  createHmac('sha256', key).update(`payment-gateway key fingerprint v1 ${purpose}`).digest('base64url');
