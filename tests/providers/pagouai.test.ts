import { describe, expect, it } from '@jest/globals';
import { PAGOUAI } from '../../server/providers/members/pagouai.js';
import {
  PagouaiAdapter,
  pagouaiV2ChargeRequest,
  pagouaiV2RefundRequest,
  toPagouaiV2Charge,
  toPagouaiV2Refund,
} from '../../server/providers/pagouai/adapter.js';
import { FAILURE_PREFIXES } from '../../server/lib/providerMessages.js';
import { absent } from '../support/fakeProvider.js';
import { bareTransactionInput, failure, itRefusesGarbageAnswers, notification, providerHarness, transactionInput } from './conformance/harness.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';
import { expectBodiesOf } from './requestSchemas.js';

// Research (official docs): Authorization: Bearer sk_live_…. The default dialect is the specification's, on PAGOUAI's own adapter.
transactionsApiConformance(PAGOUAI, {
  keys: { publicKey: 'pk_pagou', secretKey: 'sk_live_pagou' },
  authHeaders: { authorization: 'Bearer sk_live_pagou' },
  create: (runtime) => new PagouaiAdapter(PAGOUAI, runtime),
});

describe('PAGOUAI (spec doc 3, group 3)', () => {
  it('refunds by POST /transactions/{id}/refund with the provider message on failure (§7, §8: no fixed text)', () => {
    expect(PAGOUAI.capabilities.refunds).toBe(true);
    expect(PAGOUAI.paths).toBeUndefined();
    expect(PAGOUAI.failures).toBeUndefined();
  });

  it('maps the statuses of its official material (pending, processing, paid, refunded, expired) and authorized APPROVED (§4)', () => {
    expect(['pending', 'processing', 'paid', 'refunded', 'expired', 'authorized'].map((s) => statusOf(PAGOUAI, s))).toEqual([
      ...['PENDING', 'PENDING', 'APPROVED'],
      ...['REFUNDED', 'REJECTED', 'APPROVED'],
    ]);
  });
});

/**
 * api_version v2: Pagou.ai's own public API (developer.pagou.ai), the
 * expectations written from its documentation: POST /v2/transactions with
 * method/buyer/products in cents, `{success, requestId, data}` answers, GET
 * /v2/transactions/{id}, PUT /v2/transactions/{id}/refund with an
 * Idempotency-Key, problem+json failures, the `{id, event: 'transaction',
 * data{…}}` webhook envelope.
 */
