import { describe, expect, it } from '@jest/globals';
import {
  PurchaseAdapter,
  publicPurchaseRequest,
  purchaseCreditCard,
  toPublicPurchase,
  toPurchase,
} from '../../server/providers/families/transactionsApi/platforms/purchase.js';
import { AXISBANK } from '../../server/providers/members/axisbank.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = `Basic ${Buffer.from('sk_axis:').toString('base64')}`;
const create = (runtime: AdapterRuntime) => new PurchaseAdapter(AXISBANK, runtime);
/** The purchase platform's documented `creditCard` (AxisBanking's Create Transaction) for the suite's card. */
const OPENED_CARD_BODY = { creditCard: { number: '4111111111111111', holder: 'ANA SOUZA', expMonth: '01', expYear: '2031', cvv: '321', installments: 2 } };
transactionsApiConformance(AXISBANK, {
  keys: { publicKey: 'pk_axis', secretKey: 'sk_axis' },
  authHeaders: { authorization: AUTH },
  create,
  ownBodies: true,
  openedCardBody: OPENED_CARD_BODY,
});

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

  const OPENED = { cardNumber: '4111 1111 1111 1111', holderName: 'ANA SOUZA', holderDocument: '', expMonth: '1', expYear: '31', cvv: '321' };
  const terms = { notificationUrl: 'http://127.0.0.1:9/webhooks/axis', amount: (cents: number) => cents };
  const responsible = { userDocument: '987.654.321-00', userId: 'user-9' };

  it("builds bodies of its documented schemas: the creditCard either way, the public purchase (AxisBanking's Create Transaction)", () => {
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'gct_v1.sealed', card: OPENED, installments: 3, ...responsible });
    const savedCard = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card_9' });
    expectBodiesOf(purchaseCreditCard, [toPurchase(card, terms).creditCard, toPurchase(savedCard, terms).creditCard]);
    expect(toPurchase(card, terms).creditCard).toEqual({
      number: '4111111111111111',
      holder: 'ANA SOUZA',
      expMonth: '01',
      expYear: '2031',
      cvv: '321',
      installments: 3,
    });
    expect(toPurchase(savedCard, terms).creditCard).toEqual({ token: 'card_9', installments: 1 });
    expectBodiesOf(publicPurchaseRequest, [toPublicPurchase(transactionInput(responsible), terms), toPublicPurchase(card, terms)]);
  });

  it('in api_version public, refuses before any call what the documented body requires, and a card id that is no gateway token', async () => {
    const publicCtx = { ...h.ctx, apiVersion: 'public' };
    expect(h.adapter.takesCardData(publicCtx)).toBe(true);
    expect(() => h.adapter.assertCardReference(transactionInput({ ...responsible, userDocument: '' }), publicCtx)).toThrow(
      'transaction.user_document is required for AXISBANK charges in api_version public',
    );
    // The default dialect asks for neither.
    expect(() => h.adapter.assertCardReference(transactionInput({ ...responsible, userDocument: '' }), h.ctx)).not.toThrow();
    expect(await failure(h.adapter.createTransaction(publicCtx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card_9', ...responsible })))).toEqual(
      {
        code: 'INVALID_ARGUMENT',
        message: "AXISBANK's documented purchase (api_version public) takes a card by its own fields only: charge it with a card token made by CreateCardToken",
      },
    );
    expect(h.fake.received).toEqual([]);
  });
});
