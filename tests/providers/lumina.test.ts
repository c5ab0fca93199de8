import { describe, expect, it } from '@jest/globals';
import { CATALOGUE, failureMessage } from '../../server/lib/providerMessages.js';
import { LUMINA, LuminaAdapter } from '../../server/providers/lumina/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';

/** LUMINA (spec doc 3, group 4): PIX and card charges, card tokens, refunds, notifications; no payouts. */

const AUTH = { authorization: 'Bearer lum_sk_1' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136lumina-qr5204000053039865406019.905802BR5906LUMINA6009SAO PAULO62070503***6304ABCD';
const DEFAULT_ADDRESS = { cep: '01001000', street: 'Não informado', number: 'S/N', district: 'Centro', city: 'São Paulo', state: 'SP' };
const ITEMS = [{ title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }];
const CUSTOMER = { name: 'Ana Souza', email: 'ana@example.com', document: { number: '12345678909', type: 'cpf' }, phone: '11987654321' };
const CARD = { cardNumber: '4111 1111 1111 1111', holderName: 'ANA SOUZA', holderDocument: '123.456.789-09', expMonth: '7', expYear: '30', cvv: '123' };

describe('LUMINA (spec doc 3, group 4), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new LuminaAdapter(LUMINA, runtime), account: () => ({ publicKey: '', secretKey: 'lum_sk_1' }) });

  it('offers card tokens, PIX and card charges, refunds and notifications; no payouts or receivers (§5)', async () => {
    expect(h.adapter.identity.specGroup).toBe('document 3 (group 4)');
    expect(h.adapter.operations).toEqual(['createCardToken', 'createTransaction', 'getTransaction', 'refoundTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
  });

  it("a billet is 'Método de pagamento não suportado'; a card charge without a card reference is refused; nothing is sent", async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual(CATALOGUE.METODO_PAGAMENTO_NAO_SUPORTADO);
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual(CATALOGUE.CARD_ID_REQUIRED);
    expect(h.fake.received).toHaveLength(0);
  });

  it('requires its secret key, at the door and before any call', async () => {
    expect(() => h.adapter.checkAccount({ publicKey: 'pk', secretKey: '' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect((await failure(h.adapter.getTransaction({ ...h.ctx, secretKey: '' }, 'tx_1'))).code).toBe('FAILED_PRECONDITION');
  });

  it('creates a PIX charge by POST /transaction.pixPayments: Bearer, cents, cpf for 11 digits, the §5 address defaults, 1-day validity (§9)', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transaction.pixPayments',
      headers: AUTH,
      body: {
        ...CUSTOMER,
        ...{
          paymentMethod: 'PIX',
          amount: 1990,
          traceable: true,
          items: ITEMS,
          ...DEFAULT_ADDRESS,
          externalId: 'order-77',
          postbackUrl: h.ctx.notificationUrl,
        },
      },
      reply: { status: 201, body: { _body: { id: 'tx_1', status: 'PENDING', amount: 1990, pix: { qrCode: PIX_CODE } } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'tx_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + 86_400_000) },
    });
  });

  it("sends a 14-digit document as cnpj, the caller's address (blank fields defaulted), one item of the whole amount when none is given", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transaction.pixPayments',
      body: {
        ...{ ...CUSTOMER, document: { number: '12345678000199', type: 'cnpj' } },
        ...{ paymentMethod: 'PIX', amount: 1990, traceable: true, items: [{ title: 'Pedido 42', unitPrice: 1990, quantity: 1, tangible: false }] },
        ...{ ...DEFAULT_ADDRESS, cep: '20040002', street: 'Av. Rio Branco', number: '1', city: 'Rio de Janeiro', state: 'RJ' },
        ...{ externalId: 'order-77', postbackUrl: h.ctx.notificationUrl },
      },
      reply: { body: { data: { transactionId: 'tx_2', status: 'PENDING', pix: { code: PIX_CODE }, timestamps: { expiresAt: '2025-03-10T12:30:00.000Z' } } } },
    });
    const input = transactionInput({
      customer: { name: 'Ana Souza', email: 'ana@example.com', document: '12.345.678/0001-99', phone: '(11) 98765-4321' },
      items: [],
      description: 'Pedido 42',
      address: { zipCode: '20040-002', address: 'Av. Rio Branco', number: '1', district: ' ', city: 'Rio de Janeiro', state: 'RJ' },
    });
    expect(await h.adapter.createTransaction(h.ctx, input)).toMatchObject({ transactionId: 'tx_2', expiresAt: new Date('2025-03-10T12:30:00.000Z') });
  });

  it('tokenises a card by POST /transaction.tokenize, then charges it by POST /transaction.cardPayments', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transaction.tokenize',
      headers: AUTH,
      body: { number: '4111111111111111', holderName: 'ANA SOUZA', holderDocument: '12345678909', expirationMonth: '07', expirationYear: '2030', cvv: '123' },
      reply: { body: { token: 'tok_1' } },
    });
    h.fake.expect({
      method: 'POST',
      path: '/transaction.cardPayments',
      headers: AUTH,
      body: {
        ...CUSTOMER,
        ...{ paymentMethod: 'CREDIT_CARD', amount: 1990, traceable: true, items: ITEMS, ...DEFAULT_ADDRESS, externalId: 'order-77' },
        ...{ postbackUrl: h.ctx.notificationUrl, card: { token: 'tok_1' }, installments: 3 },
      },
      reply: { body: { id: 'tx_3', status: 'PAID', amount: 1990, paymentMethod: 'CREDIT_CARD' } },
    });
    const token = await h.adapter.createCardToken(h.ctx, CARD);
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: token, installments: 3 }))).toEqual({
      paymentMethod: 'CREDIT_CARD',
      transactionId: 'tx_3',
      status: 'APPROVED',
      amount: 1990,
    });
  });

  it.each([
    ['APPROVED', 'APPROVED'],
    ['PAID', 'APPROVED'],
    ['DECLINED', 'REJECTED'],
    ['CANCELLED', 'REJECTED'],
    ['FAILED', 'REJECTED'],
    ['REFUNDED', 'REFUNDED'],
    ['PENDING', 'PENDING'],
    ['IN_ANALYSIS', 'PENDING'],
  ])('GET /transaction.getPayment?id= answering %s is %s (§4; unknown PENDING)', async (status, expected) => {
    h.fake.expect({
      method: 'GET',
      path: '/transaction.getPayment',
      query: { id: 'tx_1' },
      headers: AUTH,
      reply: { body: { data: { id: 'tx_1', status, amount: 1990 } } },
    });
    expect(await h.adapter.getTransaction(h.ctx, 'tx_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'tx_1', status: expected, amount: 1990 });
  });

  it('refunds by POST /transaction.refund {id, amount (cents)}', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transaction.refund',
      headers: AUTH,
      body: { id: 'tx_1', amount: 500 },
      reply: { body: { id: 'rf_1', status: 'REFUNDED' } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'tx_1', 500)).toEqual({ refundId: 'rf_1', status: true });
  });

  it("fails with the fourth group's texts (§8): 'Erro na criação da transação PIX: …', 'Transação não encontrada', 'Erro no estorno: …'", async () => {
    const refused = { status: 422, body: { message: 'Valor inválido' } };
    h.fake.expect({ method: 'POST', path: '/transaction.pixPayments', reply: refused });
    h.fake.expect({ method: 'POST', path: '/transaction.cardPayments', reply: refused });
    h.fake.expect({ method: 'GET', path: '/transaction.getPayment', reply: { status: 404, body: { error: 'not found' } } });
    h.fake.expect({ method: 'GET', path: '/transaction.getPayment', reply: refused });
    h.fake.expect({ method: 'POST', path: '/transaction.refund', reply: refused });
    expect([
      await failure(h.adapter.createTransaction(h.ctx, transactionInput())),
      await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1' }))),
      await failure(h.adapter.getTransaction(h.ctx, 'nope')),
      await failure(h.adapter.getTransaction(h.ctx, 'tx_1')),
      await failure(h.adapter.refoundTransaction(h.ctx, 'tx_1', 500)),
    ]).toEqual([
      { code: 'INVALID_ARGUMENT', message: 'Erro na criação da transação PIX: Valor inválido' },
      { code: 'INVALID_ARGUMENT', message: 'Erro ao criar transação: Valor inválido' },
      { code: 'NOT_FOUND', message: 'Transação não encontrada' },
      { code: 'INVALID_ARGUMENT', message: failureMessage.GET_TRANSACTION('Valor inválido') },
      { code: 'INVALID_ARGUMENT', message: 'Erro no estorno: Valor inválido' },
    ]);
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a 2xx answered with %s is UNAVAILABLE, never a token, a charge, a status or a refund', async (_label, body) => {
    for (const [method, path] of [
      ['POST', '/transaction.tokenize'],
      ['POST', '/transaction.pixPayments'],
      ['GET', '/transaction.getPayment'],
      ['POST', '/transaction.refund'],
    ] as const)
      h.fake.expect({ method, path, reply: { body } });
    const codes = [
      await failure(h.adapter.createCardToken(h.ctx, CARD)),
      await failure(h.adapter.createTransaction(h.ctx, transactionInput())),
      await failure(h.adapter.getTransaction(h.ctx, 'tx_1')),
      await failure(h.adapter.refoundTransaction(h.ctx, 'tx_1', 500)),
    ].map((error) => error.code);
    expect(codes).toEqual(['UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE']);
  });

  it('a PIX charge answered without its code is UNAVAILABLE: nobody could pay it', async () => {
    h.fake.expect({ method: 'POST', path: '/transaction.pixPayments', reply: { body: { id: 'tx_1', status: 'PENDING' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: failureMessage.CREATE_PIX_TRANSACTION_FOURTH_GROUP('resposta do provedor sem código PIX'),
    });
  });

  it.each([
    ['a numeric status', { id: 'tx_1', status: 3, pix: { qrCode: PIX_CODE } }, 'status'],
    ['an object id', { data: { id: { v: 1 }, status: 'PENDING', pix: { qrCode: PIX_CODE } } }, 'id'],
    ['a non-numeric amount', { id: 'tx_1', status: 'PENDING', amount: 'dez', pix: { qrCode: PIX_CODE } }, 'amount'],
    ['a numeric PIX code', { id: 'tx_1', status: 'PENDING', pix: { qrCode: 42 } }, 'pix.qrCode'],
  ])("a charge or read answered with %s is the kit's bad answer (UNAVAILABLE), never a status", async (_label, body, field) => {
    h.fake.expect({ method: 'POST', path: '/transaction.pixPayments', reply: { body } });
    h.fake.expect({ method: 'GET', path: '/transaction.getPayment', reply: { body } });
    const charge = await failure(h.adapter.createTransaction(h.ctx, transactionInput()));
    const read = await failure(h.adapter.getTransaction(h.ctx, 'tx_1'));
    expect([charge.code, charge.message.startsWith(failureMessage.CREATE_PIX_TRANSACTION_FOURTH_GROUP('resposta do provedor em formato inesperado'))]).toEqual([
      'UNAVAILABLE',
      true,
    ]);
    expect([read.code, read.message.startsWith(failureMessage.GET_TRANSACTION('resposta do provedor em formato inesperado'))]).toEqual(['UNAVAILABLE', true]);
    expect(read.message).toContain(`(${field}:`);
  });

  it("a token answered with an object, or a refund with a numeric status, is the kit's bad answer (UNAVAILABLE)", async () => {
    h.fake.expect({ method: 'POST', path: '/transaction.tokenize', reply: { body: { token: { v: 'tok_1' } } } });
    h.fake.expect({ method: 'POST', path: '/transaction.refund', reply: { body: { id: 'rf_1', status: 0 } } });
    expect(await failure(h.adapter.createCardToken(h.ctx, CARD))).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('(token:') });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'tx_1', 500))).toEqual({
      code: 'UNAVAILABLE',
      message: failureMessage.REFUND_FOURTH_GROUP('resposta do provedor em formato inesperado (status: esperado string)'),
    });
  });

  it('a refund answered FAILED or DECLINED is refused (status false); any other status is a refund made', async () => {
    h.fake.expect({ method: 'POST', path: '/transaction.refund', reply: { body: { id: 'rf_1', status: 'DECLINED' } } });
    h.fake.expect({ method: 'POST', path: '/transaction.refund', reply: { body: { data: { status: 'PROCESSING' } } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'tx_1', 500)).toEqual({ refundId: 'rf_1', status: false });
    expect(await h.adapter.refoundTransaction(h.ctx, 'tx_1', 500)).toEqual({ refundId: 'tx_1', status: true });
  });

  describe('notifications: the payment itself (bare, under data or _body), unsigned', () => {
    it.each([
      ['bare', { id: 'tx_1', status: 'PAID' }, 'APPROVED'],
      ['under data', { data: { id: 'tx_1', status: 'DECLINED' } }, 'REJECTED'],
      ['under _body, by transactionId', { _body: { transactionId: 'tx_1', status: 'REFUNDED' } }, 'REFUNDED'],
    ])('%s is a TRANSACTION', async (_label, body, status) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: 'tx_1', status });
    });

    it.each([
      ['without a status', { id: 'tx_1' }],
      ['without an id', { status: 'PAID' }],
      ['with a numeric status', { id: 'tx_1', status: 2 }],
      ['with an object id', { data: { id: ['tx_1'], status: 'PAID' } }],
      ['not JSON', '{not json'],
    ])('%s is ignored', async (_label, body) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it('is keyed by the payment and its status', () => {
      expect(h.adapter.verifyNotification(h.ctx, notification({}))).toBe('unsigned');
      expect(h.adapter.notificationKey(h.ctx, notification({ data: { id: 'tx_1', status: 'PAID' } }))).toBe('transaction:tx_1:paid');
    });
  });
});
