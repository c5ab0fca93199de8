import { describe, expect, it } from '@jest/globals';
import { createRegistry } from '../../server/providers/catalog.js';
import { CASHTIME } from '../../server/providers/members/cashtime.js';
import { REFLOWPAY } from '../../server/providers/members/reflowpay.js';
import { notification } from './conformance/harness.js';
import { cashtimeConformance } from './conformance/cashtime.suite.js';

// ReflowPay v1 (research G-A): Cashtime's API, the secret key in x-authorization-key.
const h = cashtimeConformance(REFLOWPAY, { keys: { publicKey: 'pk_reflow', secretKey: 'sk_reflow_1' }, authHeaders: { 'x-authorization-key': 'sk_reflow_1' } });

describe('REFLOWPAY (spec doc 2, group 2)', () => {
  it('reads infraction as APPROVED, its own row of doc 2 §4 (docs/decisions.md), where CASHTIME reads CHARGEBACK', async () => {
    h.fake.expect({ method: 'GET', path: '/details/orders/ord_1', reply: { body: { id: 'ord_1', status: 'infraction', amount: 1990 } } });
    expect((await h.adapter.getTransaction(h.ctx, 'ord_1')).status).toBe('APPROVED');
    expect(await h.adapter.processWebhook(h.ctx, notification({ id: 'ord_1', status: 'INFRACTION' }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'ord_1',
      status: 'APPROVED',
    });
    expect(CASHTIME.statuses?.transaction?.overrides).toEqual({ infraction: 'CHARGEBACK' });
  });

  it('reads its payouts back by GET /request/withdraw/{id} (§7), on the same API as CASHTIME', async () => {
    h.fake.expect({
      method: 'GET',
      path: '/request/withdraw/wd_9',
      headers: { 'x-authorization-key': 'sk_reflow_1' },
      reply: { body: { id: 'wd_9', status: 'paid', amount: 2500 } },
    });
    expect(await h.adapter.getWithdraw(h.ctx, 'wd_9')).toEqual({ withdrawId: 'wd_9', amount: 2500, status: 'APPROVED' });
    expect([REFLOWPAY.auth, REFLOWPAY.money, REFLOWPAY.paths]).toEqual([CASHTIME.auth, CASHTIME.money, CASHTIME.paths]);
  });

  it('is registered in the catalogue, case-insensitively', async () => {
    expect((await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('reflowpay')?.identity.id).toBe('REFLOWPAY');
  });
});
