import { describe, expect, it } from '@jest/globals';
import { DOC3_COMMON_OVERRIDES } from '../../server/providers/families/transactionsApi/index.js';
import { PLUGGO } from '../../server/providers/members/pluggo.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// No public material: the family's Basic secret key and 'x'.
transactionsApiConformance(PLUGGO, {
  keys: { publicKey: 'pk_pg', secretKey: 'sk_pg' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_pg:x').toString('base64')}` },
});

describe('PLUGGO (spec doc 3, group 3)', () => {
  it('creates, reads and refunds on the family paths; cards by POST /cards/tokenize then POST /cards (§7); PIX 1 day, boleto 3 days (§9)', () => {
    expect(PLUGGO.identity.id).not.toBe('PLUGGOU');
    expect(PLUGGO.paths).toEqual({ cardToken: '/cards/tokenize', cardSave: '/cards' });
    expect(PLUGGO.capabilities).toMatchObject({ refunds: true, cardTokens: true, savedCards: true });
    expect(PLUGGO.capabilities.withdrawMethods).toBeUndefined();
    expect(PLUGGO.expiry).toBeUndefined();
  });

  it("follows doc 3's common pattern (§4), unknown REJECTED", () => {
    expect(PLUGGO.statuses?.transaction?.overrides).toBe(DOC3_COMMON_OVERRIDES);
    expect(['confirmed', 'processing', 'retained', 'mystery'].map((s) => statusOf(PLUGGO, s))).toEqual(['APPROVED', 'PENDING', 'CHARGEBACK', 'REJECTED']);
  });
});
