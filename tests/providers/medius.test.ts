import { describe, expect, it } from '@jest/globals';
import { F2Adapter } from '../../server/providers/families/transactionsApi/platforms/f2.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { MEDIUS } from '../../server/providers/members/medius.js';
import { notification, providerHarness } from './conformance/harness.js';
import { F2_BODIES, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const create = (runtime: AdapterRuntime) => new F2Adapter(MEDIUS, runtime);
transactionsApiConformance(MEDIUS, {
  keys: { publicKey: 'pk_md', secretKey: 'sk_md' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_md:x').toString('base64')}` },
  create,
  ...F2_BODIES,
});

describe('MEDIUS (spec doc 2, group 2)', () => {
  const h = providerHarness({ create, account: () => ({ publicKey: 'pk_md', secretKey: 'sk_md' }) });

  it('pays out by POST /withdrawals/cashout with pixkeytype (upper case, as the platform shows it), pixkey, requestedamount (cents) and isPix (§7); refunds are not implemented', async () => {
    expect(MEDIUS.paths).toEqual({ withdraw: '/withdrawals/cashout' });
    expect(MEDIUS.capabilities.refunds).toBeUndefined();
    h.fake.expect({
      method: 'POST',
      path: '/withdrawals/cashout',
      body: { pixkeytype: 'EMAIL', pixkey: 'ana@example.com', requestedamount: 12_345, description: 'Saque', isPix: true, postbackUrl: h.ctx.notificationUrl },
      reply: { body: { id: 'wd_9', status: 'pending', amount: 12_345 } },
    });
    expect(
      await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 12_345, pixKey: 'ana@example.com', pixType: 'EMAIL', description: 'Saque' }),
    ).toEqual({
      withdrawId: 'wd_9',
      amount: 12_345,
      status: 'PENDING',
    });
  });

  it("reads the platform's payout events {event: 'withdrawal.created', withdrawal: {id, status}}", async () => {
    const body = { event: 'withdrawal.created', withdrawal: { id: 'wd_9', requested_amount: 123.45, status: 'paid', pix: { key_type: 'email' } } };
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'WITHDRAW', transactionId: 'wd_9', status: 'APPROVED' });
  });
});
