import { describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { CATALOGUE, braviveApiErrorMessage } from '../../server/lib/providerMessages.js';
import {
  BRAVIVE,
  BraviveAdapter,
  bravivePaymentRequest,
  braviveWithdrawRequest,
  toBravivePayment,
  toBraviveWithdraw,
} from '../../server/providers/bravive/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import {
  NOW,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

/** BRAVIVE (spec doc 3, group 3): PIX and billet charges, PIX payouts, their reads and notifications. */

const AUTH = { authorization: 'Bearer brv_sk_1' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136bravive-qr5204000053039865406019.905802BR5907BRAVIVE6009SAO PAULO62070503***6304ABCD';
const WITHDRAWAL: WithdrawInput = { paymentMethod: 'PIX', amount: 1050, pixKey: 'c873834c-ed18-4e63-8e5d-90190392b744', pixType: 'RANDOM' };
const DAY_MS = 86_400_000;

describe('BRAVIVE (spec doc 3, group 3), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new BraviveAdapter(BRAVIVE, runtime), account: () => ({ publicKey: '', secretKey: 'brv_sk_1' }) });

  it('offers PIX and billet charges, PIX payouts, their reads and notifications; the rest (card tokens, saved cards, refunds, receivers) is not implemented', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
  });

  it('a card charge, a bank-account or receiver payout are refused before anything is sent (§5, §8)', async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })))).toEqual(
      CATALOGUE.CREDIT_CARD_NOT_IMPLEMENTED,
    );
    for (const paymentMethod of ['BANK_ACCOUNT', 'RECEIVER'] as const)
      expect(await failure(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, paymentMethod }))).toEqual(CATALOGUE.WITHDRAW_METHOD_NAO_IMPLEMENTADO);
    expect(h.fake.received).toHaveLength(0);
  });

  it("requires its secret key: 'Bravive secretKey is required' at the door and before any call (§5)", async () => {
    const message = 'Bravive secretKey is required';
    expect(() => h.adapter.checkAccount({ publicKey: 'pk', secretKey: ' ' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: 'brv_sk_1' })).not.toThrow();
    expect(await failure(h.adapter.getTransaction({ ...h.ctx, secretKey: '' }, 'p1'))).toEqual({ code: 'FAILED_PRECONDITION', message });
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    const address = { address: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zipCode: '01001-000' };
    const terms = { amount: 1990, webhookUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(bravivePaymentRequest, [
      toBravivePayment(transactionInput({ description: 'Pedido 42', address }), terms),
      toBravivePayment(bareTransactionInput({ paymentMethod: 'BILLET' }), terms),
    ]);
    expectBodiesOf(
      braviveWithdrawRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toBraviveWithdraw({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType }, { amount: 2500 })),
    );
  });

  it('creates a PIX payment by POST /payments with Bearer, cents, payer_* and addr_* fields and webhook_url; valid the default day', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      headers: AUTH,
      body: {
        ...{ amount: 1990, currency: 'BRL', description: 'Pedido 42', method: 'PIX', webhook_url: h.ctx.notificationUrl, custom_id: 'order-77' },
        ...{ payer_name: 'Ana Souza', payer_email: 'ana@example.com', payer_document: '12345678909', payer_phone: '11987654321' },
        ...{ addr_street: 'Rua A', addr_number: '10', addr_district: 'Centro', addr_city: 'São Paulo', addr_state: 'SP', addr_zipcode: '01001000' },
      },
      reply: { status: 201, body: { id: 'pay_1', method: 'PIX', status: 'PENDING', pix_code: PIX_CODE, pix_qr_code: 'data:image/png;base64,AAAA' } },
    });
    const address = { address: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zipCode: '01001-000' };
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Pedido 42', address }))).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'pay_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('creates a billet (method BILLET) valid the default 3 days, answered with its line and URL', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      body: { amount: 1990, currency: 'BRL', method: 'BILLET', webhook_url: h.ctx.notificationUrl },
      reply: { body: { data: { id: 'pay_2', method: 'BILLET', status: 'pending', amount: 1990, billet_code: '34191.09008', billet_url: 'https://b/2' } } },
    });
    const input = transactionInput({ paymentMethod: 'BILLET', customer: undefined, orderId: undefined });
    expect(await h.adapter.createTransaction(h.ctx, input)).toEqual({
      ...{ paymentMethod: 'BILLET', transactionId: 'pay_2', status: 'PENDING', amount: 1990, billetCode: '34191.09008', billetUrl: 'https://b/2' },
      expiresAt: new Date(NOW.getTime() + 3 * DAY_MS),
    });
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['approved', 'APPROVED'],
    ['paid', 'APPROVED'],
    ['rejected', 'REJECTED'],
    ['canceled', 'REJECTED'],
    ['refunded', 'REFUNDED'],
    ['chargeback', 'CHARGEBACK'],
    ['in_dispute', 'CHARGEBACK'],
    ['on_hold', 'PENDING'],
  ])('GET /payments/{id} answering %s is %s (§4; unknown PENDING for Bravive)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', headers: AUTH, reply: { body: { id: 'pay_1', method: 'PIX', status, amount: 1990 } } });
    expect(await h.adapter.getTransaction(h.ctx, 'pay_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'pay_1', status: expected, amount: 1990 });
  });

  it('pays out by POST /withdraws {amount (cents), currency, description, pix_key, pix_key_type}, RANDOM sent as EVP (§5)', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/withdraws',
      headers: AUTH,
      body: { amount: 1050, currency: 'BRL', description: 'Saque solicitado', pix_key: WITHDRAWAL.pixKey, pix_key_type: 'EVP' },
      reply: { body: { id: 'wd_1', status: 'processing', amount: 1050 } },
    });
    expect(await h.adapter.withdraw(h.ctx, WITHDRAWAL)).toEqual({ withdrawId: 'wd_1', status: 'PENDING', amount: 1050 });
  });

  it.each([
    ['pending', 'PENDING'],
    ['in_dispute', 'PENDING'],
    ['completed', 'APPROVED'],
    ['refunded', 'REJECTED'],
    ['chargeback', 'REJECTED'],
    ['canceled', 'REJECTED'],
    ['odd_status', 'REJECTED'],
  ])('GET /withdraws/{id} answering %s is %s (§4: refunded, chargeback and odd statuses REJECTED, in_dispute PENDING)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/withdraws/wd_1', headers: AUTH, reply: { body: { id: 'wd_1', status, amount: 1050 } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'wd_1')).toEqual({ withdrawId: 'wd_1', status: expected, amount: 1050 });
  });

  it("fails with 'Bravive API Error' and the provider's message, '(Withdraw)' and '(Get Withdraw)' for payouts (§8)", async () => {
    const refused = { status: 422, body: { message: 'Saldo insuficiente' } };
    h.fake.expect({ method: 'POST', path: '/payments', reply: refused });
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', reply: refused });
    h.fake.expect({ method: 'POST', path: '/withdraws', reply: refused });
    h.fake.expect({ method: 'GET', path: '/withdraws/wd_1', reply: refused });
    const messages = [
      await failure(h.adapter.createTransaction(h.ctx, transactionInput())),
      await failure(h.adapter.getTransaction(h.ctx, 'pay_1')),
      await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL)),
      await failure(h.adapter.getWithdraw(h.ctx, 'wd_1')),
    ].map((error) => error.message);
    expect(messages).toEqual([
      'Bravive API Error: Saldo insuficiente',
      'Bravive API Error: Saldo insuficiente',
      'Bravive API Error (Withdraw): Saldo insuficiente',
      'Bravive API Error (Get Withdraw): Saldo insuficiente',
    ]);
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a 2xx answered with %s is UNAVAILABLE, never a charge, a payout or a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body } });
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', reply: { body } });
    h.fake.expect({ method: 'POST', path: '/withdraws', reply: { body } });
    h.fake.expect({ method: 'GET', path: '/withdraws/wd_1', reply: { body } });
    const codes = [
      await failure(h.adapter.createTransaction(h.ctx, transactionInput())),
      await failure(h.adapter.getTransaction(h.ctx, 'pay_1')),
      await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL)),
      await failure(h.adapter.getWithdraw(h.ctx, 'wd_1')),
    ].map((error) => error.code);
    expect(codes).toEqual(['UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE']);
  });

  it.each([
    ['a read without its amount (never an amount of 0)', 'GET', '/payments/pay_1', { id: 'pay_1', status: 'paid' }],
    ['a read whose amount is no amount', 'GET', '/payments/pay_1', { id: 'pay_1', status: 'paid', amount: 'dezenove' }],
    ['a read whose status is not text', 'GET', '/payments/pay_1', { id: 'pay_1', status: 3, amount: 1990 }],
    ['a payout whose amount is no amount', 'POST', '/withdraws', { id: 'wd_1', status: 'processing', amount: '10,50' }],
    ['a payout read whose id is an object', 'GET', '/withdraws/wd_1', { id: { value: 'wd_1' }, status: 'completed', amount: 1050 }],
  ])('%s is UNAVAILABLE, never a status and never INTERNAL', async (_label, method, path, body) => {
    h.fake.expect({ method, path, reply: { body } });
    const call =
      path === '/withdraws'
        ? h.adapter.withdraw(h.ctx, WITHDRAWAL)
        : path.startsWith('/withdraws')
          ? h.adapter.getWithdraw(h.ctx, 'wd_1')
          : h.adapter.getTransaction(h.ctx, 'pay_1');
    expect((await failure(call)).code).toBe('UNAVAILABLE');
  });

  it('a PIX payment answered without its code is UNAVAILABLE: nobody could pay it', async () => {
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body: { id: 'pay_1', status: 'PENDING' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: braviveApiErrorMessage('resposta do provedor sem código PIX'),
    });
  });

  describe('notifications: the documented on_transaction_* and on_withdraw_* events, {event, data: {id, status}}', () => {
    it.each([
      ['on_transaction_updated with its status', { event: 'on_transaction_updated', data: { id: 'pay_1', status: 'paid' } }, 'APPROVED'],
      ['on_transaction_approved without a status', { event: 'on_transaction_approved', data: { id: 'pay_1' } }, 'APPROVED'],
      ['on_transaction_chargeback', { event: 'on_transaction_chargeback', data: { id: 'pay_1' } }, 'CHARGEBACK'],
      ['on_transaction_refunded', { event: 'on_transaction_refunded', data: { id: 'pay_1' } }, 'REFUNDED'],
      ['on_transaction_canceled', { event: 'on_transaction_canceled', data: { id: 'pay_1' } }, 'REJECTED'],
    ])('%s is a TRANSACTION', async (_label, body, status) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: 'pay_1', status });
    });

    it('on_withdraw_* events are WITHDRAW results through the payout table', async () => {
      const body = { event: 'on_withdraw_updated', data: { id: 'wd_1', status: 'refunded' } };
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'WITHDRAW', transactionId: 'wd_1', status: 'REJECTED' });
    });

    it.each([
      ['an undocumented event', { event: 'payment.paid', data: { id: 'pay_1', status: 'paid' } }],
      ['a created event without a status', { event: 'on_transaction_created', data: { id: 'pay_1' } }],
      ['an event without an id', { event: 'on_transaction_approved', data: { status: 'paid' } }],
      ['no event name', { data: { id: 'pay_1', status: 'paid' } }],
      ['a status that is not text', { event: 'on_transaction_updated', data: { id: 'pay_1', status: 2 } }],
      ['not JSON', '{not json'],
    ])('%s is ignored', async (_label, body) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it("is unsigned; keyed by the event's id where it has one, else by kind, id and status", () => {
      const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
      expect(h.adapter.verifyNotification(h.ctx, notification({}))).toBe('unsigned');
      expect(key({ id: 'evt_9', event: 'on_transaction_approved', data: { id: 'pay_1' } })).toBe('event:evt_9');
      expect(key({ event: 'on_transaction_approved', data: { id: 'pay_1' } })).toBe('transaction:pay_1:approved');
      expect(key('{not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
    });
  });
});
