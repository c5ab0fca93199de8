import { describe, expect, it } from '@jest/globals';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { HUNTERPAY, HunterPayAdapter } from '../../server/providers/members/hunterpay.js';
import { partial } from '../support/fakeProvider.js';
import { failure, notification, providerHarness, transactionInput } from './conformance/harness.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = `Basic ${Buffer.from('sk_hunter:').toString('base64')}`;
const keys = { publicKey: 'pk_hunter', secretKey: 'sk_hunter' };
const create = (runtime: AdapterRuntime) => new HunterPayAdapter(HUNTERPAY, runtime);
/** The purchase platform's documented `creditCard` (AxisBanking's Create Transaction) for the suite's card. */
const OPENED_CARD_BODY = { creditCard: { number: '4111111111111111', holder: 'ANA SOUZA', expMonth: '01', expYear: '2031', cvv: '321', installments: 2 } };
transactionsApiConformance(HUNTERPAY, { keys, authHeaders: { authorization: AUTH }, create, ownBodies: true, openedCardBody: OPENED_CARD_BODY });

describe('HUNTERPAY (spec doc 3, group 3)', () => {
  const h = providerHarness({ create, account: () => keys });

  it("purchases by POST /transactions/v2/purchase: the platform's body (AXISBANK's test) with the caller's items (§7)", async () => {
    const items = [{ externalRef: 'sku-1', title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }];
    h.fake.expect({
      method: 'POST',
      path: '/transactions/v2/purchase',
      headers: { authorization: AUTH },
      body: partial({ amount: 1990, paymentMethod: 'PIX', description: 'Curso', items, postbackUrl: h.ctx.notificationUrl }),
      reply: { body: { id: 'hp_1', status: 'waiting_payment', amount: 1990, pix: { qrcode: '000201' } } },
    });
    const result = await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Curso' }));
    expect(result).toMatchObject({ transactionId: 'hp_1', status: 'PENDING', expiresAt: new Date('2025-03-11T12:00:00.000Z') });
  });

  it('charges a card by its token and installments; takes no boleto', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transactions/v2/purchase',
      body: (body) => JSON.stringify((body as { creditCard?: unknown }).creditCard) === JSON.stringify({ token: 'card_1', installments: 2 }),
      reply: { body: { id: 'hp_2', status: 'authorized', amount: 1990, paymentMethod: 'credit_card' } },
    });
    expect((await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card_1', installments: 2 }))).status).toBe(
      'APPROVED',
    );
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).code).toBe('UNIMPLEMENTED');
  });

  it("follows doc 3's common pattern (authorized and confirmed APPROVED, created and pending PENDING); an unknown status changes nothing (PENDING)", async () => {
    expect(['authorized', 'confirmed', 'created', 'pending', 'in_dispute', 'mystery'].map((status) => statusOf(HUNTERPAY, status))).toEqual([
      'APPROVED',
      'APPROVED',
      'PENDING',
      'PENDING',
      'CHARGEBACK',
      'PENDING',
    ]);
    expect(await h.adapter.processWebhook(h.ctx, notification({ id: 'hp_1', status: 'mystery' }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'hp_1',
      status: 'PENDING',
    });
  });

  it('refunds by DELETE /transactions/{id} with the amount (§7)', async () => {
    h.fake.expect({
      method: 'DELETE',
      path: '/transactions/hp_1',
      headers: { authorization: AUTH },
      body: { amount: 700 },
      reply: { body: { id: 'hp_1', status: 'refunded' } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'hp_1', 700)).toEqual({ refundId: 'hp_1', status: true });
  });
});
