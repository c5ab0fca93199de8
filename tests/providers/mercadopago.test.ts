import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { GatewayError } from '../../server/lib/errors.js';
import { CATALOGUE } from '../../server/lib/providerMessages.js';
import { lookupStatus } from '../../server/lib/statusTable.js';
import {
  creditCardMethodOf,
  MERCADOPAGO,
  MERCADOPAGO_REFUND_OUTCOMES,
  MercadoPagoAdapter,
  mercadoPagoFeeOf,
  mercadoPagoIdempotencyKey,
  mercadoPagoPayerAddress,
  mercadoPagoPayment,
  mercadoPagoRefundResult,
} from '../../server/providers/mercadopago/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';

/** MERCADOPAGO (spec doc 2, group 1): its public API (official documentation and SDKs; tests/standins/mercadopago.ts drives it end to end). */

const AUTH = { authorization: 'Bearer APP_USR-token' };
const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PIX_CODE = '00020126580014br.gov.bcb.pix0136mercadopago-qr520400005303986540519.905802BR6304ABCD';
const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza', identification: { type: 'CPF', number: '12345678909' } };
const ADDRESS = { zipCode: '06233-200', address: 'Av. das Nações Unidas', number: '3003', district: 'Bonfim', city: 'Osasco', state: 'sp' };
const PAYER_ADDRESS = {
  zip_code: '06233200',
  street_name: 'Av. das Nações Unidas',
  street_number: '3003',
  neighborhood: 'Bonfim',
  city: 'Osasco',
  federal_unit: 'SP',
};
const BOLETO_LINE = '23790000000000000000000000000000000000000000000';

