import { describe, expect, it } from '@jest/globals';
import { PurchaseAdapter } from '../../server/providers/families/transactionsApi/platforms/purchase.js';
import { AXISBANK } from '../../server/providers/members/axisbank.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { providerHarness, transactionInput } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = `Basic ${Buffer.from('sk_axis:').toString('base64')}`;
const create = (runtime: AdapterRuntime) => new PurchaseAdapter(AXISBANK, runtime);
transactionsApiConformance(AXISBANK, { keys: { publicKey: 'pk_axis', secretKey: 'sk_axis' }, authHeaders: { authorization: AUTH }, create, ownBodies: true });

describe('AXISBANK bodies (spec doc 2 §7; research F10)', () => {
  const h = providerHarness({ create, account: () => ({ publicKey: 'pk_axis', secretKey: 'sk_axis' }) });

  it('purchases by POST /transactions/v2/purchase with the customer, the responsible fields, the URLs and the currency', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transactions/v2/purchase',
      headers: { authorization: AUTH },
      body: {
        amount: 1990,
        paymentMethod: 'PIX',
        description: 'Curso',
        customer: { name: 'Ana Souza', email: 'ana@example.com', document: '12345678909', phone: '11987654321' },
        ...{ postbackUrl: h.ctx.notificationUrl, referrerUrl: 'https://loja.example/p/1', checkoutUrl: 'https://loja.example/checkout' },
        ...{ responsibleDocument: '98765432100', responsibleExternalId: 'user-9', externalId: 'order-77', currency: 'BRL' },
        fingerPrint: [{ provider: 'konduto', value: 'fp-1' }],
      },
      reply: { body: { id: 'ax_1', status: 'waiting_payment', amount: 1990, paymentMethod: 'pix', pix: { qrcode: '000201' } } },
    });
    const urls = { referrerUrl: 'https://loja.example/p/1', checkoutUrl: 'https://loja.example/checkout' };
    const input = transactionInput({
      ...urls,
      description: 'Curso',
      userDocument: '987.654.321-00',
      userId: 'user-9',
      fingerPrints: [{ provider: 'konduto', value: 'fp-1' }],
    });
    expect(await h.adapter.createTransaction(h.ctx, input)).toMatchObject({ transactionId: 'ax_1', status: 'PENDING', pixCode: '000201' });
  });

  it('pays out by POST /withdraws/cash-out with the key, its type and the bank fields of the receiving account', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/withdraws/cash-out',
      body: {
        amount: 5000,
        pixType: 'CPF',
        pixKey: '12345678909',
        name: 'Ana Souza',
        document: '12345678909',
        institution: '341',
        bankAgency: '0001',
        bankAccount: '12345-6',
      },
      reply: { body: { id: 'wd_ax', status: 'processing', amount: 5000 } },
    });
    const bankAccount = {
      bankCode: '341',
      branchNumber: '0001',
      accountNumber: '12345-6',
      accountHolder: 'Ana Souza',
      accountDocument: '123.456.789-09',
      accountType: 'checking',
    };
    expect((await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 5000, pixKey: '123.456.789-09', pixType: 'CPF', bankAccount })).status).toBe(
      'PENDING',
    );
  });
});
