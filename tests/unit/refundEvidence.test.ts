import { describe, expect, it } from '@jest/globals';
import { refundShownByTotal } from '../../server/domain/refundEvidence.js';

describe("a refund whose outcome is unknown, against the provider's refunded total (issue 32 §2)", () => {
  it('is shown when the total covers what was recorded plus this refund, and nothing else is held', () => {
    expect(refundShownByTotal(4000, { refunded: 0, reserved: 4000 }, 4000)).toBe(true);
    expect(refundShownByTotal(6000, { refunded: 2000, reserved: 4000 }, 4000)).toBe(true);
    // A total beyond it (the provider rounded nothing away, or a refund the gateway released was made): still made.
    expect(refundShownByTotal(7000, { refunded: 2000, reserved: 4000 }, 4000)).toBe(true);
  });

  it('is not shown while the total does not yet cover it', () => {
    expect(refundShownByTotal(0, { refunded: 0, reserved: 4000 }, 4000)).toBe(false);
    expect(refundShownByTotal(2000, { refunded: 2000, reserved: 4000 }, 4000)).toBe(false);
    expect(refundShownByTotal(5999, { refunded: 2000, reserved: 4000 }, 4000)).toBe(false);
  });

  it('is not shown by a total that another refund still held could explain', () => {
    // Another refund of 5000 in flight: a provider total of 5000 may be that one alone.
    expect(refundShownByTotal(5000, { refunded: 0, reserved: 9000 }, 4000)).toBe(false);
    // Two others (1000 and 3000): 4000 may be both of them.
    expect(refundShownByTotal(4000, { refunded: 0, reserved: 8000 }, 4000)).toBe(false);
    // More than all the others together: this one is among those made.
    expect(refundShownByTotal(5001, { refunded: 0, reserved: 9000 }, 4000)).toBe(true);
    expect(refundShownByTotal(9000, { refunded: 0, reserved: 9000 }, 4000)).toBe(true);
  });

  it('proves nothing for a refund of no cents, or of an amount that is not cents', () => {
    expect(refundShownByTotal(4000, { refunded: 0, reserved: 0 }, 0)).toBe(false);
    expect(refundShownByTotal(4000, { refunded: 0, reserved: 4000 }, 40.5)).toBe(false);
  });
});