/** The error a call rejects with, its details included. */
async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('MERCADOPAGO (spec doc 2, group 1), a bespoke adapter on its public API', () => {
  const h = providerHarness({
    create: (runtime) => new MercadoPagoAdapter(MERCADOPAGO, runtime),
    account: () => ({ publicKey: 'APP_USR-public', secretKey: 'APP_USR-token' }),
  });

  it('offers PIX, boleto and card charges, reads, refunds and webhooks; the access token at the door', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'processWebhook', 'calculateInstallments']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual(CATALOGUE.CARD_ID_REQUIRED);
    expect(MERCADOPAGO.evidence?.level).toBe('documented');
  });

  it("PIX: POST /v1/payments in reais, its X-Idempotency-Key derived from the caller's key; the code from point_of_interaction", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      headers: { ...AUTH, 'x-idempotency-key': mercadoPagoIdempotencyKey('payment', h.ctx.accountId, 'idem-42') },
      body: {
        transaction_amount: 19.9,
        payment_method_id: 'pix',
        external_reference: 'order-77',
        notification_url: h.ctx.notificationUrl,
        date_of_expiration: new Date(NOW.getTime() + DAY_MS).toISOString(),
        payer: PAYER,
      },
      reply: {
        status: 201,
        body: {
          id: 1234567890,
          status: 'pending',
          transaction_amount: 19.9,
          point_of_interaction: { transaction_data: { qr_code: PIX_CODE, qr_code_base64: 'iVBORw0KGgo=' } },
        },
      },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ idempotencyKey: 'idem-42' }))).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: '1234567890', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it("the payment's X-Idempotency-Key: the same for the same caller key and account, another for another key or account, fresh without one", async () => {
    const pix = { reply: { body: { id: 1, status: 'pending', transaction_amount: 19.9, point_of_interaction: { transaction_data: { qr_code: PIX_CODE } } } } };
    h.fake.expect({ method: 'POST', path: '/v1/payments', times: 5, ...pix });
    await h.adapter.createTransaction(h.ctx, transactionInput({ idempotencyKey: 'key-á/1' }));
    await h.adapter.createTransaction(h.ctx, transactionInput({ idempotencyKey: 'key-á/1' }));
    await h.adapter.createTransaction(h.ctx, transactionInput({ idempotencyKey: 'key-2' }));
    await h.adapter.createTransaction({ ...h.ctx, accountId: 'another-account' }, transactionInput({ idempotencyKey: 'key-á/1' }));
    await h.adapter.createTransaction(h.ctx, transactionInput());
    const keys = h.fake.received.map((request) => request.headers['x-idempotency-key']!);
    for (const key of keys) expect(key).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(4);
  });

  it("boleto: bolbradesco with the payer's address, the digitable line and the page from transaction_details", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      body: {
        transaction_amount: 19.9,
        payment_method_id: 'bolbradesco',
        external_reference: 'order-77',
        notification_url: h.ctx.notificationUrl,
        date_of_expiration: new Date(NOW.getTime() + 3 * DAY_MS).toISOString(),
        payer: { ...PAYER, address: PAYER_ADDRESS },
      },
      reply: {
        body: {
          id: 2,
          status: 'pending',
          transaction_amount: 19.9,
          transaction_details: { external_resource_url: 'https://mp.example/boleto/2', digitable_line: BOLETO_LINE },
        },
      },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET', address: ADDRESS }))).toEqual({
      ...{ paymentMethod: 'BILLET', transactionId: '2', status: 'PENDING', amount: 1990 },
      ...{ billetCode: BOLETO_LINE, billetUrl: 'https://mp.example/boleto/2', expiresAt: new Date(NOW.getTime() + 3 * DAY_MS) },
    });
  });

  it('boleto: the bar code stands in for a missing digitable line; an answer with neither is not the boleto', async () => {
    const boleto = (details: Record<string, unknown>, barcode?: unknown) => ({
      id: 3,
      status: 'pending',
      transaction_amount: 19.9,
      transaction_details: { external_resource_url: 'https://mp.example/boleto/3', ...details },
      ...(barcode ? { barcode } : {}),
    });
    h.fake.expect({ method: 'POST', path: '/v1/payments', reply: { body: boleto({ digitable_line: null }, { content: '2379' + '0'.repeat(40) }) } });
    expect((await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET', address: ADDRESS }))).billetCode).toBe(
      '2379' + '0'.repeat(40),
    );
    h.fake.expect({ method: 'POST', path: '/v1/payments', reply: { body: boleto({}) } });
    const refused = await rejection(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET', address: ADDRESS })));
    expect([refused.code, refused.details.reason, refused.message]).toEqual([
      'UNAVAILABLE',
      'PROVIDER_BAD_RESPONSE',
      expect.stringContaining('transaction_details.digitable_line'),
    ]);
  });

  it.each([
    ['no address', undefined, 'transaction.address'],
    ['no zip code', { ...ADDRESS, zipCode: '' }, 'transaction.address.zip_code'],
    ['no street', { ...ADDRESS, address: ' ' }, 'transaction.address.address'],
    ['no number', { ...ADDRESS, number: '' }, 'transaction.address.number'],
    ['no district', { ...ADDRESS, district: '' }, 'transaction.address.district'],
    ['no city', { ...ADDRESS, city: '' }, 'transaction.address.city'],
    ['no state', { ...ADDRESS, state: '' }, 'transaction.address.state'],
  ])('a boleto with %s is refused before anything is sent, naming the field', async (_label, address, field) => {
    const refused = await rejection(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET', ...(address ? { address } : {}) })));
    expect([refused.code, refused.details.field, refused.message]).toEqual([
      'INVALID_ARGUMENT',
      field,
      `${field} is required for MERCADOPAGO boletos: Mercado Pago registers a boleto only with the payer's address (zip_code, street_name, street_number, neighborhood, city, federal_unit)`,
    ]);
    expect(h.fake.received).toHaveLength(0);
  });

  it("card: the brand found from the token's BIN (the card token, then the methods of the BIN), sent with the token and installments", async () => {
    h.fake.expect({
      method: 'GET',
      path: '/v1/card_tokens/card-tok',
      headers: AUTH,
      reply: { body: { id: 'card-tok', first_six_digits: '503143', status: 'active' } },
    });
    h.fake.expect({
      method: 'GET',
      path: '/v1/payment_methods/search',
      headers: AUTH,
      query: { bin: '503143', public_key: 'APP_USR-public' },
      reply: {
        body: {
          paging: { total: 2, limit: 30, offset: 0 },
          results: [
            { id: 'debmaster', payment_type_id: 'debit_card', status: 'active', issuer: { id: 24, name: 'Mastercard' } },
            { id: 'master', payment_type_id: 'credit_card', status: 'active', issuer: { id: 24, name: 'Mastercard', default: true } },
          ],
        },
      },
    });
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      body: {
        transaction_amount: 19.9,
        payment_method_id: 'master',
        token: 'card-tok',
        installments: 2,
        issuer_id: 24,
        external_reference: 'order-77',
        notification_url: h.ctx.notificationUrl,
        payer: PAYER,
      },
      reply: { status: 201, body: { id: 3, status: 'approved', transaction_amount: 19.9, payment_method_id: 'master', payment_type_id: 'credit_card' } },
    });
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card-tok', installments: 2 });
    expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: '3', status: 'APPROVED', amount: 1990 });
  });

  it('card: a BIN without an active credit method, an unknown token or an unreadable lookup fails as never sent (outcome failed), and nothing is charged', async () => {
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card-tok' });
    const token = (reply: { status?: number; body: unknown }) => h.fake.expect({ method: 'GET', path: '/v1/card_tokens/card-tok', reply });
    // A read that fails with a 5xx is tried again (three attempts in all) before it fails.
    const methods = (body: unknown, status = 200) =>
      h.fake.expect({ method: 'GET', path: '/v1/payment_methods/search', times: status >= 500 ? 3 : 1, reply: { status, body } });

    token({ body: { id: 'card-tok', first_six_digits: '506776' } });
    methods({ paging: { total: 1 }, results: [{ id: 'debelo', payment_type_id: 'debit_card', status: 'active' }] });
    let refused = await rejection(h.adapter.createTransaction(h.ctx, card));
    expect([refused.code, refused.details.field, refused.details.outcome, refused.message]).toEqual([
      'INVALID_ARGUMENT',
      'transaction.card_id',
      'failed',
      "Erro ao criar transação: Mercado Pago has no active credit card method for this card's BIN",
    ]);

    token({
      status: 404,
      body: { message: 'Card Token not found.', error: 'not_found', status: 404, cause: [{ code: 2006, description: 'Card Token not found.' }] },
    });
    refused = await rejection(h.adapter.createTransaction(h.ctx, card));
    expect([refused.code, refused.details.outcome, refused.message]).toEqual(['NOT_FOUND', 'failed', 'Erro ao criar transação: Card Token not found.']);

    token({ body: { id: 'card-tok', first_six_digits: 503143 } });
    refused = await rejection(h.adapter.createTransaction(h.ctx, card));
    expect([refused.code, refused.details.reason, refused.details.outcome]).toEqual(['UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'failed']);

    token({ body: { id: 'card-tok', first_six_digits: '503143' } });
    methods({ message: 'internal_error' }, 500);
    refused = await rejection(h.adapter.createTransaction(h.ctx, card));
    expect([refused.code, refused.details.outcome]).toEqual(['UNAVAILABLE', 'failed']);
    expect(h.fake.received.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it.each([
    ['pending', 'PENDING'],
    ['in_process', 'PENDING'],
    ['authorized', 'PENDING'],
    ['approved', 'APPROVED'],
    ['refunded', 'REFUNDED'],
    ['charged_back', 'CHARGEBACK'],
    ['in_mediation', 'CHARGEBACK'],
    ['rejected', 'REJECTED'],
    ['cancelled', 'CANCELED'],
    ['mystery', 'REJECTED'],
  ])('reads GET /v1/payments/{id}: %s is %s', async (status, expected) => {
    h.fake.expect({
      method: 'GET',
      path: '/v1/payments/12',
      headers: AUTH,
      reply: { body: { id: 12, status, transaction_amount: 19.9, payment_method_id: 'pix', payment_type_id: 'bank_transfer' } },
    });
    expect(await h.adapter.getTransaction(h.ctx, '12')).toEqual({ paymentMethod: 'PIX', transactionId: '12', status: expected, amount: 1990 });
  });

  it("a rejected card's reason is its status_detail, from the created payment and from reads; none on other payments", async () => {
    const payment = (status: string, status_detail: string, payment_type_id = 'credit_card') => ({
      id: 12,
      status,
      status_detail,
      transaction_amount: 19.9,
      payment_method_id: payment_type_id === 'credit_card' ? 'visa' : 'pix',
      payment_type_id,
    });
    const read = (body: unknown) => h.fake.expect({ method: 'GET', path: '/v1/payments/12', headers: AUTH, reply: { body } });
    read(payment('rejected', 'cc_rejected_insufficient_amount'));
    expect(await h.adapter.getTransaction(h.ctx, '12')).toEqual({
      paymentMethod: 'CREDIT_CARD',
      transactionId: '12',
      status: 'REJECTED',
      amount: 1990,
      declineReason: 'cc_rejected_insufficient_amount',
    });
    read(payment('approved', 'accredited'));
    expect((await h.adapter.getTransaction(h.ctx, '12')).declineReason).toBeUndefined();
    read(payment('rejected', 'rejected_by_bank', 'bank_transfer'));
    expect(await h.adapter.getTransaction(h.ctx, '12')).not.toHaveProperty('declineReason');

    h.fake.expect({ method: 'GET', path: '/v1/card_tokens/card-tok', reply: { body: { id: 'card-tok', first_six_digits: '423564' } } });
    h.fake.expect({
      method: 'GET',
      path: '/v1/payment_methods/search',
      reply: { body: { paging: { total: 1 }, results: [{ id: 'visa', payment_type_id: 'credit_card', status: 'active' }] } },
    });
    h.fake.expect({ method: 'POST', path: '/v1/payments', reply: { status: 201, body: payment('rejected', 'cc_rejected_call_for_authorize') } });
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card-tok' });
    expect(await h.adapter.createTransaction(h.ctx, card)).toMatchObject({ status: 'REJECTED', declineReason: 'cc_rejected_call_for_authorize' });
  });

  it("refunds by POST /v1/payments/{id}/refunds {amount in reais}, its X-Idempotency-Key derived from the caller's key and the payment", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments/12/refunds',
      headers: { ...AUTH, 'x-idempotency-key': mercadoPagoIdempotencyKey('refund', h.ctx.accountId, '12', 'refund-key') },
      body: { amount: 5 },
      reply: { status: 201, body: { id: 99, payment_id: 12, status: 'approved', amount: 5 } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, '12', 500, 'refund-key')).toEqual({ refundId: '99', status: true });

    h.fake.expect({ method: 'POST', path: '/v1/payments/12/refunds', times: 3, reply: { status: 201, body: { id: 100, status: 'approved' } } });
    h.fake.expect({ method: 'POST', path: '/v1/payments/13/refunds', reply: { status: 201, body: { id: 101, status: 'approved' } } });
    await h.adapter.refoundTransaction(h.ctx, '12', 500, 'refund-key');
    await h.adapter.refoundTransaction(h.ctx, '12', 500, 'other-key');
    await h.adapter.refoundTransaction(h.ctx, '13', 500, 'refund-key');
    await h.adapter.refoundTransaction(h.ctx, '12', 500);
    const keys = h.fake.received.map((request) => request.headers['x-idempotency-key']!);
    for (const key of keys) expect(key).toMatch(UUID);
    // The retry sends what the first attempt sent; another key, another payment or no key at all never does.
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(4);
  });

  it.each([
    ['approved', 'done', true],
    ['in_process', 'in progress', true],
    [undefined, 'in progress', true],
    ['something new', 'in progress', true],
    ['rejected', 'refused', false],
    ['cancelled', 'refused', false],
  ])("a refund answered %s is %s: the contract's status %s", async (status, outcome, reported) => {
    expect(lookupStatus(MERCADOPAGO_REFUND_OUTCOMES, status)).toBe(outcome);
    h.fake.expect({ method: 'POST', path: '/v1/payments/12/refunds', reply: { status: 201, body: { id: 7, amount: 5, ...(status ? { status } : {}) } } });
    expect(await h.adapter.refoundTransaction(h.ctx, '12', 500, 'k')).toEqual({ refundId: '7', status: reported });
    expect(h.warn.mock.calls.length > 0).toBe(status === undefined || status === 'something new');
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a payment, a status or a refund', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/v1/payments', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/v1/payments/12', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, '12'))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/v1/payments/12/refunds', reply: { body } });
    expect((await failure(h.adapter.refoundTransaction(h.ctx, '12', 500, 'k'))).code).toBe('UNAVAILABLE');
  });

  it.each([
    ['a status that is not text', { id: 12, status: 4, transaction_amount: 19.9 }, 'status'],
    ['no id', { status: 'approved', transaction_amount: 19.9 }, 'id'],
    ['an amount with a comma', { id: 12, status: 'approved', transaction_amount: '19,90' }, 'transaction_amount'],
    ['no amount', { id: 12, status: 'approved' }, 'transaction_amount'],
  ])('a payment with %s is a bad answer naming the field (UNAVAILABLE, never INTERNAL), and no status', async (_label, body, field) => {
    h.fake.expect({ method: 'GET', path: '/v1/payments/12', reply: { body } });
    const refused = await rejection(h.adapter.getTransaction(h.ctx, '12'));
    expect([refused.code, refused.details.reason, refused.details.outcome]).toEqual(['UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'unknown']);
    expect(refused.message).toContain(`${field}:`);
  });

  it('a PIX payment created without its code is a bad answer, its outcome unknown (the payment may exist)', async () => {
    h.fake.expect({ method: 'POST', path: '/v1/payments', reply: { status: 201, body: { id: 5, status: 'pending', transaction_amount: 19.9 } } });
    const refused = await rejection(h.adapter.createTransaction(h.ctx, transactionInput({ idempotencyKey: 'k' })));
    expect([refused.code, refused.details.outcome, refused.message]).toEqual(['UNAVAILABLE', 'unknown', expect.stringContaining('point_of_interaction')]);
  });

  it("Mercado Pago's error body keeps its message: {message, error, status, cause}", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      reply: {
        status: 400,
        body: {
          message: 'payer.email must be a valid email',
          error: 'bad_request',
          status: 400,
          cause: [{ code: 4050, description: 'payer.email must be a valid email' }],
        },
      },
    });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: payer.email must be a valid email',
    });
  });

  describe('webhooks', () => {
    const event = { id: 12345, live_mode: true, type: 'payment', date_created: '2025-03-10T12:00:00Z', action: 'payment.updated', data: { id: '12' } };

    it('reads the notified payment from Mercado Pago (the webhook carries no status); ignores other types and garbage', async () => {
      h.fake.expect({ method: 'GET', path: '/v1/payments/12', reply: { body: { id: 12, status: 'approved', transaction_amount: 19.9 } } });
      expect(await h.adapter.processWebhook(h.ctx, notification(event))).toEqual({ type: 'TRANSACTION', transactionId: '12', status: 'APPROVED' });
      for (const body of [{ ...event, type: 'plan' }, { type: 'payment' }, { ...event, data: { id: { nested: 1 } } }, 'x', []])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
      expect(h.adapter.notificationKey(h.ctx, notification(event))).toBe('event:12345');
    });

    it("carries the seller's fee the read reports (fee_details paid by the collector) into the notification's result", async () => {
      const paid = {
        id: 12,
        status: 'approved',
        transaction_amount: 19.9,
        fee_details: [{ type: 'mercadopago_fee', amount: 0.2, fee_payer: 'collector' }],
        transaction_details: { net_received_amount: 19.7 },
      };
      h.fake.expect({ method: 'GET', path: '/v1/payments/12', reply: { body: paid } });
      expect(await h.adapter.processWebhook(h.ctx, notification(event))).toEqual({
        type: 'TRANSACTION',
        transactionId: '12',
        status: 'APPROVED',
        providerFee: 20,
      });
    });

    it('a bad answer to the read moves nothing: the notification fails (to be retried), never a status', async () => {
      h.fake.expect({ method: 'GET', path: '/v1/payments/12', reply: { body: { id: 12, status: null, transaction_amount: 19.9 } } });
      expect((await failure(h.adapter.processWebhook(h.ctx, notification(event)))).code).toBe('UNAVAILABLE');
    });

    it("checks x-signature: HMAC-SHA256 of 'id:…;request-id:…;ts:…;' with the account's secret, within 5 minutes", () => {
      const secret = { ...h.ctx, webhookSecret: 'mp-secret' };
      const ts = Math.floor(NOW.getTime() / 1000);
      const sign = (at: number, key = 'mp-secret') => `ts=${at},v1=${createHmac('sha256', key).update(`id:12;request-id:req-1;ts:${at};`).digest('hex')}`;
      const body = Buffer.from(JSON.stringify(event));
      const arrived = (signature: string) => ({ body, headers: { 'x-signature': signature, 'x-request-id': 'req-1' }, receivedAt: NOW });
      expect(h.adapter.verifyNotification(secret, arrived(sign(ts)))).toBe('valid');
      expect(h.adapter.verifyNotification(secret, arrived(sign(ts, 'other')))).toBe('invalid');
      expect(h.adapter.verifyNotification(secret, arrived(sign(ts - 301)))).toBe('invalid');
      expect(h.adapter.verifyNotification(secret, { body, headers: {}, receivedAt: NOW })).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, arrived('anything'))).toBe('unsigned');
    });

    it('takes ts in milliseconds too (the guide says milliseconds, its example and the SDK use seconds)', () => {
      const secret = { ...h.ctx, webhookSecret: 'mp-secret' };
      const sign = (at: number) => `ts=${at},v1=${createHmac('sha256', 'mp-secret').update(`id:12;request-id:req-1;ts:${at};`).digest('hex')}`;
      const arrived = (signature: string) => ({
        body: Buffer.from(JSON.stringify(event)),
        headers: { 'x-signature': signature, 'x-request-id': 'req-1' },
        receivedAt: NOW,
      });
      expect(h.adapter.verifyNotification(secret, arrived(sign(NOW.getTime())))).toBe('valid');
      expect(h.adapter.verifyNotification(secret, arrived(sign(NOW.getTime() - 301_000)))).toBe('invalid');
    });
  });
  describe("CalculateInstallments: Mercado Pago's quote for the card's BIN (GET /v1/payment_methods/installments)", () => {
    const cost = (installments: number, installment_amount: unknown, total_amount: unknown) => ({
      installments,
      installment_rate: installments > 3 ? 4.99 : 0,
      discount_rate: 0,
      labels: [],
      installment_rate_collector: ['MERCADOPAGO'],
      min_allowed_amount: 0.5,
      max_allowed_amount: 60000,
      recommended_message: `${installments} parcelas`,
      installment_amount,
      total_amount,
      payment_method_option_id: 'opt',
    });
    const entry = (payment_type_id: string, payer_costs: unknown[]) => ({
      payment_method_id: payment_type_id === 'credit_card' ? 'master' : 'debmaster',
      payment_type_id,
      issuer: { id: '24', name: 'Mastercard' },
      processing_mode: 'aggregator',
      merchant_account_id: null,
      payer_costs,
      agreements: null,
    });
    const quoted = (body: unknown, status = 200) =>
      h.fake.expect({
        method: 'GET',
        path: '/v1/payment_methods/installments',
        headers: AUTH,
        query: { amount: '19.99', bin: '503143' },
        times: status >= 500 ? 3 : 1,
        reply: { status, body },
      });

    it("maps the credit-card entry's payer_costs to cents, fewest installments first, the last installment absorbing the cents", async () => {
      quoted([
        entry('debit_card', [cost(1, 19.99, 19.99)]),
        entry('credit_card', [cost(4, '5.25', '20.99'), cost(1, 19.99, 19.99), cost(3, 6.66, 19.99), cost(2, 10, 19.99)]),
      ]);
      expect(await h.adapter.calculateInstallments(h.ctx, 1999, { bin: '503143' })).toEqual([
        { installmentNumber: 1, installmentValue: 1999, finalValue: 1999, lastInstallmentValue: 1999 },
        { installmentNumber: 2, installmentValue: 1000, finalValue: 1999, lastInstallmentValue: 999 },
        { installmentNumber: 3, installmentValue: 666, finalValue: 1999, lastInstallmentValue: 667 },
        { installmentNumber: 4, installmentValue: 525, finalValue: 2099, lastInstallmentValue: 524 },
      ]);
    });

    it('without a BIN: FAILED_PRECONDITION naming card_bin, nothing sent; a BIN without credit-card costs: INVALID_ARGUMENT naming it', async () => {
      const sent = h.fake.received.length;
      const missing = await rejection(h.adapter.calculateInstallments(h.ctx, 1999));
      expect([missing.code, missing.details.field, missing.details.reason]).toEqual(['FAILED_PRECONDITION', 'card_bin', 'CARD_BIN_REQUIRED']);
      expect(h.fake.received.length).toBe(sent);

      for (const body of [[], [entry('debit_card', [cost(1, 19.99, 19.99)])], [entry('credit_card', [])]]) {
        quoted(body);
        const refused = await rejection(h.adapter.calculateInstallments(h.ctx, 1999, { bin: '503143' }));
        expect([refused.code, refused.details.field]).toEqual(['INVALID_ARGUMENT', 'card_bin']);
      }
    });

    it('a malformed answer is a bad answer (UNAVAILABLE, PROVIDER_BAD_RESPONSE), never a guessed option', async () => {
      const malformed: unknown[] = [
        { results: [] },
        [entry('credit_card', [cost(1, 'dezenove', 19.99)])],
        [entry('credit_card', [cost(1, 19.999, 19.999)])],
        [entry('credit_card', [cost(1, 0, 0)])],
        [entry('credit_card', [cost(0, 19.99, 19.99)])],
        [entry('credit_card', [{ installments: 2, installment_amount: 10 }])],
        // Three installments of R$ 10.00 pass a total of R$ 19.99: nothing is left for the last one.
        [entry('credit_card', [cost(3, 10, 19.99)])],
      ];
      for (const body of malformed) {
        quoted(body);
        const bad = await rejection(h.adapter.calculateInstallments(h.ctx, 1999, { bin: '503143' }));
        expect([bad.code, bad.details.reason]).toEqual(['UNAVAILABLE', 'PROVIDER_BAD_RESPONSE']);
      }
    });
  });
});

