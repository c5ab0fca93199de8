import { describe, expect, it } from '@jest/globals';
import { CATALOGUE } from '../../server/lib/providerMessages.js';
import { createRegistry } from '../../server/providers/catalog.js';
import { IUGUBAAS } from '../../server/providers/members/iugubaas.js';
import { iuguConformance, trigger } from './conformance/iugu.suite.js';

/** Iugu itself (research: "IUGUBAAS = IUGU"): the family's canned answers are its own, so only the account's keys are IUGUBAAS's. */
const h = iuguConformance(IUGUBAAS, { keys: { publicKey: 'A083919DEE244A0FA2705E309B378CD0', secretKey: 'live_4f9c2b8a1d7e' } });

describe('IUGUBAAS (spec doc 2, group 2)', () => {
  it("fails a refund with 'Erro ao aprovar o reembolso.' and a card token with 'Erro salvando cartão' (§8)", () => {
    expect(IUGUBAAS.failures).toEqual({ refoundTransaction: 'REFUND_APPROVAL_FAILED', createCardToken: 'SAVE_CARD_FAILED' });
    expect([CATALOGUE.REFUND_APPROVAL_FAILED.message, CATALOGUE.SAVE_CARD_FAILED.message]).toEqual(['Erro ao aprovar o reembolso.', 'Erro salvando cartão']);
  });

  it('keeps the fixed refund text whatever Iugu answered, with the code of the exchange', async () => {
    h.fake.expect({ method: 'GET', path: '/invoices/INV9', reply: { status: 404, body: { errors: 'Not Found' } } });
    await expect(h.adapter.refoundTransaction(h.ctx, 'INV9', 100)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Erro ao aprovar o reembolso.' });
  });

  it('reads a paid invoice from a real-looking trigger, form-encoded with more fields than it needs (§4)', async () => {
    const body = trigger({
      event: 'invoice.status_changed',
      'data[id]': 'F00D',
      'data[status]': 'paid',
      'data[account_id]': 'A083',
      'data[subscription_id]': '',
    });
    expect(await h.adapter.processWebhook(h.ctx, body)).toEqual({ type: 'TRANSACTION', transactionId: 'F00D', status: 'APPROVED' });
  });

  it("reads the account's balance as Iugu documents it for any account: GET /accounts/{the public key} with its own API token (Informações da Conta)", async () => {
    h.fake.expect({
      method: 'GET',
      path: '/accounts/A083919DEE244A0FA2705E309B378CD0',
      headers: { authorization: `Basic ${Buffer.from('live_4f9c2b8a1d7e:').toString('base64')}` },
      reply: { body: { id: 'A083919DEE244A0FA2705E309B378CD0', balance: 'R$ 2.000,00', balance_available_for_withdraw: 'R$ 1.234,56' } },
    });
    expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: 123_456, currency: 'BRL' });
  });

  it('is Iugu at api.iugu.com/v1: PIX, card and boleto invoices, card tokens, refunds, triggers and the balance; no payouts or receivers (§7)', async () => {
    expect(IUGUBAAS.identity.defaultBaseUrl).toBe('https://api.iugu.com/v1');
    expect(IUGUBAAS.capabilities).toEqual({
      paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
      refunds: true,
      cardTokens: true,
      webhooks: true,
      balances: true,
    });
    expect((await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('iugubaas')?.identity.id).toBe('IUGUBAAS');
  });
});
