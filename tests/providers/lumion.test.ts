import { describe, expect, it } from '@jest/globals';
import { LUMION } from '../../server/providers/members/lumion.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// No public material: the family's Basic auth, the secret key as user and 'x' as password.
transactionsApiConformance(LUMION, {
  keys: { publicKey: 'pk_lumion', secretKey: 'sk_lumion' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_lumion:x').toString('base64')}` },
});

describe('LUMION (spec doc 3, group 3)', () => {
  it('offers PIX, card and boleto on the family paths, without refunds or payouts (§7)', () => {
    expect(LUMION.capabilities).toEqual({ paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], webhooks: true });
    expect(LUMION.paths).toBeUndefined();
  });

  it("reads doc 3's common pattern (§4): authorized is APPROVED, unknown REJECTED", () => {
    expect([statusOf(LUMION, 'authorized'), statusOf(LUMION, 'unheard_of')]).toEqual(['APPROVED', 'REJECTED']);
  });
});