describe('MERCADOPAGO mappers, without HTTP', () => {
  it("the boleto's payer.address from the contract's address: zip as digits, the state in capitals", () => {
    expect(mercadoPagoPayerAddress(ADDRESS)).toEqual(PAYER_ADDRESS);
  });

  it('the credit-card method of a BIN search: the active credit one, with its issuer', () => {
    const results = [
      { id: 'debvisa', payment_type_id: 'debit_card', status: 'active' },
      { id: 'visa', payment_type_id: 'credit_card', status: 'active', issuer: { id: 25 } },
    ];
    expect(creditCardMethodOf({ results })).toEqual({ paymentMethodId: 'visa', issuerId: 25 });
    expect(creditCardMethodOf({ results: [{ id: 'visa', payment_type_id: 'credit_card', status: 'deactive' }] })).toBeUndefined();
    expect(creditCardMethodOf({ results: [{ id: 'amex', payment_type_id: 'credit_card' }] })).toEqual({ paymentMethodId: 'amex' });
  });

  it('idempotency keys are UUID-shaped and depend on every part', () => {
    expect(mercadoPagoIdempotencyKey('refund', 'acc', '12', 'k')).toMatch(UUID);
    expect(mercadoPagoIdempotencyKey('refund', 'acc', '12', 'k')).toBe(mercadoPagoIdempotencyKey('refund', 'acc', '12', 'k'));
    expect(mercadoPagoIdempotencyKey('refund', 'acc', '12', 'k')).not.toBe(mercadoPagoIdempotencyKey('refund', 'acc', '1', '2k'));
    expect(mercadoPagoIdempotencyKey('payment', 'acc', 'k')).not.toBe(mercadoPagoIdempotencyKey('refund', 'acc', 'k'));
  });

  it("the seller's fee: the fee_details its collector pays, in cents, where net_received_amount agrees or is not yet stated", () => {
    const payment = (extra: Record<string, unknown>) => mercadoPagoPayment.parse({ id: 1, status: 'approved', transaction_amount: 100, ...extra });
    const fees = [
      { type: 'mercadopago_fee', amount: 4.99, fee_payer: 'collector' },
      { type: 'application_fee', amount: 1.01, fee_payer: 'collector' },
      { type: 'financing_fee', amount: 7.5, fee_payer: 'payer' },
    ];
    expect(mercadoPagoFeeOf(payment({ fee_details: fees, transaction_details: { net_received_amount: 94 } }))).toBe(600);
    // Not credited yet (net 0) or not stated: the list alone says it.
    expect(mercadoPagoFeeOf(payment({ fee_details: fees, transaction_details: { net_received_amount: 0 } }))).toBe(600);
    expect(mercadoPagoFeeOf(payment({ fee_details: fees }))).toBe(600);
    // An answer that contradicts itself, a pending payment's empty list, only the payer's fees, a negative or unreadable fee: none.
    expect(mercadoPagoFeeOf(payment({ fee_details: fees, transaction_details: { net_received_amount: 95 } }))).toBeUndefined();
    expect(mercadoPagoFeeOf(payment({ status: 'pending', fee_details: [] }))).toBeUndefined();
    expect(mercadoPagoFeeOf(payment({ fee_details: [fees[2]] }))).toBeUndefined();
    expect(mercadoPagoFeeOf(payment({ fee_details: [{ ...fees[0], amount: -1 }] }))).toBeUndefined();
    expect(mercadoPagoFeeOf(payment({ fee_details: [{ ...fees[0], amount: 'x' }] }))).toBeUndefined();
    expect(mercadoPagoFeeOf(payment({ fee_details: 'x', transaction_details: { net_received_amount: 'y' } }))).toBeUndefined();
  });

  it('a refund refused is none; done and in progress are one the provider made', () => {
    expect(mercadoPagoRefundResult({ id: '1', status: 'rejected' }, 'refused')).toEqual({ refundId: '1', status: false });
    expect(mercadoPagoRefundResult({ id: '1', status: 'in_process' }, 'in progress')).toEqual({ refundId: '1', status: true });
  });
});
