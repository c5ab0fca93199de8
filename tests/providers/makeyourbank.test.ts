import { describe, expect, it } from '@jest/globals';
import type { ReceiverInput, WithdrawInput } from '../../server/domain/types.js';
import {
  MAKEYOURBANK,
  MakeYourBankAdapter,
  mybPixWithdrawalRequest,
  mybReceiverRequest,
  mybRefundRequest,
  mybTransactionRequest,
  toMybPixWithdrawal,
  toMybReceiver,
  toMybRefund,
  toMybTransaction,
} from '../../server/providers/makeyourbank/adapter.js';
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

const KEYS = { publicKey: 'mkt_1|sel_9', secretKey: 'zpk_live_1' };
/** Basic with the API key as user and no password (Zoop's style), and every body form-encoded (§7). */
const AUTH = { authorization: `Basic ${Buffer.from('zpk_live_1:').toString('base64')}` };
const FORM = { ...AUTH, 'content-type': /^application\/x-www-form-urlencoded/ };
const TRANSACTIONS = '/marketplaces/mkt_1/sellers/sel_9/transactions';
const EMV = '00020126580014br.gov.bcb.pix0136myb-qr-id5204000053039865406019.905802BR5907MYBANK6009SAO PAULO62070503***6304ABCD';
const DAY_MS = 86_400_000;

const withdrawInput = (extra: Partial<WithdrawInput> = {}): WithdrawInput => ({
  paymentMethod: 'PIX',
  amount: 2500,
  pixKey: '(11) 98765-4321',
  pixType: 'PHONE',
  withdrawReference: 'wd-ref-1',
  name: 'Ana Souza',
  document: '123.456.789-09',
  ...extra,
});

const receiverInput: ReceiverInput = {
  name: 'Loja Azul',
  document: '12.345.678/0001-95',
  email: 'loja@example.com',
  description: 'Loja de roupas',
  userId: 'user-1',
  bankAccount: {
    ...{ bankCode: '341', branchNumber: '1234', branchDigit: '5', accountNumber: '98765', accountDigit: '0' },
    ...{ accountType: 'checking', pixCode: 'loja@example.com' },
  },
  address: { street: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zipcode: '01001-000' },
};

