import { describe, expect, it } from '@jest/globals';
import { PIXIUM } from '../../server/providers/members/pixium.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

transactionsApiConformance(PIXIUM, {
  keys: { publicKey: 'pk_pixium', secretKey: 'sk_pixium_1' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_pixium_1:x').toString('base64')}` },
});

describe('PIXIUM (spec doc 2, group 2)', () => {
  it('registers under its spec id and needs no expiry of its own: the spec gives it the defaults (PIX 1 day, boleto 3 days)', () => {
    expect(PIXIUM.identity.id).toBe('PIXIUM');
    expect(PIXIUM.expiry).toBeUndefined();
  });

  it("shares PAGUESAFE's and HORIZONBANK's fixed refund text, 'Internal server error' (§8)", () => {
    expect(PIXIUM.failures?.refoundTransaction).toBe('INTERNAL_SERVER_ERROR');
  });

  it('has no status exceptions in the spec: refunded is REFUNDED, chargedback CHARGEBACK', () => {
    expect(PIXIUM.statuses).toBeUndefined();
    expect([statusOf(PIXIUM, 'refunded'), statusOf(PIXIUM, 'chargedback')]).toEqual(['REFUNDED', 'CHARGEBACK']);
  });
});
