import { describe, expect, it } from '@jest/globals';
import { DOC3_COMMON_OVERRIDES } from '../../server/providers/families/transactionsApi/index.js';
import { PAYROYAL } from '../../server/providers/members/payroyal.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// No public material: the family's Basic secret key and 'x'.
transactionsApiConformance(PAYROYAL, {
  keys: { publicKey: 'pk_pr', secretKey: 'sk_pr' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_pr:x').toString('base64')}` },
});

describe('PAYROYAL (spec doc 3, group 3)', () => {
  it('creates, reads and refunds on the family paths; cards by POST /cards/tokenize then POST /cards (§7); PIX 1 day, boleto 3 days (§9)', () => {
    expect(PAYROYAL.paths).toEqual({ cardToken: '/cards/tokenize', cardSave: '/cards' });
    expect(PAYROYAL.capabilities).toMatchObject({ refunds: true, cardTokens: true, savedCards: true });
    expect(PAYROYAL.capabilities.withdrawMethods).toBeUndefined();
    expect(PAYROYAL.expiry).toBeUndefined();
  });

  it("follows doc 3's common pattern (§4), unknown REJECTED", () => {
    expect(PAYROYAL.statuses?.transaction?.overrides).toBe(DOC3_COMMON_OVERRIDES);
    expect(['authorized', 'created', 'in_dispute', 'mystery'].map((s) => statusOf(PAYROYAL, s))).toEqual(['APPROVED', 'PENDING', 'CHARGEBACK', 'REJECTED']);
  });
});
