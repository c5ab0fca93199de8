import { describe, expect, it } from '@jest/globals';
import { TransactionsApiAdapter } from '../../server/providers/families/transactionsApi/index.js';
import { GATYWAY } from '../../server/providers/members/gatyway.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = `Basic ${Buffer.from('sk_gt:x').toString('base64')}`;
transactionsApiConformance(GATYWAY, { keys: { publicKey: 'pk_gt', secretKey: 'sk_gt' }, authHeaders: { authorization: AUTH } });

describe('GATYWAY (spec doc 2, group 2)', () => {
  const h = providerHarness({ create: (runtime) => new TransactionsApiAdapter(GATYWAY, runtime), account: () => ({ publicKey: 'pk_gt', secretKey: 'sk_gt' }) });

  it("refuses a boleto with 'Unsupported payment method' (§8)", async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Unsupported payment method',
    });
  });

  it('tokenises a card by POST /card-token (§7)', async () => {
    h.fake.expect({ method: 'POST', path: '/card-token', headers: { authorization: AUTH }, reply: { body: { id: 'ctk_1' } } });
    expect(
      await h.adapter.createCardToken(h.ctx, {
        cardNumber: '4111111111111111',
        holderName: 'ANA SOUZA',
        holderDocument: '',
        expMonth: '01',
        expYear: '31',
        cvv: '321',
      }),
    ).toBe('ctk_1');
  });

  it('pays out by POST /transfers (§7)', () => {
    expect(GATYWAY.paths?.withdraw).toBe('/transfers');
  });
});
