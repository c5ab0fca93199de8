import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { CATALOGUE } from '../../server/lib/providerMessages.js';
import { MERCADOPAGO, MercadoPagoAdapter } from '../../server/providers/mercadopago/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';

/** MERCADOPAGO (spec doc 2, group 1): its public API (official documentation and SDK, research). */

const AUTH = { authorization: 'Bearer APP_USR-token' };
const DAY_MS = 86_400_000;
const PIX_CODE = '00020126580014br.gov.bcb.pix0136mercadopago-qr520400005303986540519.905802BR6304ABCD';
const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza', identification: { type: 'CPF', number: '12345678909' } };

describe('MERCADOPAGO (spec doc 2, group 1), a bespoke adapter on its public API', () => {
  const h = providerHarness({
    create: (runtime) => new MercadoPagoAdapter(MERCADOPAGO, runtime),
    account: () => ({ publicKey: '', secretKey: 'APP_USR-token' }),
  });

  it('offers PIX, boleto and card charges, reads, refunds and webhooks; the access token at the door', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual(CATALOGUE.CARD_ID_REQUIRED);
  });

  it("PIX: POST /v1/payments in reais with the caller's key as X-Idempotency-Key; the code from point_of_interaction", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      headers: { ...AUTH, 'x-idempotency-key': 'idem-42' },
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
      ...{ pixQrCode: expect.stringMatching(/^data:image\/png;base64,/), expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('sends an X-Idempotency-Key of its own when the caller gives none (Mercado Pago requires one)', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      headers: { 'x-idempotency-key': /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/ },
      reply: { body: { id: 1, status: 'pending', point_of_interaction: { transaction_data: { qr_code: PIX_CODE } } } },
    });
    expect((await h.adapter.createTransaction(h.ctx, transactionInput())).transactionId).toBe('1');
  });

  it('boleto: bolbradesco, the digitable line and the PDF from transaction_details; card: the token and installments', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      body: {
        transaction_amount: 19.9,
        payment_method_id: 'bolbradesco',
        external_reference: 'order-77',
        notification_url: h.ctx.notificationUrl,
        date_of_expiration: new Date(NOW.getTime() + 3 * DAY_MS).toISOString(),
        payer: PAYER,
      },
      reply: {
        body: {
          id: 2,
          status: 'pending',
          transaction_details: { external_resource_url: 'https://mp.example/boleto/2', digitable_line: '23790000000000000000000000000000000000000000000' },
        },
      },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' }))).toEqual({
      ...{ paymentMethod: 'BILLET', transactionId: '2', status: 'PENDING', amount: 1990 },
      ...{
        billetCode: '23790000000000000000000000000000000000000000000',
        billetUrl: 'https://mp.example/boleto/2',
        expiresAt: new Date(NOW.getTime() + 3 * DAY_MS),
      },
    });
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments',
      body: {
        transaction_amount: 19.9,
        token: 'card-tok',
        installments: 2,
        external_reference: 'order-77',
        notification_url: h.ctx.notificationUrl,
        payer: PAYER,
      },
      reply: { body: { id: 3, status: 'approved', transaction_amount: 19.9 } },
    });
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card-tok', installments: 2 });
    expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: '3', status: 'APPROVED', amount: 1990 });
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

  it('refunds by POST /v1/payments/{id}/refunds {amount in reais}', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/payments/12/refunds',
      headers: AUTH,
      body: { amount: 5 },
      reply: { status: 201, body: { id: 99, status: 'approved', amount: 5 } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, '12', 500)).toEqual({ refundId: '99', status: true });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a payment or a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/v1/payments', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/v1/payments/12', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, '12'))).code).toBe('UNAVAILABLE');
  });

  describe('webhooks', () => {
    const event = { id: 12345, live_mode: true, type: 'payment', date_created: '2025-03-10T12:00:00Z', action: 'payment.updated', data: { id: '12' } };

    it('reads the notified payment from Mercado Pago (the webhook carries no status); ignores other types and garbage', async () => {
      h.fake.expect({ method: 'GET', path: '/v1/payments/12', reply: { body: { id: 12, status: 'approved', transaction_amount: 19.9 } } });
      expect(await h.adapter.processWebhook(h.ctx, notification(event))).toEqual({ type: 'TRANSACTION', transactionId: '12', status: 'APPROVED' });
      for (const body of [{ ...event, type: 'plan' }, { type: 'payment' }, 'x'])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
      expect(h.adapter.notificationKey(h.ctx, notification(event))).toBe('mercadopago:12345');
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
  });
});
