import { describe, expect, it } from '@jest/globals';
import { DOC3_COMMON_OVERRIDES } from '../../server/providers/families/transactionsApi/index.js';
import { XITBANK } from '../../server/providers/members/xitbank.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// No public material: the family's Basic secret key and 'x'.
transactionsApiConformance(XITBANK, {
  keys: { publicKey: 'pk_xb', secretKey: 'sk_xb' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_xb:x').toString('base64')}` },
});

describe('XITBANK (spec doc 3, group 3)', () => {
  it('creates, reads and refunds on the family paths (§7); no card tokens (§7 names them for others) and no payout; PIX 1 day, boleto 3 days (§9)', () => {
    expect(XITBANK.paths).toBeUndefined();
    expect(XITBANK.capabilities).toMatchObject({ paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true });
    expect(XITBANK.capabilities).not.toHaveProperty('cardTokens');
    expect(XITBANK.capabilities.withdrawMethods).toBeUndefined();
    expect(XITBANK.expiry).toBeUndefined();
  });

  it("follows doc 3's common pattern (§4), unknown REJECTED", () => {
    expect(XITBANK.statuses?.transaction?.overrides).toBe(DOC3_COMMON_OVERRIDES);
    expect(['completed', 'waiting', 'chargedback', 'mystery'].map((s) => statusOf(XITBANK, s))).toEqual(['APPROVED', 'PENDING', 'CHARGEBACK', 'REJECTED']);
  });
});