describe('MAKEYOURBANK (spec doc 3, group 3)', () => {
  const h = providerHarness({ create: (runtime) => new MakeYourBankAdapter(MAKEYOURBANK, runtime), account: () => KEYS });

  it('offers charges, refunds, PIX payouts, receivers and notifications; the rest reject with the spec text', async () => {
    expect(h.adapter.operations).toEqual([
      ...['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw'],
      ...['createReceiver', 'getReceiver', 'processWebhook'],
    ]);
    expect(h.adapter.capabilities.paymentMethods).toEqual(['PIX', 'CREDIT_CARD', 'BILLET']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
  });

  it('declares the 25 s timeout, PIX 1 day and billet 7 days (§9)', () => {
    expect(MAKEYOURBANK.timeoutMs).toBe(25_000);
    expect(new MakeYourBankAdapter().catalogue).toMatchObject({ pixSeconds: 86_400, boletoSeconds: 7 * 86_400, money: 'cents' });
  });

  it.each([
    [{ publicKey: '' }, 'publicKey is required'],
    [{ secretKey: '' }, 'secretKey is required'],
    [{ publicKey: 'mkt_1' }, 'Formato de credenciais inválido. Use: marketplaceId|sellerId'],
    [{ publicKey: 'mkt_1|sel_9|x' }, 'Formato de credenciais inválido. Use: marketplaceId|sellerId'],
  ])('refuses the keys %j at the door and before any call', async (keys, message) => {
    expect(() => h.adapter.checkAccount({ ...KEYS, ...keys })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
    expect(await failure(h.adapter.getTransaction({ ...h.ctx, ...keys }, 'pay_1'))).toEqual({ code: 'FAILED_PRECONDITION', message });
  });

  it("builds bodies of its request schemas (the adapter's form section)", () => {
    const terms = { amount: 1990, splitAmount: (cents: number) => cents, expiresAt: NOW, notificationUrl: 'https://gateway.example/webhooks/acc_1' };
    const address = { address: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zipCode: '01001-000' };
    const splits = [
      { recipientId: 're_1', amount: 500, type: 'FIXED' as const, chargeProcessingFee: true, chargeRemainder: false, liable: true },
      { recipientId: 're_2', amount: 10, type: 'PERCENTAGE' as const, chargeProcessingFee: false, chargeRemainder: true, liable: false },
    ];
    expectBodiesOf(mybTransactionRequest, [
      toMybTransaction(transactionInput({ description: 'Curso', address }), terms),
      toMybTransaction(bareTransactionInput({ paymentMethod: 'BILLET' }), terms),
      toMybTransaction(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', installments: 3, splits }), terms),
    ]);
    expectBodiesOf(mybRefundRequest, [toMybRefund(500)]);
    expectBodiesOf(mybPixWithdrawalRequest, [
      ...PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toMybPixWithdrawal({ ...withdrawInput(), pixKey, pixType }, 2500)),
      toMybPixWithdrawal({ paymentMethod: 'PIX', amount: 2500, pixKey: 'ana@example.com', pixType: 'EMAIL' }, 2500),
    ]);
    expectBodiesOf(mybReceiverRequest, [
      toMybReceiver(receiverInput),
      toMybReceiver({ ...receiverInput, document: '123.456.789-09', bankAccount: undefined, address: undefined }),
    ]);
  });

  it("creates a PIX charge on the account's marketplace and seller path, form-encoded, in cents, valid 1 day", async () => {
    h.fake.expect({
      method: 'POST',
      path: TRANSACTIONS,
      headers: FORM,
      body: {
        ...{ amount: '1990', currency: 'BRL', payment_type: 'pix', reference_id: 'order-77', callback_url: h.ctx.notificationUrl },
        ...{ 'customer[name]': 'Ana Souza', 'customer[email]': 'ana@example.com', 'customer[document]': '12345678909', 'customer[phone]': '11987654321' },
        'payment_method[expiration_date]': new Date(NOW.getTime() + DAY_MS).toISOString(),
      },
      reply: { body: { id: 'pay_1', status: 'pending', amount: 1990, payment_type: 'pix', payment_method: { qr_code: { emv: EMV } } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'pay_1', status: 'PENDING', amount: 1990, pixCode: EMV },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('creates a billet valid 7 days and returns its code and URL', async () => {
    h.fake.expect({
      method: 'POST',
      path: TRANSACTIONS,
      headers: FORM,
      body: {
        amount: '1990',
        currency: 'BRL',
        payment_type: 'boleto',
        callback_url: h.ctx.notificationUrl,
        'payment_method[expiration_date]': new Date(NOW.getTime() + 7 * DAY_MS).toISOString(),
      },
      reply: { body: { id: 'pay_2', status: 'pending', payment_type: 'boleto', payment_method: { barcode: '34191.79001 01043', url: 'https://b/2.pdf' } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET', customer: undefined, orderId: undefined }))).toEqual({
      ...{ paymentMethod: 'BILLET', transactionId: 'pay_2', status: 'PENDING', amount: 1990 },
      ...{ billetCode: '34191.79001 01043', billetUrl: 'https://b/2.pdf', expiresAt: new Date(NOW.getTime() + 7 * DAY_MS) },
    });
  });

  it('charges a card by its token, with installments and split rules; a card charge without one is refused before calling', async () => {
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', installments: 3, customer: undefined, orderId: undefined });
    h.fake.expect({
      method: 'POST',
      path: TRANSACTIONS,
      headers: FORM,
      body: {
        ...{ amount: '1990', currency: 'BRL', payment_type: 'credit', callback_url: h.ctx.notificationUrl, token: 'tok_1' },
        ...{ 'installment_plan[number_installments]': '3', 'split_rules[0][recipient]': 'rcv_1', 'split_rules[0][amount]': '500' },
        ...{ 'split_rules[0][liable]': 'true', 'split_rules[0][charge_processing_fee]': 'false' },
        ...{ 'split_rules[1][recipient]': 'rcv_2', 'split_rules[1][percentage]': '10' },
        ...{ 'split_rules[1][liable]': 'false', 'split_rules[1][charge_processing_fee]': 'true' },
      },
      reply: { body: { id: 'pay_3', status: 'succeeded', amount: 1990, payment_type: 'credit' } },
    });
    expect(
      await h.adapter.createTransaction(h.ctx, {
        ...input,
        splits: [
          { recipientId: 'rcv_1', amount: 500, type: 'FIXED', liable: true, chargeProcessingFee: false, chargeRemainder: false },
          { recipientId: 'rcv_2', amount: 10, type: 'PERCENTAGE', liable: false, chargeProcessingFee: true, chargeRemainder: true },
        ],
      }),
    ).toEqual({
      ...{ paymentMethod: 'CREDIT_CARD', transactionId: 'pay_3', status: 'APPROVED', amount: 1990 },
    });
    expect(await failure(h.adapter.createTransaction(h.ctx, { ...input, cardId: undefined }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'cardId is required for credit card transactions',
    });
  });

  describe('a 2xx answer without what the operation needs is the spec error, UNAVAILABLE (§5, §8)', () => {
    it.each([
      ['PIX code', 'PIX' as const, { id: 'pay_1', status: 'pending', payment_type: 'pix' }, 'MakeYourBank não retornou o código PIX'],
      [
        'billet code',
        'BILLET' as const,
        { id: 'pay_2', status: 'pending', payment_method: { url: 'https://b/2.pdf' } },
        'MakeYourBank não retornou o código do boleto',
      ],
      ['billet URL', 'BILLET' as const, { id: 'pay_2', status: 'pending', payment_method: { barcode: '3419' } }, 'MakeYourBank não retornou a URL do boleto'],
    ])('a charge without its %s', async (_what, paymentMethod, body, message) => {
      h.fake.expect({ method: 'POST', path: TRANSACTIONS, reply: { body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod })))).toEqual({ code: 'UNAVAILABLE', message });
    });

    it('a refund, a payout and a receiver without their ids', async () => {
      h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', reply: { body: { status: 'succeeded' } } });
      expect(await failure(h.adapter.refoundTransaction(h.ctx, 'pay_1', 500))).toEqual({
        code: 'UNAVAILABLE',
        message: 'MakeYourBank não retornou o ID do estorno',
      });
      h.fake.expect({ method: 'POST', path: '/withdrawals/pix', reply: { body: { status: 'pending', amount: 2500 } } });
      expect(await failure(h.adapter.withdraw(h.ctx, withdrawInput()))).toEqual({ code: 'UNAVAILABLE', message: 'MakeYourBank não retornou o ID do saque' });
      h.fake.expect({ method: 'POST', path: '/receivers', reply: { body: { status: 'active' } } });
      expect(await failure(h.adapter.createReceiver(h.ctx, receiverInput))).toEqual({
        code: 'UNAVAILABLE',
        message: 'MakeYourBank não retornou o ID do recebedor',
      });
    });

    it.each([
      ['a numeric status', { id: 'pay_1', status: 1, amount: 1990, payment_method: { qr_code: { emv: EMV } } }, 'status'],
      ['an object id', { id: { v: 'pay_1' }, status: 'pending', amount: 1990, payment_method: { qr_code: { emv: EMV } } }, 'id'],
      ['a non-numeric amount', { id: 'pay_1', status: 'pending', amount: 'mil', payment_method: { qr_code: { emv: EMV } } }, 'amount'],
      ['a numeric PIX code', { id: 'pay_1', status: 'pending', amount: 1990, payment_method: { qr_code: { emv: 7 } } }, 'payment_method.qr_code.emv'],
    ])("a charge or read answered with %s is the kit's bad answer (UNAVAILABLE), never a status", async (_label, body, field) => {
      h.fake.expect({ method: 'POST', path: TRANSACTIONS, reply: { body } });
      h.fake.expect({ method: 'GET', path: '/payments/pay_1', reply: { body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(new RegExp(`^Erro ao criar transação: resposta do provedor em formato inesperado \\(${field}:`)),
      });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'pay_1'))).toEqual({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(new RegExp(`^Erro ao buscar transação: resposta do provedor em formato inesperado \\(${field}:`)),
      });
    });

    it("a refund, a payout or a receiver whose id, status or amount has the wrong type is the kit's bad answer, not the missing-id text", async () => {
      h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', reply: { body: { id: { v: 'rf_1' }, status: 'succeeded' } } });
      h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', reply: { body: { id: 'rf_1', status: false } } });
      h.fake.expect({ method: 'POST', path: '/withdrawals/pix', reply: { body: { id: 'wd_1', status: 3, amount: 2500 } } });
      h.fake.expect({ method: 'GET', path: '/withdrawals/wd_1', reply: { body: { id: 'wd_1', status: 'succeeded', amount: 'muito' } } });
      h.fake.expect({ method: 'GET', path: '/receivers/rcv_1', reply: { body: { id: 'rcv_1', status: 'active', balance: 'cheio' } } });
      const bad = (prefix: string) => ({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(new RegExp(`^${prefix}: resposta do provedor em formato inesperado`)),
      });
      expect(await failure(h.adapter.refoundTransaction(h.ctx, 'pay_1', 500))).toEqual(bad('Erro ao estornar transação'));
      expect(await failure(h.adapter.refoundTransaction(h.ctx, 'pay_1', 500))).toEqual(bad('Erro ao estornar transação'));
      expect(await failure(h.adapter.withdraw(h.ctx, withdrawInput()))).toEqual(bad('Erro ao realizar saque'));
      expect(await failure(h.adapter.getWithdraw(h.ctx, 'wd_1'))).toEqual(bad('Erro ao buscar saque'));
      expect((await failure(h.adapter.getReceiver(h.ctx, 'rcv_1'))).code).toBe('UNAVAILABLE');
    });

    it('a read without any amount is UNAVAILABLE (the payment or the payout asked for has one)', async () => {
      h.fake.expect({ method: 'GET', path: '/payments/pay_1', reply: { body: { id: 'pay_1', status: 'succeeded' } } });
      h.fake.expect({ method: 'GET', path: '/withdrawals/wd_1', reply: { body: { id: 'wd_1', status: 'succeeded' } } });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'pay_1'))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao buscar transação: resposta do provedor sem valor do pagamento',
      });
      expect(await failure(h.adapter.getWithdraw(h.ctx, 'wd_1'))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao buscar saque: resposta do provedor sem valor do saque',
      });
    });

    it.each(BODIES_WITHOUT_RESOURCE)('reads answered with %s are UNAVAILABLE, never a status', async (_label, body) => {
      h.fake.expect({ method: 'POST', path: TRANSACTIONS, reply: { body } });
      expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
      for (const path of ['/payments/pay_1', '/withdrawals/wd_1', '/receivers/rcv_1']) h.fake.expect({ method: 'GET', path, reply: { body } });
      expect((await failure(h.adapter.getTransaction(h.ctx, 'pay_1'))).code).toBe('UNAVAILABLE');
      expect((await failure(h.adapter.getWithdraw(h.ctx, 'wd_1'))).code).toBe('UNAVAILABLE');
      expect((await failure(h.adapter.getReceiver(h.ctx, 'rcv_1'))).code).toBe('UNAVAILABLE');
    });
  });

  it.each([
    ['succeeded', 'APPROVED'],
    ['paid', 'APPROVED'],
    ['pending', 'PENDING'],
    ['pre_authorized', 'PENDING'],
    ['failed', 'REJECTED'],
    ['canceled', 'REJECTED'],
    ['refunded', 'REFUNDED'],
    ['reversed', 'REFUNDED'],
    ['charged_back', 'CHARGEBACK'],
    ['in_dispute', 'CHARGEBACK'],
    ['mystery', 'PENDING'],
  ])('reads GET /payments/{id}: %s → %s (unknown PENDING, §4)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', headers: AUTH, reply: { body: { id: 'pay_1', status, amount: 1990, payment_type: 'pix' } } });
    expect(await h.adapter.getTransaction(h.ctx, 'pay_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'pay_1', status: expected, amount: 1990 });
    expect(h.warn).toHaveBeenCalledTimes(status === 'mystery' ? 1 : 0);
  });

  it('refunds by POST /payments/{id}/refund with the amount in cents; a refused refund is status false', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments/pay_1/refund',
      headers: FORM,
      body: { amount: '500' },
      reply: { body: { id: 'rf_1', status: 'succeeded' } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_1', 500)).toEqual({ refundId: 'rf_1', status: true });
    h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', reply: { body: { id: 'rf_2', status: 'failed' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_1', 500)).toEqual({ refundId: 'rf_2', status: false });
  });

  it('pays out by POST /withdrawals/pix, form-encoded, in cents, with the key typed in lower case', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/withdrawals/pix',
      headers: FORM,
      body: {
        ...{ amount: '2500', pix_key: '+5511987654321', pix_key_type: 'phone', description: 'Saque solicitado', reference_id: 'wd-ref-1' },
        ...{ 'recipient[name]': 'Ana Souza', 'recipient[document]': '12345678909' },
      },
      reply: { body: { id: 'wd_1', status: 'succeeded', amount: 2500, transferred_at: '2025-03-10T12:00:05Z' } },
    });
    expect(await h.adapter.withdraw(h.ctx, withdrawInput())).toEqual({
      ...{ withdrawId: 'wd_1', amount: 2500, status: 'APPROVED', approvedAt: new Date('2025-03-10T12:00:05Z') },
    });
    const key = '123e4567-e89b-12d3-a456-426655440000';
    h.fake.expect({
      method: 'POST',
      path: '/withdrawals/pix',
      body: { amount: '100', pix_key: key, pix_key_type: 'evp', description: 'Pagamento', reference_id: 'idem-1' },
      reply: { body: { id: 'wd_2', status: 'processing' } },
    });
    const random = { paymentMethod: 'PIX' as const, amount: 100, pixKey: key, pixType: 'RANDOM' as const, description: 'Pagamento', idempotencyKey: 'idem-1' };
    expect(await h.adapter.withdraw(h.ctx, random)).toEqual({ withdrawId: 'wd_2', amount: 100, status: 'PENDING' });
  });

  it('refuses payouts other than PIX, and PIX payouts without a key type, before calling', async () => {
    expect(await failure(h.adapter.withdraw(h.ctx, withdrawInput({ paymentMethod: 'BANK_ACCOUNT' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Método de saque não implementado',
    });
    expect((await failure(h.adapter.withdraw(h.ctx, withdrawInput({ pixType: undefined })))).code).toBe('INVALID_ARGUMENT');
  });

  it.each([
    ['pending', 'PENDING'],
    ['succeeded', 'APPROVED'],
    ['failed', 'REJECTED'],
    ['canceled', 'CANCELED'],
    ['mystery', 'PENDING'],
  ])('reads GET /withdrawals/{id}: %s → %s', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/withdrawals/wd_1', headers: AUTH, reply: { body: { id: 'wd_1', status, amount: 2500 } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'wd_1')).toEqual({ withdrawId: 'wd_1', amount: 2500, status: expected });
  });

  it('creates a receiver by POST /receivers, form-encoded, with its bank account and address', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/receivers',
      headers: FORM,
      body: {
        ...{ name: 'Loja Azul', email: 'loja@example.com', document: '12345678000195', document_type: 'cnpj' },
        ...{ description: 'Loja de roupas', reference_id: 'user-1' },
        ...{ 'bank_account[bank_code]': '341', 'bank_account[branch_number]': '1234', 'bank_account[branch_digit]': '5' },
        ...{ 'bank_account[account_number]': '98765', 'bank_account[account_digit]': '0', 'bank_account[account_type]': 'checking' },
        'bank_account[pix_key]': 'loja@example.com',
        ...{ 'address[street]': 'Rua A', 'address[number]': '10', 'address[district]': 'Centro', 'address[city]': 'São Paulo' },
        ...{ 'address[state]': 'SP', 'address[zip_code]': '01001000' },
      },
      reply: { body: { id: 'rcv_1', status: 'under_review', balance: 0 } },
    });
    expect(await h.adapter.createReceiver(h.ctx, receiverInput)).toEqual({
      ...{ receiverId: 'rcv_1', receiverProvider: 'MAKEYOURBANK', status: 'PENDING', balance: 0 },
      ...{ name: 'Loja Azul', document: '12345678000195', documentType: 'CNPJ', email: 'loja@example.com' },
    });
  });

  it.each([
    ['active', 'ACTIVE'],
    ['approved', 'ACTIVE'],
    ['rejected', 'REJECTED'],
    ['cancelled', 'REJECTED'],
    ['pending', 'PENDING'],
    ['under_review', 'PENDING'],
  ])('reads GET /receivers/{id}: %s → %s (§4 receiver rule)', async (status, expected) => {
    h.fake.expect({
      method: 'GET',
      path: '/receivers/rcv_1',
      headers: AUTH,
      reply: { body: { id: 'rcv_1', status, name: 'Ana', email: 'a@b.c', document: '12345678909', balance: 1234 } },
    });
    expect(await h.adapter.getReceiver(h.ctx, 'rcv_1')).toEqual({
      ...{ receiverId: 'rcv_1', receiverProvider: 'MAKEYOURBANK', status: expected, balance: 1234 },
      ...{ name: 'Ana', document: '12345678909', documentType: 'CPF', email: 'a@b.c' },
    });
  });

  it('keeps the provider message under the common prefix when it refuses', async () => {
    h.fake.expect({ method: 'POST', path: '/withdrawals/pix', reply: { status: 422, body: { message: 'Saldo insuficiente' } } });
    expect(await failure(h.adapter.withdraw(h.ctx, withdrawInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao realizar saque: Saldo insuficiente',
    });
  });

  it('handles transaction.* and withdrawal.* events with their object, keyed by the event id; ignores the rest', async () => {
    const paid = { id: 'evt_1', type: 'transaction.succeeded', payload: { object: { id: 'pay_1', status: 'succeeded' } } };
    expect(await h.adapter.processWebhook(h.ctx, notification(paid))).toEqual({ type: 'TRANSACTION', transactionId: 'pay_1', status: 'APPROVED' });
    const payout = { id: 'evt_2', type: 'withdrawal.failed', payload: { object: { id: 'wd_1', status: 'failed' } } };
    expect(await h.adapter.processWebhook(h.ctx, notification(payout))).toEqual({ type: 'WITHDRAW', transactionId: 'wd_1', status: 'REJECTED' });
    for (const body of [
      { ...paid, type: 'seller.activated' },
      { ...paid, payload: { object: { id: 'pay_1' } } },
      { ...paid, type: undefined },
      '{not json',
      { ...paid, payload: { object: { id: 'pay_1', status: 5 } } },
      { ...paid, payload: { object: { id: ['pay_1'], status: 'succeeded' } } },
      { ...paid, type: 42 },
    ])
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    expect(h.adapter.notificationKey(h.ctx, notification(paid))).toBe('event:evt_1');
    expect(h.adapter.notificationKey(h.ctx, notification({ ...paid, id: undefined }))).toBe('transaction:pay_1:succeeded');
  });
});
