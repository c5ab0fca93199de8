import { describe, expect, it } from '@jest/globals';
import { TransactionsApiAdapter } from '../../server/providers/families/transactionsApi/index.js';
import { KUBERFINANCE } from '../../server/providers/members/kuberfinance.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const keys = { publicKey: 'pk_kuber', secretKey: 'sk_kuber' };
// No public material: the family's Basic auth, the secret key as user and 'x' as password.
transactionsApiConformance(KUBERFINANCE, { keys, authHeaders: { authorization: `Basic ${Buffer.from('sk_kuber:x').toString('base64')}` } });

describe('KUBERFINANCE (spec doc 3, group 3)', () => {
  const h = providerHarness({ create: (runtime) => new TransactionsApiAdapter(KUBERFINANCE, runtime), account: () => keys });

  it("refunds by DELETE /transactions/{id}, a failure being 'Failed to refund transaction.' (§7, §8)", async () => {
    h.fake.expect({ method: 'DELETE', path: '/transactions/kb_1', body: { amount: 700 }, reply: { status: 409, body: { message: 'already refunded' } } });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'kb_1', 700))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Failed to refund transaction.' });
  });

  it('answers a new PIX charge PENDING whatever the answer says (§4); a card charge keeps its status', async () => {
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'kb_2', status: 'approved', pix: { qrcode: '000201' } } } });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({ transactionId: 'kb_2', status: 'PENDING', pixCode: '000201' });
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'kb_3', status: 'authorized' } } });
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card_1' });
    expect((await h.adapter.createTransaction(h.ctx, card)).status).toBe('APPROVED');
  });
});
