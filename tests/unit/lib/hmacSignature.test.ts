import { describe, expect, it } from '@jest/globals';
import { signTimestampedBody, timestampedSignature, verifySignatureHeader, verifyTimestampedSignature } from '../../../server/lib/hmacSignature.js';

const SECRET = 'whsec-unit';
const BODY = '{"id":"evt_1","type":"charge.paid"}';
const T = 1_800_000_000;
const at = (seconds: number) => ({ receivedAt: seconds * 1000 });

describe('timestamped signatures', () => {
  it('signs "t.body" and carries the timestamp in the header', () => {
    expect(timestampedSignature(SECRET, BODY, T)).toBe(`t=${T},v1=${signTimestampedBody(SECRET, T, BODY)}`);
    expect(verifyTimestampedSignature(SECRET, timestampedSignature(SECRET, BODY, T), Buffer.from(BODY), at(T))).toEqual({ valid: true, timestamp: T });
  });

  it('refuses a signature older than five minutes (a replay) or more than five minutes ahead', () => {
    const header = timestampedSignature(SECRET, BODY, T);
    expect(verifyTimestampedSignature(SECRET, header, BODY, at(T + 300)).valid).toBe(true);
    expect(verifyTimestampedSignature(SECRET, header, BODY, at(T + 301))).toEqual({ valid: false, reason: 'expired' });
    expect(verifyTimestampedSignature(SECRET, header, BODY, at(T - 300)).valid).toBe(true);
    expect(verifyTimestampedSignature(SECRET, header, BODY, at(T - 301))).toEqual({ valid: false, reason: 'from the future' });
    expect(verifyTimestampedSignature(SECRET, header, BODY, { ...at(T + 60), toleranceSeconds: 30 })).toEqual({ valid: false, reason: 'expired' });
  });

  it('measures the age against the real clock by default', () => {
    expect(verifyTimestampedSignature(SECRET, timestampedSignature(SECRET, BODY), BODY).valid).toBe(true);
    expect(verifyTimestampedSignature(SECRET, timestampedSignature(SECRET, BODY, Math.floor(Date.now() / 1000) - 600), BODY)).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('refuses a moved timestamp, another body, another secret and malformed headers', () => {
    const v1 = signTimestampedBody(SECRET, T, BODY);
    expect(verifyTimestampedSignature(SECRET, `t=${T + 1},v1=${v1}`, BODY, at(T))).toEqual({ valid: false, reason: 'mismatch' });
    expect(verifyTimestampedSignature(SECRET, `t=${T},v1=${v1}`, `${BODY} `, at(T))).toEqual({ valid: false, reason: 'mismatch' });
    expect(verifyTimestampedSignature('other', `t=${T},v1=${v1}`, BODY, at(T))).toEqual({ valid: false, reason: 'mismatch' });
    expect(verifyTimestampedSignature(SECRET, undefined, BODY, at(T))).toEqual({ valid: false, reason: 'missing' });
    for (const header of [`v1=${v1}`, `t=${T}`, `t=abc,v1=${v1}`, `t=${T},t=${T},v1=${v1}`, `t=-${T},v1=${v1}`, 'garbage']) {
      expect(verifyTimestampedSignature(SECRET, header, BODY, at(T))).toEqual({ valid: false, reason: 'malformed' });
    }
  });

  it('accepts any matching v1 (secret rotation)', () => {
    const header = `t=${T},v1=${signTimestampedBody('old', T, BODY)},v1=${signTimestampedBody(SECRET, T, BODY)}`;
    expect(verifyTimestampedSignature(SECRET, header, BODY, at(T)).valid).toBe(true);
  });

  it("reads the signature under another name where a provider chooses one (EzzeBank's `t=…,vsign=…`)", () => {
    const signed = (timestamp: string) => `${timestamp}.${BODY}`;
    const header = `t=${T},vsign=${signTimestampedBody(SECRET, T, BODY)}`;
    expect(verifySignatureHeader(SECRET, header, signed, { ...at(T), signatureKey: 'vsign' })).toEqual({ valid: true, timestamp: T });
    // Under the default name the same header carries no signature at all.
    expect(verifySignatureHeader(SECRET, header, signed, at(T))).toEqual({ valid: false, reason: 'malformed' });
  });
});
