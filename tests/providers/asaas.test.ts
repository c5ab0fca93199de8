import { describe, expect, it } from '@jest/globals';
import { ASAAS, AsaasAdapter } from '../../server/providers/asaas/adapter.js';
import { CATALOGUE } from '../../server/lib/providerMessages.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';

/** ASAAS (spec doc 2, group 1): its public API v3 (official documentation, research). */

const AUTH = { access_token: '$aact_key' };
const DAY_MS = 86_400_000;
const PIX_CODE = '00020101021226820014br.gov.bcb.pix2560pix.asaas.com/qr/cobv/pay_1520400005303986540519.905802BR6304ABCD';
const CUSTOMER = { name: 'Ana Souza', cpfCnpj: '12345678909', email: 'ana@example.com', mobilePhone: '11987654321' };

describe('ASAAS (spec doc 2, group 1), a bespoke adapter on its public API', () => {
  const h = providerHarness({ create: (runtime) => new AsaasAdapter(ASAAS, runtime), account: () => ({ publicKey: '', secretKey: '$aact_key' }) });
  const customerCreated = () =>
    h.fake.expect({ method: 'POST', path: '/customers', headers: AUTH, body: CUSTOMER, reply: { body: { object: 'customer', id: 'cus_1' } } });

  it('offers PIX, boleto and card charges, reads, refunds, PIX transfers and their reads, webhooks; the secret key at the door', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
  });

  it('a charge needs a customer (Asaas charges one) and a card its token, refused before anything is sent', async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ customer: undefined })))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'transaction.customer is required for ASAAS charges',
    });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual(CATALOGUE.CARD_ID_REQUIRED);
    expect(h.fake.received).toHaveLength(0);
  });

  it('PIX: creates the customer, then POST /payments (billingType PIX, reais, due day), then reads the QR code', async () => {
    customerCreated();
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      headers: AUTH,
      body: { customer: 'cus_1', billingType: 'PIX', value: 19.9, dueDate: '2025-03-11', externalReference: 'order-77' },
      reply: { body: { object: 'payment', id: 'pay_1', status: 'PENDING', value: 19.9, billingType: 'PIX' } },
    });
    h.fake.expect({ method: 'GET', path: '/payments/pay_1/pixQrCode', headers: AUTH, reply: { body: { encodedImage: 'iVBORw0KGgo=', payload: PIX_CODE } } });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'pay_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ pixQrCode: 'data:image/png;base64,iVBORw0KGgo=', expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('boleto: the line from /identificationField and the bankSlipUrl, due in 3 days', async () => {
    customerCreated();
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      body: { customer: 'cus_1', billingType: 'BOLETO', value: 19.9, dueDate: '2025-03-13', externalReference: 'order-77' },
      reply: { body: { id: 'pay_2', status: 'PENDING', value: 19.9, bankSlipUrl: 'https://www.asaas.com/b/pdf/pay_2' } },
    });
    h.fake.expect({
      method: 'GET',
      path: '/payments/pay_2/identificationField',
      reply: { body: { identificationField: '00190000090281913600966281313172600000000019990' } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' }))).toEqual({
      ...{ paymentMethod: 'BILLET', transactionId: 'pay_2', status: 'PENDING', amount: 1990 },
      ...{ billetCode: '00190000090281913600966281313172600000000019990', billetUrl: 'https://www.asaas.com/b/pdf/pay_2' },
      expiresAt: new Date(NOW.getTime() + 3 * DAY_MS),
    });
  });

  it('card: the token as creditCardToken, the buyer IP and the installments', async () => {
    customerCreated();
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      body: {
        ...{ customer: 'cus_1', billingType: 'CREDIT_CARD', value: 19.9, dueDate: '2025-03-11', externalReference: 'order-77' },
        ...{ creditCardToken: 'tok_1', remoteIp: '203.0.113.7', installmentCount: 3, totalValue: 19.9 },
      },
      reply: { body: { id: 'pay_3', status: 'CONFIRMED', value: 19.9 } },
    });
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', customerIp: '203.0.113.7', installments: 3 });
    expect(await h.adapter.createTransaction(h.ctx, input)).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: 'pay_3', status: 'APPROVED', amount: 1990 });
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['AWAITING_RISK_ANALYSIS', 'PENDING'],
    ['CONFIRMED', 'APPROVED'],
    ['RECEIVED', 'APPROVED'],
    ['RECEIVED_IN_CASH', 'APPROVED'],
    ['REFUND_REQUESTED', 'APPROVED'],
    ['REFUNDED', 'REFUNDED'],
    ['CHARGEBACK_REQUESTED', 'CHARGEBACK'],
    ['CHARGEBACK_DISPUTE', 'CHARGEBACK'],
    ['OVERDUE', 'REJECTED'],
    ['MYSTERY', 'REJECTED'],
  ])('reads GET /payments/{id}: %s is %s', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', headers: AUTH, reply: { body: { id: 'pay_1', status, value: 19.9, billingType: 'BOLETO' } } });
    expect(await h.adapter.getTransaction(h.ctx, 'pay_1')).toEqual({ paymentMethod: 'BILLET', transactionId: 'pay_1', status: expected, amount: 1990 });
  });

  it('refunds by POST /payments/{id}/refund {value in reais}', async () => {
    h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', headers: AUTH, body: { value: 5 }, reply: { body: { id: 'pay_1', status: 'REFUNDED' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_1', 500)).toEqual({ refundId: 'pay_1', status: true });
  });

  it('pays out by POST /transfers {value, pixAddressKey, pixAddressKeyType (RANDOM as EVP), operationType PIX} and reads GET /transfers/{id}', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transfers',
      headers: AUTH,
      body: { value: 25, pixAddressKey: 'c873834c-ed18-4e63-8e5d-90190392b744', pixAddressKeyType: 'EVP', operationType: 'PIX', externalReference: 'wd-1' },
      reply: { body: { object: 'transfer', id: 'tra_1', status: 'PENDING', value: 25 } },
    });
    const payout = {
      paymentMethod: 'PIX' as const,
      amount: 2500,
      pixKey: 'c873834c-ed18-4e63-8e5d-90190392b744',
      pixType: 'RANDOM' as const,
      withdrawReference: 'wd-1',
    };
    expect(await h.adapter.withdraw(h.ctx, payout)).toEqual({ withdrawId: 'tra_1', status: 'PENDING', amount: 2500 });
    for (const [status, expected] of [
      ['DONE', 'APPROVED'],
      ['CANCELLED', 'CANCELED'],
      ['FAILED', 'REJECTED'],
      ['BANK_PROCESSING', 'PENDING'],
    ] as const) {
      h.fake.expect({ method: 'GET', path: '/transfers/tra_1', reply: { body: { id: 'tra_1', status, value: 25 } } });
      expect(await h.adapter.getWithdraw(h.ctx, 'tra_1')).toEqual({ withdrawId: 'tra_1', status: expected, amount: 2500 });
    }
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a charge, a refund or a transfer', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/customers', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'pay_1'))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', reply: { body } });
    expect((await failure(h.adapter.refoundTransaction(h.ctx, 'pay_1', 500))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/transfers/tra_1', reply: { body } });
    expect((await failure(h.adapter.getWithdraw(h.ctx, 'tra_1'))).code).toBe('UNAVAILABLE');
  });

  it('a PIX charge whose QR code has no payload is UNAVAILABLE (nobody could pay it)', async () => {
    customerCreated();
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body: { id: 'pay_1', status: 'PENDING', value: 19.9 } } });
    h.fake.expect({ method: 'GET', path: '/payments/pay_1/pixQrCode', reply: { body: { success: false } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: resposta do provedor sem payload do QR Code PIX',
    });
  });

  describe('webhooks', () => {
    const received = {
      id: 'evt_05b7&368604920',
      event: 'PAYMENT_RECEIVED',
      dateCreated: '2025-03-10 12:00:00',
      payment: { object: 'payment', id: 'pay_1', status: 'RECEIVED' },
    };

    it('reads PAYMENT_* as the payment, TRANSFER_* as the transfer; ignores the rest', async () => {
      expect(await h.adapter.processWebhook(h.ctx, notification(received))).toEqual({ type: 'TRANSACTION', transactionId: 'pay_1', status: 'APPROVED' });
      const transfer = { id: 'evt_2', event: 'TRANSFER_DONE', transfer: { object: 'transfer', id: 'tra_1', status: 'DONE' } };
      expect(await h.adapter.processWebhook(h.ctx, notification(transfer))).toEqual({ type: 'WITHDRAW', transactionId: 'tra_1', status: 'APPROVED' });
      for (const body of [{ id: 'evt_3', event: 'INVOICE_CREATED', invoice: { id: 'inv_1', status: 'PENDING' } }, { event: 'PAYMENT_RECEIVED' }, 'x'])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it("is deduplicated by Asaas's event id", () => {
      expect(h.adapter.notificationKey(h.ctx, notification(received))).toBe('asaas:evt_05b7&368604920');
    });

    it("checks asaas-access-token against the account's webhook secret; without the header (a stored one) it is unsigned", () => {
      const secret = { ...h.ctx, webhookSecret: 'token-of-32-characters-at-least-1' };
      const body = Buffer.from(JSON.stringify(received));
      expect(h.adapter.verifyNotification(secret, { body, headers: { 'asaas-access-token': 'token-of-32-characters-at-least-1' } })).toBe('valid');
      expect(h.adapter.verifyNotification(secret, { body, headers: { 'asaas-access-token': 'guess' } })).toBe('invalid');
      expect(h.adapter.verifyNotification(secret, { body, headers: {} })).toBe('unsigned');
      expect(h.adapter.verifyNotification(h.ctx, { body, headers: { 'asaas-access-token': 'anything' } })).toBe('unsigned');
    });
  });
});
