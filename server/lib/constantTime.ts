import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether two texts are equal, in a time that depends on neither their content
 * nor their lengths: both are hashed first, so the comparison always runs over
 * 32 bytes. For shared secrets a provider echoes in a notification (Cel_Cash's
 * `confirmHash`), where safeEqualHex's hex decoding does not apply.
 */
export function safeEqualText(a: string, b: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
