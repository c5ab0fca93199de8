import { describe, expect, it } from '@jest/globals';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { ROYALPAY, RoyalpayAdapter } from '../../server/providers/members/royalpay.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const keys = { publicKey: 'pk_royalpay', secretKey: 'sk_live_royalpay' };
const create = (runtime: AdapterRuntime) => new RoyalpayAdapter(ROYALPAY, runtime);
// Research (one unreliable SDK): Bearer sk_live_…. Its payout body is its own (below).
transactionsApiConformance(ROYALPAY, { keys, authHeaders: { authorization: 'Bearer sk_live_royalpay' }, create, ownBodies: true });

describe('ROYALPAY (spec doc 3, group 3)', () => {
  const h = providerHarness({ create, account: () => keys });
  const payout = (pixKey: string, pixType: 'CPF' | 'PHONE' | 'EMAIL' | 'RANDOM') =>
    h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey, pixType });

  it.each([
    ['CPF', '123.456.789-09', '12345678909'],
    ['PHONE', '+55 (11) 98765-4321', '5511987654321'],
    ['EMAIL', 'Ana.Souza@example.com', 'Ana.Souza@example.com'],
    ['RANDOM', '123e4567-e12b-12d1-a456-426655440000', '123e4567-e12b-12d1-a456-426655440000'],
  ] as const)('pays out a %s key by POST /cashout {amount, pix_key, pix_type}, digits only but for EMAIL and RANDOM (§5, §7)', async (type, key, sent) => {
    h.fake.expect({
      method: 'POST',
      path: '/cashout',
      headers: { authorization: 'Bearer sk_live_royalpay' },
      body: { amount: 2500, pix_key: sent, pix_type: type },
      reply: { body: { id: 'rp_wd', status: 'pending', amount: 2500 } },
    });
    expect(await payout(key, type)).toEqual({ withdrawId: 'rp_wd', amount: 2500, status: 'PENDING' });
  });

  it('refuses a payout without a key type before calling', async () => {
    expect(await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'x@y.z' }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(0);
  });

  it('answers new PIX charges and billets PENDING whatever the answer says (§4), with the family charge body', async () => {
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'rp_1', status: 'paid', pix: { qrcode: '000201' } } } });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({ transactionId: 'rp_1', status: 'PENDING' });
    expect(h.fake.received[0]?.body).toMatchObject({ amount: 1990, paymentMethod: 'pix', postbackUrl: h.ctx.notificationUrl });
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'rp_2', boleto: { barcode: '2379' } } } });
    expect((await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' }))).status).toBe('PENDING');
  });
});
