import { describe, expect, it } from '@jest/globals';
import { TransactionsApiAdapter } from '../../server/providers/families/transactionsApi/index.js';
import { ORBITA } from '../../server/providers/members/orbita.js';
import { providerHarness, transactionInput } from './conformance/harness.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const keys = { publicKey: 'api_orbita', secretKey: 'sk_orbita' };
// Research (one integration): Basic base64(secretKey:apiKey).
transactionsApiConformance(ORBITA, { keys, authHeaders: { authorization: `Basic ${Buffer.from('sk_orbita:api_orbita').toString('base64')}` } });

describe('ORBITA (spec doc 3, group 3)', () => {
  const h = providerHarness({ create: (runtime) => new TransactionsApiAdapter(ORBITA, runtime), account: () => keys });

  it("fails refunds with 'Internal server error' (§8) and reads authorized as APPROVED (§4)", () => {
    expect(ORBITA.failures).toEqual({ refoundTransaction: 'INTERNAL_SERVER_ERROR' });
    expect(statusOf(ORBITA, 'authorized')).toBe('APPROVED');
  });

  it('answers a new boleto PENDING whatever the answer says, even without a status (§4); a PIX keeps the answer’s status', async () => {
    expect(ORBITA.pendingAtCreation).toEqual(['BILLET']);
    const boleto = transactionInput({ paymentMethod: 'BILLET', amount: 5000, items: [] });
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'bol_9', status: 'paid', boleto: { url: 'https://o.example/b.pdf' } } } });
    expect(await h.adapter.createTransaction(h.ctx, boleto)).toMatchObject({ transactionId: 'bol_9', status: 'PENDING', amount: 5000 });
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'bol_10', boleto: { barcode: '2379' } } } });
    expect(await h.adapter.createTransaction(h.ctx, boleto)).toMatchObject({ transactionId: 'bol_10', status: 'PENDING', billetCode: '2379' });
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'px_1', status: 'paid', pix: { qrcode: '000201' } } } });
    expect((await h.adapter.createTransaction(h.ctx, transactionInput())).status).toBe('APPROVED');
  });
});
