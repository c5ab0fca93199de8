import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  NOXPAY,
  NoxpayAdapter,
  noxpayChargeRequest,
  noxpayPayoutRequest,
  noxpaySignature,
  toNoxpayCharge,
  toNoxpayPayout,
} from '../../server/providers/noxpay/adapter.js';
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
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

/** NOXPAY (spec doc 2, group 1): its API as its SDK and integrations use it (research). */

const AUTH = { 'api-key': 'nox-key' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136noxpay-qr520400005303986540519.905802BR6304ABCD';
const DAY_MS = 86_400_000;

describe('NOXPAY (spec doc 2, group 1), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new NoxpayAdapter(NOXPAY, runtime), account: () => ({ publicKey: '', secretKey: 'nox-key' }) });

  it('offers PIX charges and payouts, their reads (one GET for both), webhooks and the balance; the rest is not implemented', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'getWithdraw', 'processWebhook', 'getAccountBalance']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    const terms = { amount: 19.9, webhookUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(noxpayChargeRequest, [toNoxpayCharge(transactionInput(), terms), toNoxpayCharge(bareTransactionInput({ idempotencyKey: 'idem-1' }), terms)]);
    expectBodiesOf(
      noxpayPayoutRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toNoxpayPayout({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType, withdrawReference: 'wd-1' }, 25)),
    );
  });

  it('charges by POST /payment {method PIX, code, amount in reais, webhook_url, client_*} with api-key; valid 1 day', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payment',
      headers: AUTH,
      body: { method: 'PIX', code: 'order-77', amount: 19.9, webhook_url: h.ctx.notificationUrl, client_name: 'Ana Souza', client_document: '12345678909' },
      reply: { body: { method: 'PIX', code: 'order-77', amount: 19.9, txid: 'nx_1', qrCodeText: PIX_CODE, status: 'WAITING_PAYMENT' } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'nx_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it.each([
    ['PAID', 'APPROVED'],
    ['WAITING_PAYMENT', 'PENDING'],
    ['REFUNDED', 'REFUNDED'],
    ['CHARGEBACK', 'CHARGEBACK'],
    ['CANCELED', 'CANCELED'],
    ['EXPIRED', 'REJECTED'],
    ['MYSTERY', 'REJECTED'],
  ])('reads GET /payment/{txid}: %s is %s', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/payment/nx_1', headers: AUTH, reply: { body: { method: 'PIX', txid: 'nx_1', status, amount: 19.9 } } });
    expect(await h.adapter.getTransaction(h.ctx, 'nx_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'nx_1', status: expected, amount: 1990 });
  });

  it("reads the answers as NoxPay's API document prints them: capitalised keys, PAY once paid (either direction)", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payment',
      reply: {
        body: {
          method: 'PIX',
          code: 'order-77',
          amount: 19.9,
          URL: 'https://noxpay.example/logo.svg',
          QRCode: 'aGk=',
          QRCodeText: PIX_CODE,
          txid: 'nx_1',
          Status: 'WAITING_PAYMENT',
        },
      },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({
      transactionId: 'nx_1',
      status: 'PENDING',
      amount: 1990,
      pixCode: PIX_CODE,
    });
    h.fake.expect({ method: 'GET', path: '/payment/nx_1', reply: { body: { Method: 'PIX', Status: 'PAY', Code: 'order-77', TxID: 'nx_1', Amount: 19.9 } } });
    expect(await h.adapter.getTransaction(h.ctx, 'nx_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'nx_1', status: 'APPROVED', amount: 1990 });
    h.fake.expect({ method: 'GET', path: '/payment/po_1', reply: { body: { Method: 'PIXOUT', Status: 'PAY', Code: 'wd-9', TxID: 'po_1', Amount: 25 } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'po_1')).toEqual({ withdrawId: 'po_1', status: 'APPROVED', amount: 2500 });
  });

  it("a paid charge's read states its end-to-end id (`end2end`, empty before payment); its receipt link is not kept", async () => {
    const read = { Method: 'PIX', Code: 'order-77', TxID: 'nx_1', Amount: 19.9 };
    h.fake.expect({ method: 'GET', path: '/payment/nx_1', reply: { body: { ...read, Status: 'WAITING_PAYMENT', end2end: '', receipt: '' } } });
    expect(await h.adapter.getTransaction(h.ctx, 'nx_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'nx_1', status: 'PENDING', amount: 1990 });
    const paidRead = { ...read, Status: 'PAY', end2end: 'E18236120202611291000s0a1b2c3d4e', receipt: 'https://noxpay.example/receipt/nx_1' };
    h.fake.expect({ method: 'GET', path: '/payment/nx_1', reply: { body: paidRead } });
    expect(await h.adapter.getTransaction(h.ctx, 'nx_1')).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'nx_1', status: 'APPROVED', amount: 1990 },
      pixPayment: { endToEndId: 'E18236120202611291000s0a1b2c3d4e' },
    });
  });

  it('pays out by POST /payment {method PIXOUT, code, amount, type PIX_KEY, pixkey} and reads it back by the same GET', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payment',
      headers: AUTH,
      body: { method: 'PIXOUT', code: 'wd-9', amount: 25, type: 'PIX_KEY', pixkey: '12345678909' },
      reply: { body: { method: 'PIXOUT', txid: 'po_1', status: 'PROCESSING', amount: 25 } },
    });
    const payout = { paymentMethod: 'PIX' as const, amount: 2500, pixKey: '123.456.789-09', pixType: 'CPF' as const, withdrawReference: 'wd-9' };
    expect(await h.adapter.withdraw(h.ctx, payout)).toEqual({ withdrawId: 'po_1', status: 'PENDING', amount: 2500 });
    h.fake.expect({ method: 'GET', path: '/payment/po_1', reply: { body: { method: 'PIXOUT', txid: 'po_1', status: 'PAID', amount: 25 } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'po_1')).toEqual({ withdrawId: 'po_1', status: 'APPROVED', amount: 2500 });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a payment or a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/payment', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/payment/nx_1', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'nx_1'))).code).toBe('UNAVAILABLE');
  });

  describe('a garbage 2xx answer is UNAVAILABLE under the operation prefix, never a status', () => {
    const payout = { paymentMethod: 'PIX' as const, amount: 2500, pixKey: '123.456.789-09', pixType: 'CPF' as const, withdrawReference: 'wd-9' };
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /payment', () => h.adapter.createTransaction(h.ctx, transactionInput())],
      ['getTransaction', 'GET /payment/nx_1', () => h.adapter.getTransaction(h.ctx, 'nx_1')],
      ['withdraw', 'POST /payment', () => h.adapter.withdraw(h.ctx, payout)],
      ['getWithdraw', 'GET /payment/po_1', () => h.adapter.getWithdraw(h.ctx, 'po_1')],
    ]);
  });

  it.each([
    ['a charge without its PIX code', 'POST', { txid: 'nx_1', status: 'WAITING_PAYMENT', amount: 19.9 }, 'qrcodetext'],
    ['a numeric status', 'GET', { txid: 'nx_1', status: 1, amount: 19.9 }, 'status'],
    ['a read without an amount', 'GET', { txid: 'nx_1', status: 'PAID' }, 'valor do pagamento'],
  ])('%s is UNAVAILABLE naming what is missing, never a status', async (_label, method, body, named) => {
    h.fake.expect({ method, path: method === 'POST' ? '/payment' : '/payment/nx_1', reply: { body } });
    const run = method === 'POST' ? h.adapter.createTransaction(h.ctx, transactionInput()) : h.adapter.getTransaction(h.ctx, 'nx_1');
    const { code, message } = await failure(run);
    expect([code, message]).toEqual(['UNAVAILABLE', expect.stringContaining(named)]);
  });

  describe('the account balance (GET /account, NoxPay API document)', () => {
    it('reads `balance` in reais as cents, with no pending figure', async () => {
      h.fake.expect({ method: 'GET', path: '/account', headers: AUTH, reply: { body: { name: 'NoxPay', balance: 389.6 } } });
      expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: 38_960, currency: 'BRL' });
      h.fake.expect({ method: 'GET', path: '/account', headers: AUTH, reply: { body: { name: 'Loja', balance: 0.29 } } });
      expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: 29, currency: 'BRL' });
    });

    it("an answer without a balance is a bad answer; NoxPay's refusal keeps its words under the balance prefix", async () => {
      h.fake.expect({ method: 'GET', path: '/account', reply: { body: { name: 'NoxPay' } } });
      expect(await failure(h.adapter.getAccountBalance(h.ctx))).toMatchObject({ code: 'UNAVAILABLE' });
      h.fake.expect({ method: 'GET', path: '/account', reply: { status: 401, body: 'invalid api-key' } });
      expect(await failure(h.adapter.getAccountBalance(h.ctx))).toMatchObject({ message: 'Erro ao consultar saldo: invalid api-key' });
    });
  });

  describe('webhooks', () => {
    const paid = { id: 7, txid: 'nx_1', code: 'order-77', amount: 19.9, status: 'PAID', pix_end2end_id: 'E123' };
    const E2E = 'E18236120202611291000s0a1b2c3d4e';

    it('reads the payment (a PIXOUT is a payout); ignores what it cannot use', async () => {
      expect(await h.adapter.processWebhook(h.ctx, notification(paid))).toEqual({
        ...{ type: 'TRANSACTION', transactionId: 'nx_1', status: 'APPROVED' },
        pixPayment: { endToEndId: 'E123' },
      });
      expect(await h.adapter.processWebhook(h.ctx, notification({ ...paid, txid: 'po_1', method: 'PIXOUT' }))).toEqual({
        type: 'WITHDRAW',
        transactionId: 'po_1',
        status: 'APPROVED',
      });
      for (const body of [{ txid: 'nx_1' }, 'not json', { status: 'PAID' }]) expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
      expect(h.adapter.notificationKey(h.ctx, notification(paid))).toBe('transaction:nx_1:paid');
    });

    it("a paid charge's webhook states its PIX payment: pix_end2end_id, the payer's receipt_name and receipt_cpf_cnpj", async () => {
      const documented = { ...paid, merchant_id: 999, created_at_date: '2024-11-18T18:51:30.501559Z' };
      const payer = { receipt_name: 'Customer Name', receipt_cpf_cnpj: '25951519837', pix_end2end_id: E2E };
      expect(await h.adapter.processWebhook(h.ctx, notification({ ...documented, ...payer }))).toEqual({
        ...{ type: 'TRANSACTION', transactionId: 'nx_1', status: 'APPROVED' },
        pixPayment: { endToEndId: E2E, payerName: 'Customer Name', payerDocument: '25951519837' },
      });
      // Empty or unreadable facts are left out and never cost the notification its status; a payout's id is not kept.
      const unreadable = { ...documented, receipt_name: '', receipt_cpf_cnpj: 25951519837, pix_end2end_id: null };
      expect(await h.adapter.processWebhook(h.ctx, notification(unreadable))).toEqual({ type: 'TRANSACTION', transactionId: 'nx_1', status: 'APPROVED' });
      expect(await h.adapter.processWebhook(h.ctx, notification({ ...documented, ...payer, method: 'PIXOUT' }))).toEqual({
        ...{ type: 'WITHDRAW', transactionId: 'nx_1', status: 'APPROVED' },
      });
    });

    it('checks X-Signature = base64(SHA-256(secret + raw body)) when the account has a webhook secret; unsigned otherwise', () => {
      const body = Buffer.from(JSON.stringify(paid));
      const withSecret = { ...h.ctx, webhookSecret: 'whsec' };
      const signature = noxpaySignature('whsec', body);
      expect(signature).toBe(createHash('sha256').update(`whsec${body.toString()}`).digest('base64'));
      expect(h.adapter.verifyNotification(withSecret, { body, headers: { 'x-signature': signature } })).toBe('valid');
      expect(h.adapter.verifyNotification(withSecret, { body, headers: { 'x-signature': noxpaySignature('other', body) } })).toBe('invalid');
      expect(h.adapter.verifyNotification(withSecret, { body, headers: {} })).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, { body, headers: {} })).toBe('unsigned');
    });
  });
});