describe('PAGOUAI api_version v2 (Pagou.ai public API)', () => {
  const h = providerHarness({ create: (runtime) => new PagouaiAdapter(PAGOUAI, runtime), account: () => ({ publicKey: '', secretKey: 'sk_live_pagou' }) });
  const v2 = () => ({ ...h.ctx, apiVersion: 'v2' });
  const AUTH = { authorization: 'Bearer sk_live_pagou' };
  const PIX_CODE = '00020101021226830014br.gov.bcb.pix2558example.com/pix/33f8fcb95204000053039865802BR5921PAGOU6008SaoPaulo62070503***6304D17A';
  const BUYER = { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', document: { type: 'CPF', number: '12345678909' } };
  const transaction = (extra: object = {}) => ({
    id: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
    status: 'pending',
    method: 'pix',
    amount: 1990,
    base_price: 1990,
    currency: 'BRL',
    pix: { qr_code: PIX_CODE, expiration_date: '2025-03-11T12:00:00.000Z', receipt_url: null },
    created_at: '2025-03-10T12:00:00.000Z',
    paid_at: null,
    ...extra,
  });
  const envelope = (data: object) => ({ success: true, requestId: 'req_1201', data });

  it('is offered beside the default, the specification', () => {
    expect(h.adapter.apiVersions).toEqual(['specification', 'v2']);
  });

  it('creates a PIX charge by POST /v2/transactions at the host root (method, buyer, products in cents, notify_url) and reads its BR Code', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/transactions',
      headers: AUTH,
      body: {
        external_ref: 'order-77',
        amount: 1990,
        currency: 'BRL',
        method: 'pix',
        notify_url: h.ctx.notificationUrl,
        buyer: BUYER,
        products: [{ name: 'Curso', price: 1990, quantity: 1, tangible: false, sku: 'sku-1' }],
      },
      reply: { status: 201, body: envelope(transaction()) },
    });
    // The account's base is the specification's `…/v1`: v2 is at the host's root all the same.
    const created = await h.adapter.createTransaction({ ...v2(), baseUrl: `${h.fake.url}/v1` }, transactionInput());
    expect(created).toMatchObject({
      paymentMethod: 'PIX',
      transactionId: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
      status: 'PENDING',
      amount: 1990,
      pixCode: PIX_CODE,
      expiresAt: new Date('2025-03-11T12:00:00.000Z'),
    });
    expect(created.pixQrCode).toBeUndefined();
  });

  it('charges a boleto as method voucher with the buyer address; its lines come from the answer or a later read', async () => {
    const address = { zipCode: '01001-000', address: 'Praça da Sé', number: '1', district: 'Sé', city: 'São Paulo', state: 'SP' };
    h.fake.expect({
      method: 'POST',
      path: '/v2/transactions',
      body: (body) => {
        const b = body as { method?: string; buyer?: { address?: object } };
        return (
          b.method === 'voucher' &&
          JSON.stringify(b.buyer?.address) ===
            JSON.stringify({ street: 'Praça da Sé', number: '1', neighborhood: 'Sé', city: 'São Paulo', state: 'SP', zipCode: '01001000', country: 'BR' })
        );
      },
      reply: { status: 201, body: envelope(transaction({ id: 'tr-boleto', method: 'voucher', pix: null, voucher: null })) },
    });
    await expect(h.adapter.createTransaction(v2(), transactionInput({ paymentMethod: 'BILLET', address }))).resolves.toMatchObject({
      paymentMethod: 'BILLET',
      transactionId: 'tr-boleto',
      status: 'PENDING',
    });
    const voucher = {
      barcode: '23793381286000000000000000000000000000000000',
      digitable_line: '23793.38128 60000.000000 00000.000000 0 00000000000000',
      url: 'https://pay.example/b/1',
      expiration_date: '2025-03-13T12:00:00.000Z',
    };
    h.fake.expect({
      method: 'GET',
      path: '/v2/transactions/tr-boleto',
      headers: AUTH,
      reply: { body: envelope(transaction({ id: 'tr-boleto', method: 'voucher', pix: null, voucher })) },
    });
    await expect(h.adapter.getTransaction(v2(), 'tr-boleto')).resolves.toMatchObject({
      paymentMethod: 'BILLET',
      billetCode: voucher.digitable_line,
      billetUrl: voucher.url,
      expiresAt: new Date(voucher.expiration_date),
    });
  });

  it('charges a card by its Pagou.ai token (pgct_), with installments; any other card reference is refused before sending', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/transactions',
      body: (body) => {
        const b = body as { method?: string; token?: string; installments?: number };
        return b.method === 'credit_card' && b.token === 'pgct_abc' && b.installments === 3;
      },
      reply: { status: 201, body: envelope(transaction({ id: 'tr-card', method: 'credit_card', status: 'captured', pix: null })) },
    });
    await expect(
      h.adapter.createTransaction(v2(), transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'pgct_abc', installments: 3 })),
    ).resolves.toMatchObject({
      paymentMethod: 'CREDIT_CARD',
      status: 'APPROVED',
    });
    await expect(h.adapter.createTransaction(v2(), transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_other' }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(h.fake.received).toHaveLength(1);
  });

  it('refuses a charge without a buyer before sending (the API requires buyer)', async () => {
    await expect(h.adapter.createTransaction(v2(), bareTransactionInput())).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(0);
  });

  it("keeps the provider's problem+json message (its detail) under the spec's prefix", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/transactions',
      reply: {
        status: 422,
        body: {
          type: 'https://api.pagou.ai/problems/validation-error',
          title: 'Validation Error',
          status: 422,
          detail: 'The request contains invalid data.',
          errors: [{ field: 'buyer.document.number', message: 'Invalid document number', code: 'invalid_string' }],
        },
      },
    });
    await expect(failure(h.adapter.createTransaction(v2(), transactionInput()))).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: The request contains invalid data.`,
    });
  });

  it('reads GET /v2/transactions/{id} with its documented statuses (paid, partially_refunded, authorized not final, chargedback)', async () => {
    const cases: Array<[string, string]> = [
      ['paid', 'APPROVED'],
      ['partially_refunded', 'APPROVED'],
      ['authorized', 'PENDING'],
      ['three_ds_required', 'PENDING'],
      ['refunded', 'REFUNDED'],
      ['chargedback', 'CHARGEBACK'],
      ['expired', 'REJECTED'],
      ['canceled', 'CANCELED'],
    ];
    for (const [status, expected] of cases) {
      h.fake.expect({ method: 'GET', path: '/v2/transactions/tr-1', headers: AUTH, reply: { body: envelope(transaction({ status })) } });
      await expect(h.adapter.getTransaction(v2(), 'tr-1')).resolves.toMatchObject({ transactionId: 'tr-1', status: expected });
    }
  });

  it('refunds by PUT /v2/transactions/{id}/refund {amount} with the Idempotency-Key; the whole charge omits the amount', async () => {
    h.fake.expect({
      method: 'PUT',
      path: '/v2/transactions/tr-1/refund',
      headers: { ...AUTH, 'idempotency-key': 'refund-key-1' },
      body: { amount: 500 },
      reply: { body: { success: true, requestId: 'req_1202', data: { transaction_id: 'tr-1', status: 'partially_refunded', refunded_amount: 500 } } },
    });
    await expect(h.adapter.refoundTransaction(v2(), 'tr-1', 500, 'refund-key-1')).resolves.toEqual({ refundId: 'tr-1', status: true });
    h.fake.expect({
      method: 'PUT',
      path: '/v2/transactions/tr-2/refund',
      headers: { 'idempotency-key': absent },
      body: {},
      reply: { body: { success: true, data: { transaction_id: 'tr-2', status: 'processing' } } },
    });
    await expect(h.adapter.refoundTransaction(v2(), 'tr-2', 0)).resolves.toEqual({ refundId: 'tr-2', status: true, pending: true });
  });

  it("fails a refused refund (409 problem) with the provider's detail", async () => {
    h.fake.expect({
      method: 'PUT',
      path: '/v2/transactions/tr-1/refund',
      reply: {
        status: 409,
        body: {
          type: 'https://api.pagou.ai/problems/conflict',
          title: 'Conflict',
          status: 409,
          detail: 'The transaction cannot be refunded in its current state.',
        },
      },
    });
    const refused = await failure(h.adapter.refoundTransaction(v2(), 'tr-1', 500, 'k'));
    expect(refused.message).toBe(`${FAILURE_PREFIXES.REFUND_TRANSACTION}: The transaction cannot be refunded in its current state.`);
  });

  it('reads the payment webhook envelope by data.status, keyed by the event id; other envelopes and garbage are ignored', async () => {
    const event = (eventType: string, status: string, id = 'evt_pay_1001') => ({
      id,
      event: 'transaction',
      api_version: 'v1',
      data: { id: 'tr_1001', event_type: eventType, correlation_id: 'order-77', method: 'pix', status, amount: 1990, currency: 'BRL' },
    });
    await expect(h.adapter.processWebhook(v2(), notification(event('transaction.paid', 'paid')))).resolves.toEqual({
      type: 'TRANSACTION',
      transactionId: 'tr_1001',
      status: 'APPROVED',
    });
    await expect(h.adapter.processWebhook(v2(), notification(event('transaction.refunded', 'refunded', 'evt_2')))).resolves.toMatchObject({
      status: 'REFUNDED',
    });
    const payout = {
      id: 'evt_payout_1001',
      type: 'payout.transferred',
      api_version: 'v2',
      data: { object: { id: 'po_1001', status: 'paid', type: 'pix', amount: 1200 } },
    };
    for (const ignored of [payout, 'not json', { event: 'transaction', data: { id: 'tr_1001' } }])
      await expect(h.adapter.processWebhook(v2(), notification(ignored))).resolves.toBeUndefined();
    expect(h.adapter.notificationKey(v2(), notification(event('transaction.paid', 'paid')))).toBe('event:evt_pay_1001');
    expect(h.adapter.verifyNotification(v2(), notification(event('transaction.paid', 'paid')))).toBe('unsigned');
  });

  it('builds the body as a pure function: the phone and document as digits, CNPJ inferred', () => {
    const body = toPagouaiV2Charge(
      transactionInput({
        customer: { name: 'Loja', email: 'l@x.com', document: '11.222.333/0001-81', phone: '' },
        orderId: undefined,
        customerIp: '203.0.113.5',
      }),
      { notificationUrl: 'https://hooks.example/pagouai' },
    );
    expect(body.buyer).toEqual({ name: 'Loja', email: 'l@x.com', document: { type: 'CNPJ', number: '11222333000181' } });
    expect([body.external_ref, body.ip_address]).toEqual([undefined, '203.0.113.5']);
  });

  it('builds bodies of its v2 request schemas (the documented create and refund)', () => {
    const terms = { notificationUrl: 'https://hooks.example/pagouai' };
    const address = { address: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zipCode: '01001-000' };
    expectBodiesOf(pagouaiV2ChargeRequest, [
      toPagouaiV2Charge(transactionInput({ customerIp: '203.0.113.5' }), terms),
      toPagouaiV2Charge(transactionInput({ paymentMethod: 'BILLET', items: [], address }), terms),
      toPagouaiV2Charge(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'pgct_abc', installments: 3 }), terms),
    ]);
    expectBodiesOf(pagouaiV2RefundRequest, [toPagouaiV2Refund(500), toPagouaiV2Refund(0)]);
  });

  // A bad answer (wrong types, missing fields, HTML) is UNAVAILABLE under the operation's prefix, never a status.
  itRefusesGarbageAnswers(h, [
    ['createTransaction', 'POST /v2/transactions', () => h.adapter.createTransaction(v2(), transactionInput())],
    ['getTransaction', 'GET /v2/transactions/tr-1', () => h.adapter.getTransaction(v2(), 'tr-1')],
    ['refoundTransaction', 'PUT /v2/transactions/tr-1/refund', () => h.adapter.refoundTransaction(v2(), 'tr-1', 500, 'k')],
  ]);
});
