import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SUITPAY, SuitpayAdapter, suitpayHash } from '../../server/providers/suitpay/adapter.js';
import { BODIES_WITHOUT_RESOURCE, partial } from '../support/fakeProvider.js';
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
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it("a 2xx answer with response ERROR is SuitPay's refusal, with its message", async () => {
    h.fake.expect({ method: 'POST', path: '/api/v1/gateway/request-qrcode', reply: { body: { response: 'ERROR', message: 'Documento inválido' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: Documento inválido',
    });
  });

  // Before: typeKey CPF/EMAIL/RANDOM, which SuitPay does not know (the defect); no callbackUrl, so the PIX_CASHOUT webhook had nowhere to go.
  it.each([
    ['123.456.789-09', 'CPF', '12345678909', 'document'],
    ['12.345.678/0001-99', 'CNPJ', '12345678000199', 'document'],
    ['+55 (62) 99999-8888', 'PHONE', '62999998888', 'phoneNumber'],
    ['ana@example.com', 'EMAIL', 'ana@example.com', 'email'],
    ['c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM', 'c873834c-ed18-4e63-8e5d-90190392b744', 'randomKey'],
  ] as const)(
    'pays out to %s (%s) by POST /api/v1/gateway/pix-payment {value (reais), key %s, typeKey %s, callbackUrl, externalId}; PENDING until the webhook',
    async (pixKey, pixType, key, typeKey) => {
      h.fake.expect({
        method: 'POST',
        path: '/api/v1/gateway/pix-payment',
        headers: HEADERS,
        body: { value: 25, key, typeKey, callbackUrl: h.ctx.notificationUrl, externalId: 'saque-9' },
        reply: { body: { idTransaction: 'po_1', response: 'OK' } },
      });
      expect(await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey, pixType, withdrawReference: 'saque-9' })).toEqual({
        withdrawId: 'po_1',
        status: 'PENDING',
        amount: 2500,
      });
    },
  );

  it("a payout's externalId is the reference, else the caller's idempotency key (a retry SuitPay refuses as DUPLICATE_EXTERNAL_ID, never pays twice)", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/api/v1/gateway/pix-payment',
      body: partial({ externalId: 'idem-1' }),
      reply: { body: { idTransaction: 'po_2', response: 'OK' } },
    });
    await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: 'ana@example.com', pixType: 'EMAIL', idempotencyKey: 'idem-1' });
  });

  it("SuitPay's refusals keep its message: a 400 {response, message}, and a 2xx whose response is not OK", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/api/v1/gateway/pix-payment',
      reply: { status: 400, body: { response: 'NO_FUNDS', message: 'Sem saldo para executar esta operação.', codeAntiFraud: null } },
    });
    expect(await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: 'ana@example.com', pixType: 'EMAIL' }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao realizar saque: Sem saldo para executar esta operação.',
    });
    h.fake.expect({ method: 'POST', path: '/api/v1/gateway/pix-payment', reply: { body: { response: 'UNAUTHORIZED_IP' } } });
    expect(await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: 'ana@example.com', pixType: 'EMAIL' }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao realizar saque: UNAUTHORIZED_IP',
    });
  });

  it("a charge without the customer's name, document or e-mail (SuitPay's required client) is refused before sending", async () => {
    for (const customer of [
      undefined,
      { name: 'Ana', document: '', email: 'ana@example.com', phone: '' },
      { name: 'Ana', document: '123.456.789-09', email: '', phone: '' },
    ])
      expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ customer })))).code).toBe('INVALID_ARGUMENT');
    expect(h.fake.received).toHaveLength(0);
  });

  it.each([
    ['an OK without the charge id', { response: 'OK', paymentCode: PIX_CODE }],
    ['an OK whose id is an object', { response: 'OK', idTransaction: { id: 1 }, paymentCode: PIX_CODE }],
    ['an OK whose code is a number', { response: 'OK', idTransaction: 'sp_1', paymentCode: 42 }],
    ['a bare array', [{ idTransaction: 'sp_1' }]],
  ])('a charge answered with %s is a bad answer: UNAVAILABLE, outcome unknown, never a charge', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/api/v1/gateway/request-qrcode', reply: { body } });
    const error = await h.adapter.createTransaction(h.ctx, transactionInput()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'PROVIDER_BAD_RESPONSE', outcome: 'unknown' } });
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

    it('checks hash = SHA-256(the values in order, with the client secret); a webhook without one, or with another secret, is refused', () => {
      // The values 'x' and 2, then the secret 's': sha256('x2s').
      expect(suitpayHash({ a: 'x', b: 2, hash: 'ignored' }, 's')).toBe('6c2cb2a023550891fb9f9ec8a868928e0151a8110f78cc67cee8f0fd34b5f8e3');
      expect(h.adapter.verifyNotification(h.ctx, notification(signed(pixPaid)))).toBe('valid');
      expect(h.adapter.verifyNotification(h.ctx, notification(signed(pixPaid, 'another-secret')))).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, notification({ ...signed(pixPaid), value: 1990 }))).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, notification(pixPaid))).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, notification('not json'))).toBe('invalid');
    });

    it('reads the documentation\'s "concatenate your ClientSecret with the result" either way: the secret after or before the values', () => {
      const values = Object.values(pixPaid).join('');
      const before = createHash('sha256').update(`suit-secret${values}`).digest('hex');
      expect(h.adapter.verifyNotification(h.ctx, notification({ ...pixPaid, hash: before }))).toBe('valid');
      const otherSecret = createHash('sha256').update(`another-secret${values}`).digest('hex');
      expect(h.adapter.verifyNotification(h.ctx, notification({ ...pixPaid, hash: otherSecret }))).toBe('invalid');
    });

    it('hashes numbers as they were written (10.00 stays "10.00") and takes fields SuitPay may add later', () => {
      const raw = '{"idTransaction":"sp_1","typeTransaction":"PIX","statusTransaction":"PAID_OUT","value":10.00,"channel":"api"';
      const hash = createHash('sha256').update('sp_1PIXPAID_OUT10.00apisuit-secret').digest('hex');
      const body = { body: Buffer.from(`${raw},"hash":"${hash}"}`), headers: {} };
      expect(h.adapter.verifyNotification(h.ctx, body)).toBe('valid');
    });

    it('keys a webhook by its kind, id and status', () => {
      expect(h.adapter.notificationKey(h.ctx, notification(signed(pixPaid)))).toBe('transaction:sp_1:paid_out');
    });
  });
});
