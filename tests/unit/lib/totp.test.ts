import { describe, expect, it } from '@jest/globals';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totpCode } from '../../../server/lib/totp.js';

const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP', () => {
  it("matches RFC 6238's SHA-1 test vectors (Appendix B), in 8 digits and in the 6 the gateway uses", () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) {
      expect(totpCode(RFC_SEED, seconds * 1000, 8)).toBe(code);
      expect(totpCode(RFC_SEED, seconds * 1000)).toBe(code.slice(2));
    }
  });

  it("matches RFC 4226's HOTP values (Appendix D)", () => {
    expect([0, 1, 2, 9].map((counter) => hotp(RFC_SEED, counter))).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('accepts one step either side, refuses two, and refuses a step at or before the last one accepted', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now), now)).toBe(step);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now - 60_000), now)).toBeUndefined();
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now + 60_000), now)).toBeUndefined();
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now), now, step)).toBeUndefined();
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now - 30_000), now, step - 1)).toBeUndefined();
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now + 30_000), now, step)).toBe(step + 1);
    expect(matchTotp(RFC_SEED, ` ${totpCode(RFC_SEED, now).replace(/^(...)/, '$1 ')} `, now)).toBe(step);
    expect(matchTotp(RFC_SEED, '', now)).toBeUndefined();
    expect(matchTotp(RFC_SEED, 'abcdef', now)).toBeUndefined();
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, now, 8), now)).toBeUndefined();
  });

  it("round-trips base32 and matches RFC 4648's test vectors", () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow('not a base32 text');
    for (let i = 0; i < 50; i += 1) {
      const secret = newTotpSecret();
      expect(secret).toHaveLength(20);
      expect(base32Decode(base32Encode(secret))).toEqual(secret);
    }
  });

  it('writes the otpauth URI authenticator apps read, with issuer and account in the label', () => {
    expect(otpauthUri(RFC_SEED, 'Payment Gateway', 'ana@example.com')).toBe(
      'otpauth://totp/Payment%20Gateway:ana%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Payment%20Gateway&algorithm=SHA1&digits=6&period=30',
    );
  });
});
