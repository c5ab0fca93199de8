import { describe, expect, it } from '@jest/globals';
import { ROYALTY, RoyaltyAdapter } from '../../server/providers/members/royalty.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

transactionsApiConformance(ROYALTY, {
  keys: { publicKey: 'pk_ry', secretKey: 'sk_ry' },
  authHeaders: { 'x-api-key': 'sk_ry' },
  create: (runtime) => new RoyaltyAdapter(ROYALTY, runtime),
  ownFailureWording: true,
});

/** Only what the family suite cannot know: ROYALTY's words for failures and its formatted CPF. */
describe('ROYALTY (spec doc 2, group 2)', () => {
  const h = providerHarness({ create: (runtime) => new RoyaltyAdapter(ROYALTY, runtime), account: () => ({ publicKey: 'pk_ry', secretKey: 'sk_ry' }) });

  it('reaches /user/transactions paths (§7) and needs the secret key (§5)', async () => {
    expect(ROYALTY.paths).toEqual({
      create: '/user/transactions',
      get: '/user/transactions/{id}',
      refund: { method: 'POST', path: '/user/transactions/{id}/refund' },
    });
    expect(await failure(h.adapter.getTransaction({ ...h.ctx, secretKey: '' }, 'tx_1'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'secretKey is required',
    });
  });

  it('sends an 11-digit CPF formatted ddd.ddd.ddd-dd (§5), and a CNPJ as digits', async () => {
    const documentSent = (number: string) => (body: unknown) => (body as { customer: { document: { number: string } } }).customer.document.number === number;
    const reply = { body: { id: 'ry_1', status: 'waiting_payment', amount: 1990, paymentMethod: 'credit_card' } };
    h.fake.expect({ method: 'POST', path: '/user/transactions', headers: { 'x-api-key': 'sk_ry' }, body: documentSent('123.456.789-09'), reply });
    h.fake.expect({ method: 'POST', path: '/user/transactions', body: documentSent('11222333000181'), reply });
    const card = { paymentMethod: 'CREDIT_CARD' as const, cardId: 'card_1' };
    await h.adapter.createTransaction(h.ctx, transactionInput(card));
    await h.adapter.createTransaction(
      h.ctx,
      transactionInput({ ...card, customer: { name: 'ACME', email: 'a@b.c', document: '11.222.333/0001-81', phone: '' } }),
    );
  });

  it("words a provider's failure 'Royalty <operation> erro <status>: <body>' (§8), keeping the HTTP outcome's code", async () => {
    h.fake.expect({ method: 'GET', path: '/user/transactions/tx_1', reply: { status: 404, body: { message: 'not found' } } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'tx_1'))).toEqual({
      code: 'NOT_FOUND',
      message: 'Royalty getTransaction erro 404: {"message":"not found"}',
    });
    h.fake.expect({ method: 'POST', path: '/user/transactions/tx_1/refund', reply: { status: 500, body: 'boom' } });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'tx_1', 100))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Royalty refoundTransaction erro 500: boom',
    });
  });
});
