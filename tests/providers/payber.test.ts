import { describe, expect, it } from '@jest/globals';
import { DOC3_COMMON_OVERRIDES, TransactionsApiAdapter } from '../../server/providers/families/transactionsApi/index.js';
import { PAYBER } from '../../server/providers/members/payber.js';
import { failure, providerHarness } from './conformance/harness.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// No public material: the family's Basic secret key and 'x'.
const KEYS = { publicKey: 'pk_pb', secretKey: 'sk_pb' };
transactionsApiConformance(PAYBER, { keys: KEYS, authHeaders: { authorization: `Basic ${Buffer.from('sk_pb:x').toString('base64')}` } });

describe('PAYBER (spec doc 3, group 3)', () => {
  const h = providerHarness({ create: (runtime) => new TransactionsApiAdapter(PAYBER, runtime), account: () => KEYS });

  it("rejects a withdrawal with its own 'Withdraw method not implemented' (§8), sending nothing", async () => {
    expect(h.adapter.supports('withdraw')).toBe(false);
    expect(await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.co', pixType: 'EMAIL' }))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Withdraw method not implemented',
    });
    expect(h.adapter.notOffered('withdraw').message).toBe('Withdraw method not implemented');
    expect(await failure(h.adapter.getWithdraw(h.ctx, 'wd_1'))).toEqual({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
    expect(h.fake.received).toHaveLength(0);
  });

  it('creates, reads and refunds on the family paths; cards by POST /cards/tokenize then POST /cards (§7); PIX 1 day, boleto 3 days (§9)', () => {
    expect(PAYBER.paths).toEqual({ cardToken: '/cards/tokenize', cardSave: '/cards' });
    expect(PAYBER.capabilities).toMatchObject({ refunds: true, cardTokens: true, savedCards: true });
    expect(PAYBER.expiry).toBeUndefined();
  });

  it("follows doc 3's common pattern (§4), unknown REJECTED", () => {
    expect(PAYBER.statuses?.transaction?.overrides).toBe(DOC3_COMMON_OVERRIDES);
    expect(['approved', 'pending', 'in_protest', 'mystery'].map((s) => statusOf(PAYBER, s))).toEqual(['APPROVED', 'PENDING', 'CHARGEBACK', 'REJECTED']);
  });
});
