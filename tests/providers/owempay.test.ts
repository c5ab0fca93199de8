import { describe, expect, it } from '@jest/globals';
import { OWEMPAY, OwempayAdapter, owemQrCodeRequest, owemRefundRequest, toOwemQrCode, toOwemRefund } from '../../server/providers/owempay/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import {
  NOW,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';

const SECRET = 'api-1|s3cret|acc-9';
const AUTH = { authorization: `Basic ${Buffer.from('api-1:s3cret').toString('base64')}`, 'x-account-id': 'acc-9' };
const EMV = '00020126580014br.gov.bcb.pix0136owem-qr-id5204000053039865406019.905802BR5907OWEMPAY6009SAO PAULO62070503***6304ABCD';

describe('OWEMPAY (spec doc 3, group 3)', () => {
  const h = providerHarness({ create: (runtime) => new OwempayAdapter(OWEMPAY, runtime), account: () => ({ publicKey: 'pk', secretKey: SECRET }) });

  it('takes PIX charges and their refunds and notifications only; the rest reject with the spec text', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })))).code).toBe('UNIMPLEMENTED');
  });

  it.each([
    ['', 'Credenciais não configuradas'],
    ['api-1|s3cret', 'Formato de credenciais inválido. Use: apiKey|secret|accountId'],
    ['a|b|c|d', 'Formato de credenciais inválido. Use: apiKey|secret|accountId'],
  ])('refuses the secret key %j with the spec text, at the door and before any call (§5)', async (secretKey, message) => {
    expect(() => h.adapter.checkAccount({ publicKey: 'pk', secretKey })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
    expect(await failure(h.adapter.getTransaction({ ...h.ctx, secretKey }, 'q1'))).toEqual({ code: 'FAILED_PRECONDITION', message });
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    const terms = { amount: 19.9, expirySeconds: 3600, notificationUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(owemQrCodeRequest, [toOwemQrCode(transactionInput({ description: 'Curso' }), terms), toOwemQrCode(bareTransactionInput(), terms)]);
    expectBodiesOf(owemRefundRequest, [toOwemRefund(5.5)]);
  });

  it('creates a dynamic QR code valid 1 hour (§9) by POST /pix/in/dynamic-qrcode, in reais', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/pix/in/dynamic-qrcode',
      headers: AUTH,
      body: {
        amount: 19.9,
        expiration: 3600,
        externalId: 'order-77',
        payer: { name: 'Ana Souza', document: '12345678909' },
        callbackUrl: h.ctx.notificationUrl,
      },
      reply: { body: { id: 'q1', status: 'ACTIVE', amount: 19.9, emv: EMV } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'q1', status: 'PENDING', amount: 1990, pixCode: EMV },
      ...{ expiresAt: new Date(NOW.getTime() + 3_600_000) },
    });
  });

  it.each([
    ['paid', 'APPROVED'],
    ['PENDING', 'PENDING'],
    ['refunded', 'REFUNDED'],
    ['mystery', 'REJECTED'],
  ])('reads GET /pix/in/dynamic-qrcode/{id}: %s → %s', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/pix/in/dynamic-qrcode/q1', headers: AUTH, reply: { body: { data: { id: 'q1', status, amount: '19.90' } } } });
    expect(await h.adapter.getTransaction(h.ctx, 'q1')).toMatchObject({ transactionId: 'q1', status: expected, amount: 1990 });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a read or refund answered with %s is UNAVAILABLE, never a status or a refund', async (_label, body) => {
    h.fake.expect({ method: 'GET', path: '/pix/in/dynamic-qrcode/q1', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'q1'))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/pix/in/refund/q1', reply: { body } });
    expect((await failure(h.adapter.refoundTransaction(h.ctx, 'q1', 100))).code).toBe('UNAVAILABLE');
  });

  describe('a garbage 2xx answer is UNAVAILABLE under the operation prefix, never a status', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /pix/in/dynamic-qrcode', () => h.adapter.createTransaction(h.ctx, transactionInput())],
      ['getTransaction', 'GET /pix/in/dynamic-qrcode/q1', () => h.adapter.getTransaction(h.ctx, 'q1')],
      ['refoundTransaction', 'POST /pix/in/refund/q1', () => h.adapter.refoundTransaction(h.ctx, 'q1', 100)],
    ]);
  });

  it.each([
    ['a numeric status', { id: 'q1', status: 3, amount: 19.9 }, 'status'],
    ['a wrapped answer without a status', { data: { id: 'q1', amount: 19.9 } }, 'status'],
    ['an amount that is not money', { id: 'q1', status: 'paid', amount: 'R$ 19,90' }, 'amount'],
  ])('a read answered with %s names the field at fault and never a status', async (_label, body, field) => {
    h.fake.expect({ method: 'GET', path: '/pix/in/dynamic-qrcode/q1', reply: { body } });
    const { code, message } = await failure(h.adapter.getTransaction(h.ctx, 'q1'));
    expect([code, message]).toEqual(['UNAVAILABLE', expect.stringContaining(`resposta do provedor em formato inesperado (${field}: `)]);
  });

  it('a refund answered with a failed status is a refusal (the cents go back)', async () => {
    h.fake.expect({ method: 'POST', path: '/pix/in/refund/q1', reply: { body: { id: 'rf_2', status: 'FAILED' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'q1', 500)).toEqual({ refundId: 'rf_2', status: false });
  });

  it('refunds by POST /pix/in/refund/{id} with the amount in reais', async () => {
    h.fake.expect({ method: 'POST', path: '/pix/in/refund/q1', headers: AUTH, body: { amount: 5 }, reply: { body: { id: 'rf_1', status: 'processing' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'q1', 500)).toEqual({ refundId: 'rf_1', status: true });
  });

  it('handles only pix_in: events (pix_out: is money sent, answered by the refund call), keyed by the event id (§4)', async () => {
    const paid = { id: 'evt_1', event: 'pix_in:received', data: { id: 'q1', status: 'paid' } };
    expect(await h.adapter.processWebhook(h.ctx, notification(paid))).toEqual({ type: 'TRANSACTION', transactionId: 'q1', status: 'APPROVED' });
    for (const body of [{ ...paid, event: 'pix_out:sent' }, { ...paid, event: 'charge.paid' }, { event: 'pix_in:received', data: { id: 'q1' } }, '{not json'])
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    expect(h.adapter.notificationKey(h.ctx, notification(paid))).toBe('event:evt_1');
  });
});
