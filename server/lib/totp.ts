import { createHmac, randomBytes } from 'node:crypto';
import { safeEqualText } from './constantTime.js';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 30-second steps from the Unix epoch,
 * 6 digits, as every authenticator app reads an otpauth:// URI without parameters.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one: a phone's clock a little off, or a code typed as it changed. */
const WINDOW = 1;
const SECRET_BYTES = 20;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, without padding (authenticator apps take it bare). */
export function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 4648 base32 as a person may type it: any case, spaces and padding ignored; throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) throw new RangeError('not a base32 text');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226's HOTP of one counter value, with its dynamic truncation. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);

/** The code of the step holding `nowMs`. */
export function totpCode(secret: Buffer, nowMs: number, digits = TOTP_DIGITS): string {
  return hotp(secret, totpStep(nowMs), digits);
}

/**
 * The step a code matches within the window, or undefined. Only steps after `lastStep` count, so a code accepted once
 * (or one older than it) is refused: an overheard code cannot be replayed. Every candidate is compared, in constant time,
 * so the answer's timing does not say which step matched.
 */
export function matchTotp(secret: Buffer, code: string, nowMs: number, lastStep = -1): number | undefined {
  const typed = code.replace(/\s/g, '');
  if (!/^\d+$/.test(typed) || typed.length !== TOTP_DIGITS) return undefined;
  const current = totpStep(nowMs);
  let matched: number | undefined;
  for (let step = current - WINDOW; step <= current + WINDOW; step += 1) {
    if (safeEqualText(hotp(secret, step), typed) && step > lastStep && matched === undefined) matched = step;
  }
  return matched;
}

/** A new random secret (RFC 4226 recommends 160 bits, SHA-1's output length). */
export const newTotpSecret = (): Buffer => randomBytes(SECRET_BYTES);

/** The otpauth:// URI authenticator apps read from a QR code (the Key Uri Format Google Authenticator defined). */
export function otpauthUri(secret: Buffer, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?secret=${base32Encode(secret)}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_SECONDS}`;
}
