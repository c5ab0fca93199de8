import { describe, expect, it } from '@jest/globals';
import type { TransactionInput } from '../../server/domain/types.js';
import { ARKAMA, ArkamaAdapter, arkamaOrderRequest, toArkamaOrder } from '../../server/providers/arkama/adapter.js';
import { FAILURE_PREFIXES } from '../../server/lib/providerMessages.js';
import {
  NOW,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';

/** ARKAMA (spec doc 2, group 1): its API as public integrations use it (research and stored public code). */

const AUTH = { authorization: 'Bearer ark-token', 'user-agent': 'payment-gateway/1' };
const PIX_CODE = '00020101021226830014br.gov.bcb.pix2561pix.arkama.com.br/qr/v2/cobv/5f2a520400005303986540519.905802BR6304ABCD';
const DAY_MS = 86_400_000;

const ADDRESS = { zipCode: '01310-100', address: 'Avenida Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP' };

/** A charge with everything Arkama requires: customer, items, address and the buyer's IP. */
const order = (extra: Partial<TransactionInput> = {}): TransactionInput =>
  transactionInput({
    items: [
      { id: 'sku-1', title: 'Curso', unitPrice: 1490, quantity: 1, tangible: false },
      { id: 'sku-2', title: 'Apostila', unitPrice: 250, quantity: 2, tangible: true },
    ],
    address: ADDRESS,
    customerIp: '203.0.113.7',
    ...extra,
  });

const ORDER_BODY = {
  paymentMethod: 'pix',
  value: 19.9,
  customer: { name: 'Ana Souza', email: 'ana@example.com', document: '12345678909', cellphone: '5511987654321' },
  items: [
    { title: 'Curso', quantity: 1, unitPrice: 14.9, isDigital: true },
    { title: 'Apostila', quantity: 2, unitPrice: 2.5, isDigital: false },
  ],
  shipping: {
    address: { cep: '01310100', city: 'São Paulo', state: 'SP', street: 'Avenida Paulista', neighborhood: 'Bela Vista', number: '1000', complement: '' },
  },
  ip: '203.0.113.7',
  externalRef: 'order-77',
};

describe('ARKAMA (spec doc 2, group 1), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new ArkamaAdapter(ARKAMA, runtime), account: () => ({ publicKey: '', secretKey: 'ark-token' }) });

  it('offers PIX orders, their read and their status webhooks; the rest is not implemented; the token is required', async () => {
    expect(ARKAMA.identity.defaultBaseUrl).toBe('https://app.arkama.com.br/api/v1');
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect((await failure(h.adapter.createTransaction(h.ctx, order({ paymentMethod: 'CREDIT_CARD' })))).message).toBe('Payment method not supported by ARKAMA');
  });

  it("builds bodies of its request schema (the adapter's wire section)", () => {
    const toReais = (cents: number) => cents / 100;
    const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '' };
    expectBodiesOf(arkamaOrderRequest, [
      toArkamaOrder(order(), toReais),
      toArkamaOrder(order({ orderId: undefined, idempotencyKey: 'idem-1', customer }), toReais),
    ]);
  });

  it('creates the order by POST /orders with the caller’s customer, items, address and IP, in reais, Bearer and User-Agent; valid 1 day', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/orders',
      headers: { ...AUTH, 'content-type': /^application\/json/ },
      body: ORDER_BODY,
      reply: { body: { id: 'OREKNLFMQCTF', status: 'PENDING', value: '19.90', pix: { payload: PIX_CODE } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, order())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'OREKNLFMQCTF', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('reads an answer under `data`; one without a status has just been created (PENDING); externalRef falls back to the idempotency key', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/orders',
      body: { ...ORDER_BODY, externalRef: 'idem-5' },
      reply: { body: { data: { id: 'ORD2', pix: { payload: PIX_CODE } } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, order({ orderId: undefined, idempotencyKey: 'idem-5' }))).toMatchObject({
      transactionId: 'ORD2',
      status: 'PENDING',
      amount: 1990,
    });
  });

  it('sends no cellphone when the customer has none (nothing is invented)', async () => {
    const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '' };
    h.fake.expect({
      method: 'POST',
      path: '/orders',
      body: { ...ORDER_BODY, customer: { name: 'Ana Souza', email: 'ana@example.com', document: '12345678909' } },
      reply: { body: { id: 'ORD3', pix: { payload: PIX_CODE } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, order({ customer }))).toMatchObject({ transactionId: 'ORD3' });
  });

  it.each([
    ['transaction.customer', { customer: undefined }],
    ['transaction.items', { items: [] }],
    ['transaction.address', { address: undefined }],
    ['transaction.customer_ip', { customerIp: '  ' }],
  ] as Array<[string, Partial<TransactionInput>]>)('refuses, before sending anything, a charge without %s', async (field, missing) => {
    const refusal = failure(h.adapter.createTransaction(h.ctx, order(missing)));
    await expect(refusal).resolves.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(new RegExp(`^${field.replace('.', '\\.')} is required for ARKAMA orders`)),
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it("keeps Arkama's refusal under the spec's prefix", async () => {
    h.fake.expect({ method: 'POST', path: '/orders', reply: { status: 422, body: { message: 'O campo shipping.address.cep é inválido.' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, order()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: O campo shipping.address.cep é inválido.',
    });
  });

  it.each([
    ['PAID', 'APPROVED'],
    ['PENDING', 'PENDING'],
    ['PROCESSING', 'PENDING'],
    ['IN_ANALYSIS', 'PENDING'],
    ['UNDEFINED', 'PENDING'],
    ['CANCELED', 'CANCELED'],
    ['REFUSED', 'REJECTED'],
    ['REFUNDED', 'REFUNDED'],
    ['CHARGEDBACK', 'CHARGEBACK'],
    ['PRE_CHARGEDBACK', 'CHARGEBACK'],
    ['IN_DISPUTE', 'CHARGEBACK'],
    ['MYSTERY', 'REJECTED'],
  ])('reads GET /orders/{id}: %s is %s', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/orders/OREKNLFMQCTF', headers: AUTH, reply: { body: { id: 'OREKNLFMQCTF', status, value: 19.9 } } });
    expect(await h.adapter.getTransaction(h.ctx, 'OREKNLFMQCTF')).toEqual({
      paymentMethod: 'PIX',
      transactionId: 'OREKNLFMQCTF',
      status: expected,
      amount: 1990,
    });
    expect(h.warn).toHaveBeenCalledTimes(status === 'MYSTERY' ? 1 : 0);
  });

  it('reads an order under `data` too', async () => {
    h.fake.expect({ method: 'GET', path: '/orders/ORD2', reply: { body: { data: { id: 'ORD2', status: 'PAID', value: '5.00' } } } });
    expect(await h.adapter.getTransaction(h.ctx, 'ORD2')).toEqual({ paymentMethod: 'PIX', transactionId: 'ORD2', status: 'APPROVED', amount: 500 });
  });

  describe('answers that are not the resource', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /orders', () => h.adapter.createTransaction(h.ctx, order())],
      ['getTransaction', 'GET /orders/OREKNLFMQCTF', () => h.adapter.getTransaction(h.ctx, 'OREKNLFMQCTF')],
    ]);

    it('an order without its PIX payload is UNAVAILABLE, naming the field', async () => {
      h.fake.expect({ method: 'POST', path: '/orders', reply: { body: { id: 'ORD4', status: 'PENDING', pix: {} } } });
      expect(await failure(h.adapter.createTransaction(h.ctx, order()))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao criar transação: resposta do provedor em formato inesperado (pix.payload: esperado string)',
      });
    });

    it.each([
      ['an id that is an object', { id: { v: 1 }, status: 'PENDING', pix: { payload: PIX_CODE } }, 'id: invalid_union'],
      ['a status that is a number', { id: 'ORD5', status: 7, pix: { payload: PIX_CODE } }, 'status: esperado string'],
      ['a value that is not an amount', { id: 'ORD5', value: 'dez reais', pix: { payload: PIX_CODE } }, 'value: invalid_format'],
    ])('a created order with %s is UNAVAILABLE', async (_label, body, field) => {
      h.fake.expect({ method: 'POST', path: '/orders', reply: { body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, order()))).toEqual({
        code: 'UNAVAILABLE',
        message: `Erro ao criar transação: resposta do provedor em formato inesperado (${field})`,
      });
    });

    it.each([
      ['without its status', { id: 'ORD6', value: 5 }],
      ['without its value', { id: 'ORD6', status: 'PAID' }],
      ['with a status that is an object', { id: 'ORD6', status: { name: 'PAID' }, value: 5 }],
      ['as an HTML page under data', { data: '<html></html>' }],
    ])('a read order %s is UNAVAILABLE, never a status', async (_label, body) => {
      h.fake.expect({ method: 'GET', path: '/orders/ORD6', reply: { body } });
      const { code, message } = await failure(h.adapter.getTransaction(h.ctx, 'ORD6'));
      expect([code, message.startsWith(`${FAILURE_PREFIXES.GET_TRANSACTION}: resposta do provedor em formato inesperado (`)]).toEqual(['UNAVAILABLE', true]);
    });
  });

  describe('webhooks', () => {
    const changed = (status: string, extra: object = {}) => ({
      event: 'ORDER_STATUS_CHANGED',
      data: { id: 'OREKNLFMQCTF', status, value: '19.90', paymentMethod: 'PIX', ...extra },
    });

    it.each([
      ['PAID', 'APPROVED'],
      ['CANCELED', 'CANCELED'],
      ['REFUNDED', 'REFUNDED'],
      ['CHARGEDBACK', 'CHARGEBACK'],
    ])('an ORDER_STATUS_CHANGED to %s is the charge %s', async (status, expected) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(changed(status)))).toEqual({
        type: 'TRANSACTION',
        transactionId: 'OREKNLFMQCTF',
        status: expected,
      });
    });

    it('ignores other events, bodies without an order id or status, and what it cannot parse', async () => {
      for (const body of [
        { ...changed('PAID'), event: 'ORDER_CREATED' },
        { data: changed('PAID').data },
        changed('PAID', { id: undefined }),
        changed(' '),
        { event: 'ORDER_STATUS_CHANGED', data: 'PAID' },
        'not json',
      ])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    /** Arkama's postback format 2.0.0 (arkama.readme.io/reference/arkama-postback-v2): "ORDER_" + the status, the order under data.order, the cart beside it. */
    const postback = (status: string, extra: { event?: string; order?: object } = {}) => ({
      token: 'account-postback-token',
      event: extra.event ?? `ORDER_${status}`,
      data: {
        cart: { id: 'CTQ7W2', status: 'FINISHED', items: [{ quantity: 1, unitPrice: '19.90' }], customer: { name: 'Ana Souza', document: '12345678909' } },
        order: {
          id: 'ORQ7W2X',
          status,
          value: '19.90',
          total_value: '19.90',
          paymentMethod: 'PIX',
          externalRef: 'order-77',
          pix: { payload: PIX_CODE },
          ...extra.order,
        },
      },
    });

    it.each([
      ['PAID', 'APPROVED'],
      ['REFUNDED', 'REFUNDED'],
      ['CHARGEDBACK', 'CHARGEBACK'],
      ['REFUSED', 'REJECTED'],
    ])("reads Arkama's documented postback 2.0.0: ORDER_%s is the charge %s", async (status, expected) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(postback(status)))).toEqual({
        type: 'TRANSACTION',
        transactionId: 'ORQ7W2X',
        status: expected,
      });
      expect(h.adapter.notificationKey(h.ctx, notification(postback(status)))).toBe(`transaction:ORQ7W2X:${status.toLowerCase()}`);
    });

    it("ignores a cart's postback, an event that does not name its order's status, and an order without id or status", async () => {
      for (const body of [
        { ...postback('PAID'), event: 'CART_FINISHED' },
        postback('PAID', { event: 'ORDER_REFUNDED' }),
        postback('PAID', { order: { id: undefined } }),
        postback('PAID', { order: { status: undefined } }),
        { token: 'account-postback-token', event: 'ORDER_PAID', data: { cart: postback('PAID').data.cart } },
      ])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it('is unsigned (none is documented), so the gateway confirms it by the read; keyed by order and status', () => {
      const paid = notification(changed('PAID'));
      expect(h.adapter.verifyNotification({ ...h.ctx, webhookSecret: 'whsec' }, paid)).toBe('unsigned');
      expect(h.adapter.supports('getTransaction')).toBe(true);
      expect(h.adapter.notificationKey(h.ctx, paid)).toBe('transaction:OREKNLFMQCTF:paid');
      expect(h.adapter.notificationKey(h.ctx, notification('not json'))).toMatch(/^sha256:/);
    });
  });
});
