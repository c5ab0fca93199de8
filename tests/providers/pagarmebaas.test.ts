import { describe, expect, it } from '@jest/globals';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { createRegistry } from '../../server/providers/catalog.js';
import { PAGARMEBAAS } from '../../server/providers/members/pagarmebaas.js';
import { ordersApiConformance } from './conformance/ordersApi.suite.js';

/** Pagar.me v5 itself: the family's canned answers are its own, so only the account's keys are PAGARMEBAAS's. */
const h = ordersApiConformance(PAGARMEBAAS, { keys: { publicKey: 'pk_test_8a1d7e', secretKey: 'sk_test_4f9c2b' } });

describe('PAGARMEBAAS (spec doc 2, group 2)', () => {
  const withdrawal = { paymentMethod: 'RECEIVER' as const, amount: 10_000, description: 'Saque de R$ 100,00' };
  const account = (platformId?: string) =>
    ({ accountId: 'acc', publicKey: 'pk', secretKey: 'sk', baseUrl: '', notificationUrl: '', platformId }) as AdapterContext;

  it('dues its boletos in 5 days (§9) and keeps PIX at the default day', () => {
    expect(PAGARMEBAAS.expiry).toEqual({ boletoSeconds: 5 * 86_400 });
  });

  it("withdraws from the receiver_id named, else from the platform's default recipient (the account's platform_id), else from none", () => {
    const recipient = PAGARMEBAAS.withdrawalRecipient!;
    expect(recipient(account('re_platform'), { ...withdrawal, receiverId: 're_seller1' })).toBe('re_seller1');
    expect(recipient(account('re_platform'), { ...withdrawal, receiverId: '' })).toBe('re_platform');
    expect(recipient(account(), withdrawal)).toBeUndefined();
  });

  it("takes a withdrawal without receiver_id from the account's platform_id", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/recipients/re_platform/withdrawals',
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

  it("reads the account's balance as Pagar.me v5 documents it: its default recipient's (the platform_id) GET /recipients/{id}/balance", async () => {
    h.fake.expect({
      method: 'GET',
      path: '/recipients/re_platform/balance',
      headers: { authorization: `Basic ${Buffer.from('sk_test_4f9c2b:').toString('base64')}` },
      reply: { body: { currency: 'BRL', available_amount: 150_000, waiting_funds_amount: 20_000, transferred_amount: 0, recipient: { id: 're_platform' } } },
    });
    expect(await h.adapter.getAccountBalance({ ...h.ctx, platformId: 're_platform' })).toEqual({ available: 150_000, pending: 20_000, currency: 'BRL' });
  });

  it('is registered in the catalogue, case-insensitively', async () => {
    expect((await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('pagarmebaas')?.identity.id).toBe('PAGARMEBAAS');
  });
});
