import { describe, expect, it } from '@jest/globals';
import { BOLETO_DEFAULT_EXPIRY_SECONDS, PIX_DEFAULT_EXPIRY_SECONDS, SECONDS_PER_DAY, brazilDate, expiresAfter, wholeDays } from '../../../server/lib/expiry.js';

const now = new Date('2025-03-10T12:00:00.000Z');

describe('expiry', () => {
  it('has the spec defaults in seconds: PIX 1 day, boleto 3 days', () => {
    expect(PIX_DEFAULT_EXPIRY_SECONDS).toBe(86_400);
    expect(BOLETO_DEFAULT_EXPIRY_SECONDS).toBe(259_200);
  });

  it('counts from the given time, never from the clock', () => {
    expect(expiresAfter(now, PIX_DEFAULT_EXPIRY_SECONDS)).toEqual(new Date('2025-03-11T12:00:00.000Z'));
    expect(expiresAfter(now, 1_800)).toEqual(new Date('2025-03-10T12:30:00.000Z'));
    expect(expiresAfter(now, BOLETO_DEFAULT_EXPIRY_SECONDS)).toEqual(new Date('2025-03-13T12:00:00.000Z'));
  });

  it('gives whole days, at least one, to providers that take days', () => {
    expect(wholeDays(2 * SECONDS_PER_DAY)).toBe(2);
    expect(wholeDays(3_600)).toBe(1);
    expect(wholeDays(1_440 * 60)).toBe(1);
  });
});

describe('brazilDate', () => {
  it("is the calendar day in Brazil (UTC−3), whatever the server's time zone", () => {
    expect(brazilDate(new Date('2025-03-11T02:59:59Z'))).toBe('2025-03-10');
    expect(brazilDate(new Date('2025-03-11T03:00:00Z'))).toBe('2025-03-11');
    expect(brazilDate(new Date('2025-12-31T23:00:00Z'))).toBe('2025-12-31');
  });
});
