import { describe, expect, it } from '@jest/globals';
import type { PixKeyType, WithdrawInput } from '../../server/domain/types.js';
import { CATALOGUE, FAILURE_PREFIXES } from '../../server/lib/providerMessages.js';
import {
  RAPDYN,
  RapdynAdapter,
  rapdynPaymentRequest,
  rapdynRefundRequest,
  rapdynTransferRequest,
  toRapdynPayment,
  toRapdynRefund,
  toRapdynTransfer,
} from '../../server/providers/rapdyn/adapter.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES } from '../support/fakeProvider.js';
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

/** RAPDYN (spec doc 3, group 3): PIX and card charges, card tokens, reads, refunds, PIX payouts and postbacks. */

const AUTH = { authorization: 'Bearer rpd_sk_1' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136rapdyn-qr5204000053039865406019.905802BR6304ABCD';
const DAY_MS = 86_400_000;
const payout = (pixKey: string, pixType: PixKeyType): WithdrawInput => ({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType });

describe('RAPDYN (spec doc 3, group 3), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new RapdynAdapter(RAPDYN, runtime), account: () => ({ publicKey: 'rpd_pk_1', secretKey: 'rpd_sk_1' }) });

  it('offers what §7 shows: charges, reads, refunds, card tokens, PIX payouts (no lookup path) and postbacks; the rest is not implemented', async () => {
    expect(h.adapter.operations).toEqual(['createCardToken', 'createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by RAPDYN',
    });
  });

  it('requires its secret key at the door and before any call; card tokens also need the public key of their query', async () => {
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect(await failure(h.adapter.getTransaction({ ...h.ctx, secretKey: '' }, 'p1'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'secretKey is required',
    });
    const card = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '7', expYear: '31', cvv: '123' };
    expect(await failure(h.adapter.createCardToken({ ...h.ctx, publicKey: '' }, card))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'publicKey is required',
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it('tokenises a card by POST /card-token?publicKey with the digits, a two-digit month and a four-digit year (§5, §7)', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/card-token',
      query: { publicKey: 'rpd_pk_1' },
      headers: AUTH,
      body: { number: '4111111111111111', holderName: 'Ana Souza', expirationMonth: '07', expirationYear: '2031', cvv: '123' },
      reply: { body: { token: 'tok_1' } },
    });
    const card = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '7', expYear: '31', cvv: '123' };
    expect(await h.adapter.createCardToken(h.ctx, card)).toBe('tok_1');
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    const terms = { amount: (cents: number) => cents, notificationUrl: 'https://gateway.example/webhooks/acc_1' };
    const company = { name: 'ACME', email: 'a@b.c', document: '11.222.333/0001-81', phone: '(11) 3333-4444' };
    expectBodiesOf(rapdynPaymentRequest, [
      toRapdynPayment(transactionInput(), terms),
      toRapdynPayment(bareTransactionInput({ paymentMethod: 'BILLET', customer: company }), terms),
      toRapdynPayment(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', installments: 3 }), terms),
    ]);
    expectBodiesOf(rapdynRefundRequest, [toRapdynRefund(500)]);
    expectBodiesOf(
      rapdynTransferRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toRapdynTransfer({ pixKey, pixType }, 2500)),
    );
  });

  it('creates a PIX payment by POST /payments: cents, method pix, the checked customer, products; valid 1 day (§9)', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      headers: AUTH,
      body: {
        amount: 1990,
        method: 'pix',
        external_id: 'order-77',
        customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', document: { type: 'CPF', value: '12345678909' } },
        products: [{ name: 'Curso', price: 1990, quantity: 1, type: 'digital' }],
        postback_url: h.ctx.notificationUrl,
      },
      reply: { status: 201, body: { id: 'pay_1', status: 'pending', amount: 1990, pix: { copy_paste: PIX_CODE } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'pay_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('charges a card with its token (a card without one is refused before sending); a CNPJ customer is typed CNPJ', async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual(CATALOGUE.CARD_ID_REQUIRED);
    const customer = { name: 'Loja Ana', email: 'loja@example.com', document: '12.345.678/0001-95', phone: '+55 11 98765-4321' };
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      body: {
        amount: 1990,
        method: 'credit_card',
        customer: { name: 'Loja Ana', email: 'loja@example.com', phone: '11987654321', document: { type: 'CNPJ', value: '12345678000195' } },
        products: [{ name: 'Pagamento', price: 1990, quantity: 1, type: 'digital' }],
        card_token: 'tok_1',
        installments: 3,
        postback_url: h.ctx.notificationUrl,
      },
      reply: { body: { data: { id: 'pay_2', status: 'approved' } } },
    });
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', installments: 3, customer, items: [], orderId: undefined });
    expect(await h.adapter.createTransaction(h.ctx, input)).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: 'pay_2', status: 'APPROVED', amount: 1990 });
  });

  it.each([
    ['a 10-digit CPF', { document: '1234567890' }, 'RAPDYN_INVALID_CPF'],
    ['a 13-digit CNPJ', { document: '1234567800019' }, 'RAPDYN_INVALID_CNPJ'],
    ['a 9-digit phone', { phone: '98765-4321' }, 'RAPDYN_INVALID_PHONE'],
  ] as const)("refuses %s with Rapdyn's text, before anything is sent (§5)", async (_label, change, key) => {
    const customer = { ...transactionInput().customer!, ...change };
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ customer })))).toEqual(CATALOGUE[key]);
    expect(h.fake.received).toHaveLength(0);
  });

  it.each([
    ['waiting', 'PENDING'],
    ['processing', 'PENDING'],
    ['paid', 'APPROVED'],
    ['authorized', 'APPROVED'],
    ['refunded', 'REFUNDED'],
    ['chargeback', 'CHARGEBACK'],
    ['in_protest', 'CHARGEBACK'],
    ['mystery', 'REJECTED'],
  ])('reads GET /transactions/{id}: %s is %s (doc 3 §4, unknown REJECTED)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/transactions/pay_1', headers: AUTH, reply: { body: { id: 'pay_1', status, amount: 1990, method: 'credit_card' } } });
    expect(await h.adapter.getTransaction(h.ctx, 'pay_1')).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: 'pay_1', status: expected, amount: 1990 });
  });

  it('refunds by PUT /payments/refund/{id} with the amount in cents; a refused refund is status false', async () => {
    h.fake.expect({
      method: 'PUT',
      path: '/payments/refund/pay_1',
      headers: AUTH,
      body: { amount: 500 },
      reply: { body: { refund_id: 'rf_1', status: 'refunded' } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_1', 500)).toEqual({ refundId: 'rf_1', status: true });
    h.fake.expect({ method: 'PUT', path: '/payments/refund/pay_1', reply: { body: { status: 'refused' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_1', 500)).toEqual({ refundId: 'pay_1', status: false });
  });

  it.each([
    [payout('123.456.789-09', 'CPF'), 'CPF', '12345678909'],
    [payout('12.345.678/0001-95', 'CNPJ'), 'CNPJ', '12345678000195'],
    [payout('+55 (11) 98765-4321', 'PHONE'), 'PHONE', '11987654321'],
    [payout('seller@example.com', 'EMAIL'), 'EMAIL', 'seller@example.com'],
    [payout('c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM'), 'EVP', 'c873834c-ed18-4e63-8e5d-90190392b744'],
  ])('pays out by POST /transfers/out {pix_key_type, pix_key, value}: %j (RANDOM as EVP, §5)', async (input, type, key) => {
    h.fake.expect({
      method: 'POST',
      path: '/transfers/out',
      headers: AUTH,
      body: { pix_key_type: type, pix_key: key, value: 2500 },
      reply: { body: { transfer_id: 'tr_1', status: 'processing' } },
    });
    expect(await h.adapter.withdraw(h.ctx, input)).toEqual({ withdrawId: 'tr_1', status: 'PENDING', amount: 2500 });
  });

  it('checks CPF, CNPJ and phone keys like the customer (§5), before anything is sent', async () => {
    expect(await failure(h.adapter.withdraw(h.ctx, payout('1234', 'CPF')))).toEqual(CATALOGUE.RAPDYN_INVALID_CPF);
    expect(await failure(h.adapter.withdraw(h.ctx, payout('1234', 'CNPJ')))).toEqual(CATALOGUE.RAPDYN_INVALID_CNPJ);
    expect(await failure(h.adapter.withdraw(h.ctx, payout('1234', 'PHONE')))).toEqual(CATALOGUE.RAPDYN_INVALID_PHONE);
    expect(h.fake.received).toHaveLength(0);
  });

  it("a refused payout is 'Houve um erro ao tentar realizar o saque' followed by the response data (§8)", async () => {
    const data = { error: 'saldo insuficiente', code: 'E42' };
    h.fake.expect({ method: 'POST', path: '/transfers/out', reply: { status: 422, body: data } });
    expect(await failure(h.adapter.withdraw(h.ctx, payout('seller@example.com', 'EMAIL')))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: `Houve um erro ao tentar realizar o saque: ${JSON.stringify(data)}`,
    });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a charge, a payout or a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/transactions/pay_1', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'pay_1'))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/transfers/out', reply: { body } });
    expect((await failure(h.adapter.withdraw(h.ctx, payout('seller@example.com', 'EMAIL')))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'PUT', path: '/payments/refund/pay_1', reply: { body } });
    expect((await failure(h.adapter.refoundTransaction(h.ctx, 'pay_1', 500))).code).toBe('UNAVAILABLE');
  });

  it('a PIX charge created without its copy-paste code is UNAVAILABLE (nobody could pay it)', async () => {
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body: { id: 'pay_1', status: 'pending' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: resposta do provedor em formato inesperado (pix.copy_paste: custom)',
    });
  });

  describe('a garbage 2xx answer is UNAVAILABLE under the operation prefix, never a status', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /payments', () => h.adapter.createTransaction(h.ctx, transactionInput())],
      ['createTransaction', 'POST /payments', () => h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1' }))],
      ['getTransaction', 'GET /transactions/pay_1', () => h.adapter.getTransaction(h.ctx, 'pay_1')],
      ['refoundTransaction', 'PUT /payments/refund/pay_1', () => h.adapter.refoundTransaction(h.ctx, 'pay_1', 500)],
      ['withdraw', 'POST /transfers/out', () => h.adapter.withdraw(h.ctx, payout('seller@example.com', 'EMAIL'))],
    ]);
  });

  it.each(GARBAGE_2XX_BODIES)('a card token answered with %s is UNAVAILABLE under the card token prefix, never a token', async (_label, body) => {
    const card = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '7', expYear: '31', cvv: '123' };
    h.fake.expect({ method: 'POST', path: '/card-token', reply: { body } });
    const { code, message } = await failure(h.adapter.createCardToken(h.ctx, card));
    expect([code, message.startsWith(`${FAILURE_PREFIXES.CREATE_CARD_TOKEN}: `)]).toEqual(['UNAVAILABLE', true]);
  });

  it.each([
    ['a numeric status', { id: 'pay_1', status: 2, amount: 1990 }, 'status'],
    ['an amount that is not money', { id: 'pay_1', status: 'paid', amount: 'R$ 19,90' }, 'amount'],
    ['no amount', { id: 'pay_1', status: 'paid' }, 'amount'],
  ])('a read answered with %s names the field at fault, never a status', async (_label, body, field) => {
    h.fake.expect({ method: 'GET', path: '/transactions/pay_1', reply: { body } });
    const { code, message } = await failure(h.adapter.getTransaction(h.ctx, 'pay_1'));
    expect([code, message]).toEqual([
      'UNAVAILABLE',
      expect.stringContaining(`Erro ao buscar transação: resposta do provedor em formato inesperado (${field}: `),
    ]);
  });

  describe('postbacks (no public shape: the charge itself, unsigned, confirmed by the gateway through GET)', () => {
    it.each([
      [{ id: 'pay_1', status: 'paid' }, 'APPROVED'],
      [{ id: 'evt_3', data: { id: 'pay_1', status: 'chargeback' } }, 'CHARGEBACK'],
    ])('reads %j', async (body, status) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: 'pay_1', status });
    });

    it.each([
      ['no status', { id: 'pay_1' }],
      ['not JSON', '<html>'],
      ['a number', 42],
    ])('ignores a body with %s', async (_label, body) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it("is deduplicated by the event's id where it has one, else by the charge's id and status", () => {
      const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
      expect(key({ id: 'evt_3', data: { id: 'pay_1', status: 'paid' } })).toBe('event:evt_3');
      expect(key({ id: 'pay_1', status: 'paid' })).toBe('transaction:pay_1:paid');
    });
  });
});
