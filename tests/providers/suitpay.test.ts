import { describe, expect, it } from '@jest/globals';
import { SUITPAY, SuitpayAdapter, suitpayHash } from '../../server/providers/suitpay/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';

/** SUITPAY (spec doc 2, group 1): its documented API (research): PIX charges, PIX payouts, hashed webhooks. */

const HEADERS = { ci: 'suit-client', cs: 'suit-secret' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136suitpay-qr520400005303986540519.905802BR6304ABCD';
const DAY_MS = 86_400_000;

/** A webhook as SuitPay sends it: every field, then `hash` over their values and the client secret. */
const signed = (fields: Record<string, unknown>, secret = 'suit-secret') => ({ ...fields, hash: suitpayHash(fields, secret) });
const pixPaid = {
  idTransaction: 'sp_1',
  typeTransaction: 'PIX',
  statusTransaction: 'PAID_OUT',
  value: 19.9,
  paymentDate: '10/03/2025 12:00:00',
  requestNumber: 'order-77',
};

describe('SUITPAY (spec doc 2, group 1), a bespoke adapter on its documented API', () => {
  const h = providerHarness({
    create: (runtime) => new SuitpayAdapter(SUITPAY, runtime),
    account: () => ({ publicKey: 'suit-client', secretKey: 'suit-secret' }),
  });

  it('offers PIX charges (no read call exists), PIX payouts and webhooks; a boleto or card is refused before sending', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'withdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by SUITPAY',
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it('needs both keys (ci and cs) at the door', () => {
    for (const [account, message] of [
      [{ publicKey: '', secretKey: 'suit-secret' }, 'publicKey is required'],
      [{ publicKey: 'suit-client', secretKey: '' }, 'secretKey is required'],
    ] as const)
      expect(() => h.adapter.checkAccount(account)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
  });

  it('charges by POST /api/v1/gateway/request-qrcode with ci/cs, reais, the due day and the callback; PENDING, valid 1 day', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/api/v1/gateway/request-qrcode',
      headers: HEADERS,
      body: {
        requestNumber: 'order-77',
        dueDate: '2025-03-11',
        amount: 19.9,
        client: { name: 'Ana Souza', document: '12345678909', phoneNumber: '11987654321', email: 'ana@example.com' },
        callbackUrl: h.ctx.notificationUrl,
      },
      reply: { body: { idTransaction: 'sp_1', paymentCode: PIX_CODE, paymentCodeBase64: 'iVBOR', response: 'OK' } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'sp_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ pixQrCode: expect.stringMatching(/^data:image\/png;base64,/), expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it("a 2xx answer with response ERROR is SuitPay's refusal, with its message", async () => {
    h.fake.expect({ method: 'POST', path: '/api/v1/gateway/request-qrcode', reply: { body: { response: 'ERROR', message: 'Documento inválido' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: Documento inválido',
    });
  });

  it('pays out by POST /api/v1/gateway/pix-payment {value (reais), key, typeKey}; PENDING until the webhook', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/api/v1/gateway/pix-payment',
      headers: HEADERS,
      body: { value: 25, key: '12345678909', typeKey: 'CPF' },
      reply: { body: { idTransaction: 'po_1', response: 'OK' } },
    });
    expect(await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: '123.456.789-09', pixType: 'CPF' })).toEqual({
      withdrawId: 'po_1',
      status: 'PENDING',
      amount: 2500,
    });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a charge or a payout', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/api/v1/gateway/request-qrcode', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/api/v1/gateway/pix-payment', reply: { body } });
    expect((await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: 'a@b.co', pixType: 'EMAIL' }))).code).toBe('UNAVAILABLE');
  });

  describe('webhooks', () => {
    it.each([
      ['PIX', 'PAID_OUT', { type: 'TRANSACTION', status: 'APPROVED' }],
      ['PIX', 'CHARGEBACK', { type: 'TRANSACTION', status: 'CHARGEBACK' }],
      ['PIX', 'CANCELED', { type: 'TRANSACTION', status: 'CANCELED' }],
      ['PIX', 'MYSTERY', { type: 'TRANSACTION', status: 'REJECTED' }],
      ['PIX_CASHOUT', 'PAID_OUT', { type: 'WITHDRAW', status: 'APPROVED' }],
      ['PIX_CASHOUT', 'CANCELED', { type: 'WITHDRAW', status: 'CANCELED' }],
    ])('%s %s', async (typeTransaction, statusTransaction, expected) => {
      const body = signed({ ...pixPaid, typeTransaction, statusTransaction });
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ ...expected, transactionId: 'sp_1' });
    });

    it.each([
      ['a card', { ...pixPaid, typeTransaction: 'CARD' }],
      ['no status', { idTransaction: 'sp_1', typeTransaction: 'PIX' }],
      ['not JSON', 'x=1'],
    ])('ignores %s', async (_label, body) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it('checks hash = SHA-256(the values in order, then the client secret); a webhook without one is refused', () => {
      // The values 'x' and 2, then the secret 's': sha256('x2s').
      expect(suitpayHash({ a: 'x', b: 2, hash: 'ignored' }, 's')).toBe('6c2cb2a023550891fb9f9ec8a868928e0151a8110f78cc67cee8f0fd34b5f8e3');
      expect(h.adapter.verifyNotification(h.ctx, notification(signed(pixPaid)))).toBe('valid');
      expect(h.adapter.verifyNotification(h.ctx, notification(signed(pixPaid, 'another-secret')))).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, notification({ ...signed(pixPaid), value: 1990 }))).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, notification(pixPaid))).toBe('invalid');
    });

    it('keys a webhook by its kind, id and status', () => {
      expect(h.adapter.notificationKey(h.ctx, notification(signed(pixPaid)))).toBe('transaction:sp_1:paid_out');
    });
  });
});
