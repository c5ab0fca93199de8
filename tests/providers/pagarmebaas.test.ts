import { describe, expect, it } from '@jest/globals';
import { createRegistry } from '../../server/providers/catalog.js';
import { OrdersApiAdapter } from '../../server/providers/families/ordersApi/index.js';
import { PAGARMEBAAS } from '../../server/providers/members/pagarmebaas.js';
import { failure, providerHarness } from './conformance/harness.js';
import { ordersApiConformance } from './conformance/ordersApi.suite.js';

const SECRET_KEY = 'sk_test_4f9c2b';
/** Pagar.me's basic auth: the secret key as user, an empty password. */
const AUTHORIZATION = `Basic ${Buffer.from(`${SECRET_KEY}:`).toString('base64')}`;

ordersApiConformance(PAGARMEBAAS, { keys: { publicKey: 'pk_test_8a1d7e', secretKey: SECRET_KEY }, authorization: AUTHORIZATION });

describe('PAGARMEBAAS (spec doc 2, group 2)', () => {
  const h = providerHarness({ create: (runtime) => new OrdersApiAdapter(PAGARMEBAAS, runtime), account: () => ({ publicKey: 'pk', secretKey: SECRET_KEY }) });
  const withdrawal = { paymentMethod: 'RECEIVER' as const, amount: 10_000, description: 'Saque de R$ 100,00' };

  it('dues its boletos in 5 days (§9) and keeps PIX at the default day', () => {
    expect(PAGARMEBAAS.expiry).toEqual({ boletoSeconds: 5 * 86_400 });
  });

  it("withdraws from the platform's default recipient (the account's platform_id) when the input names none", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/recipients/re_platform/withdrawals',
      headers: { authorization: AUTHORIZATION },
      body: { amount: 10_000 },
      reply: { body: { id: 'tran_w2', amount: 10_000, status: 'transferred', updated_at: '2026-03-10T12:30:00Z' } },
    });
    expect(await h.adapter.withdraw({ ...h.ctx, platformId: 're_platform' }, withdrawal)).toEqual({
      withdrawId: 'tran_w2',
      amount: 10_000,
      status: 'APPROVED',
      approvedAt: new Date('2026-03-10T12:30:00Z'),
    });
  });

  it('refuses a withdrawal when neither the input nor the account names a recipient, before calling', async () => {
    expect(await failure(h.adapter.withdraw(h.ctx, withdrawal))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/^withdraw\.receiver_id is required/),
    });
  });

  it('is registered in the catalogue, case-insensitively', async () => {
    expect((await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('pagarmebaas')?.identity.id).toBe('PAGARMEBAAS');
  });
});
