import { describe, expect, it } from '@jest/globals';
import { TransactionsApiAdapter } from '../../server/providers/families/transactionsApi/index.js';
import { NEWLEVEL } from '../../server/providers/members/newlevel.js';
import { failure, providerHarness } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = `Basic ${Buffer.from('sk_nl:x').toString('base64')}`;
transactionsApiConformance(NEWLEVEL, { keys: { publicKey: 'pk_nl', secretKey: 'sk_nl' }, authHeaders: { authorization: AUTH } });

describe('NEWLEVEL (spec doc 2, group 2)', () => {
  const h = providerHarness({
    create: (runtime) => new TransactionsApiAdapter(NEWLEVEL, runtime),
    account: () => ({ publicKey: 'pk_nl', secretKey: 'sk_nl' }),
  });
  const payout = { paymentMethod: 'PIX' as const, amount: 5000, pixKey: '+55 11 98765-4321', pixType: 'PHONE' as const };

  it('keeps a PIX charge 2 days (§9)', () => {
    expect(NEWLEVEL.expiry).toEqual({ pixSeconds: 172_800 });
  });

  it("withdraws by POST /cashout (§7); a payout answered REFUSED is the error 'Error on withdraw' (§5, §8)", async () => {
    h.fake.expect({ method: 'POST', path: '/cashout', headers: { authorization: AUTH }, reply: { body: { id: 'co_1', status: 'REFUSED', amount: 5000 } } });
    expect(await failure(h.adapter.withdraw(h.ctx, payout))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Error on withdraw' });
    expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: 'NEWLEVEL', operation: 'withdraw' }), 'withdraw failed');
  });

  it("answers any payout failure at the provider with 'Error on withdraw', keeping the outage's code", async () => {
    h.fake.expect({ method: 'POST', path: '/cashout', reply: { status: 503, body: { message: 'manutenção' } } });
    expect(await failure(h.adapter.withdraw(h.ctx, payout))).toEqual({ code: 'UNAVAILABLE', message: 'Error on withdraw' });
  });
});
