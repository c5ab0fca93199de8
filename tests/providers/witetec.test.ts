import { describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { CATALOGUE, FAILURE_PREFIXES, failureMessage } from '../../server/lib/providerMessages.js';
import {
  WITETEC,
  WitetecAdapter,
  toWitetecCharge,
  toWitetecPayout,
  witetecChargeRequest,
  witetecPayoutRequest,
} from '../../server/providers/witetec/adapter.js';
import {
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  itRefusesGarbageAnswers,
  failure,
  NOW,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

/**
 * WITETEC (spec doc 3, group 3): a bespoke adapter on the Witetec platform
 * (research F4, official SDK): the spec's paths (§7), PIX PENDING at creation
 * and the common pattern (§4), the card encrypted by the provider's script
 * (§5) and its texts (§8), the payout login POST /withdrawals/auth.
 */

const SECRET = 'sk_wt_1|fin@loja.com|s3nh@';
const API_KEY = { 'x-api-key': 'sk_wt_1' };
const LOGIN = { method: 'POST', path: '/withdrawals/auth', body: { email: 'fin@loja.com', password: 's3nh@' } };
const PAYOUT_AUTH = { 'x-api-key': 'sk_wt_1', authorization: 'Bearer wt-token' };
const PIX_CODE = '00020126360014br.gov.bcb.pix0114+55119999999995204000053039865406119.905802BR5907WITETEC6009SAO PAULO62070503***6304ABCD';
const ENCRYPTED_CARD = 'eyJhbGciOiJSU0EtT0FFUCJ9.c2hpZWxkaGVscGVy.Y2FyZA';
const WITHDRAWAL: WithdrawInput = { paymentMethod: 'PIX', amount: 1050, pixKey: 'ana@example.com', pixType: 'EMAIL' };
const CUSTOMER = { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', documentType: 'CPF', document: '12345678909' };
const ITEMS = [{ externalRef: 'sku-1', title: 'Curso', amount: 1990, quantity: 1, tangible: false }];
const charge = (status: string, extra: object = {}) => ({
  status: true,
  data: { id: 'wt-1', amount: 1990, feeAmount: 99, netAmount: 1891, status, method: 'PIX', pix: { id: 'px-1', copyPaste: PIX_CODE }, ...extra },
});
const payout = (status: string) => ({
  status: true,
  data: { id: 'wd-9', amount: 1050, method: 'PIX', pixKey: 'ana@example.com', pixKeyType: 'EMAIL', status },
});

describe('WITETEC (spec doc 3, group 3), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new WitetecAdapter(WITETEC, runtime),
    account: () => ({ publicKey: 'pk_wt_1', secretKey: SECRET }),
  });
  /** This test's account logs in once, with its API key and no token, on its first payout call. */
  const withLogin = () =>
    h.fake.expect({ ...LOGIN, headers: { ...API_KEY, authorization: (value) => value === undefined }, reply: { body: { token: 'wt-token' } } });

  it('offers PIX and card charges, their read, PIX payouts and their read, notifications; no refunds, card tokens or receivers', async () => {
    expect(h.adapter.identity).toEqual({ id: 'WITETEC', aliases: [], specGroup: 'document 3 (group 3)', defaultBaseUrl: 'https://api.witetec.net' });
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
  });

  it("builds bodies of its request schemas (the SDK's transaction and withdrawal requests)", () => {
    const terms = { notificationUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(witetecChargeRequest, [
      toWitetecCharge(transactionInput(), terms),
      toWitetecCharge(bareTransactionInput(), terms),
      toWitetecCharge(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: ENCRYPTED_CARD, installments: 2 }), terms),
    ]);
    expectBodiesOf(
      witetecPayoutRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toWitetecPayout({ ...WITHDRAWAL, pixKey, pixType })),
    );
  });

  it('creates a PIX charge by POST /v2/transactions/pix/create (x-api-key, cents): PENDING whatever the answer says (§4), valid the default day (§9)', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/transactions/pix/create',
      headers: { ...API_KEY, authorization: (value) => value === undefined },
      body: { amount: 1990, method: 'PIX', customer: CUSTOMER, items: ITEMS, metadata: { sellerExternalRef: 'order-77' }, postbackUrl: h.ctx.notificationUrl },
      reply: { status: 201, body: charge('PAID') },
    });
    const created = await h.adapter.createTransaction(h.ctx, transactionInput());
    expect(created).toMatchObject({ paymentMethod: 'PIX', transactionId: 'wt-1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE });
    expect([created.expiresAt, created.pixQrCode]).toEqual([new Date(NOW.getTime() + 86_400_000), undefined]);
  });

  it("keeps the answer's pix.expirationDate, and reads a BR Code given as pix.qrcode", async () => {
    const pix = { qrcode: PIX_CODE, expirationDate: '2025-03-10T13:00:00.000Z' };
    h.fake.expect({ method: 'POST', path: '/v2/transactions/pix/create', reply: { body: charge('WAITING_PAYMENT', { pix }) } });
    await expect(h.adapter.createTransaction(h.ctx, transactionInput({ items: [] }))).resolves.toMatchObject({
      pixCode: PIX_CODE,
      expiresAt: new Date('2025-03-10T13:00:00.000Z'),
    });
  });

  it('one intangible item for the whole amount when none is given; no customer or metadata when none is given', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/transactions/pix/create',
      body: { amount: 1990, method: 'PIX', items: [{ title: 'Pedido 42', amount: 1990, quantity: 1, tangible: false }], postbackUrl: h.ctx.notificationUrl },
      reply: { body: charge('PENDING') },
    });
    const input = transactionInput({ items: [], customer: undefined, orderId: undefined, description: 'Pedido 42' });
    await expect(h.adapter.createTransaction(h.ctx, input)).resolves.toMatchObject({ transactionId: 'wt-1' });
  });

  it("creates a card charge by POST /v2/transactions/card/create with the card the provider's script encrypted (card_id) as card.hash; keeps its status", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/transactions/card/create',
      headers: API_KEY,
      body: {
        amount: 1990,
        method: 'CREDIT_CARD',
        customer: CUSTOMER,
        items: ITEMS,
        metadata: { sellerExternalRef: 'order-77' },
        postbackUrl: h.ctx.notificationUrl,
        installments: 3,
        card: { hash: ENCRYPTED_CARD },
      },
      reply: { body: charge('AUTHORIZED', { method: 'CREDIT_CARD', pix: undefined }) },
    });
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: ` ${ENCRYPTED_CARD} `, installments: 3 });
    await expect(h.adapter.createTransaction(h.ctx, input)).resolves.toEqual({
      paymentMethod: 'CREDIT_CARD',
      transactionId: 'wt-1',
      status: 'APPROVED',
      amount: 1990,
      providerFee: 99,
    });
  });

  it.each([
    ['no card_id', undefined],
    ['a blank card_id', '   '],
    ['an unreadable card_id (not what the script produces)', 'eyJ hbGc\n'],
  ])("a card charge with %s is 'Erro ao processar dados do cartão' (§8); nothing is sent", async (_label, cardId) => {
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', ...(cardId === undefined ? {} : { cardId }) });
    expect(await failure(h.adapter.createTransaction(h.ctx, input))).toEqual(CATALOGUE.WITETEC_CARD_DATA_UNREADABLE);
    expect(h.fake.received).toHaveLength(0);
  });

  it("refuses a boleto with the spec's pattern, and a failed creation is 'Erro ao criar transação: <provider message>' (§8)", async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by WITETEC',
    });
    h.fake.expect({ method: 'POST', path: '/v2/transactions/pix/create', reply: { status: 400, body: { status: false, message: 'Cliente inválido' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: Cliente inválido',
    });
    expect(FAILURE_PREFIXES.CREATE_TRANSACTION).toBe('Erro ao criar transação');
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['WAITING_PAYMENT', 'PENDING'],
    ['PROCESSING', 'PENDING'],
    ['PAID', 'APPROVED'],
    ['AUTHORIZED', 'APPROVED'],
    ['REFUNDED', 'REFUNDED'],
    ['CHARGEDBACK', 'CHARGEBACK'],
    ['DISPUTE', 'CHARGEBACK'],
    ['BLOCKED', 'CHARGEBACK'],
    ['FAILED', 'REJECTED'],
    ['REFUSED', 'REJECTED'],
    ['EXPIRED', 'REJECTED'],
  ])('GET /transactions/pix/{id} answering %s is %s (§4, common pattern; unknown REJECTED)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/transactions/pix/wt-1', headers: API_KEY, reply: { body: charge(status) } });
    await expect(h.adapter.getTransaction(h.ctx, 'wt-1')).resolves.toMatchObject({
      paymentMethod: 'PIX',
      transactionId: 'wt-1',
      status: expected,
      amount: 1990,
    });
  });

  it('reads a card charge by the same path, as a card charge', async () => {
    h.fake.expect({ method: 'GET', path: '/transactions/pix/wt-2', reply: { body: charge('PAID', { id: 'wt-2', method: 'CREDIT_CARD', pix: null }) } });
    await expect(h.adapter.getTransaction(h.ctx, 'wt-2')).resolves.toEqual({
      paymentMethod: 'CREDIT_CARD',
      transactionId: 'wt-2',
      status: 'APPROVED',
      amount: 1990,
      providerFee: 99,
    });
  });

  it("reads a paid charge's `end2endId` and its fee (`feeAmount`, cents) when fee and `netAmount` add up to the amount", async () => {
    const paid = { end2endId: ' E18236120202611291200wt00000001 ' };
    h.fake.expect({ method: 'GET', path: '/transactions/pix/wt-1', reply: { body: charge('PAID', paid) } });
    await expect(h.adapter.getTransaction(h.ctx, 'wt-1')).resolves.toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'wt-1', status: 'APPROVED', amount: 1990, pixCode: PIX_CODE },
      ...{ providerFee: 99, pixPayment: { endToEndId: 'E18236120202611291200wt00000001' } },
    });
    // Just created, Witetec answers feeAmount and netAmount 0 (PushPag's page): no fee taken yet, none stated; nor one
    // that does not add up, or cannot be read.
    for (const amounts of [
      { feeAmount: 0, netAmount: 0 },
      { feeAmount: 99, netAmount: 1990 },
      { feeAmount: 'x', netAmount: 1891 },
      { feeAmount: 99, netAmount: null },
    ]) {
      h.fake.expect({ method: 'GET', path: '/transactions/pix/wt-1', reply: { body: charge('PENDING', { ...amounts, end2endId: null }) } });
      await expect(h.adapter.getTransaction(h.ctx, 'wt-1')).resolves.toEqual({
        ...{ paymentMethod: 'PIX', transactionId: 'wt-1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      });
    }
  });

  it.each([
    ['ana@example.com', 'EMAIL', 'ana@example.com', 'EMAIL'],
    ['(11) 98765-4321', 'PHONE', '11987654321', 'PHONE'],
    ['123.456.789-09', 'CPF', '12345678909', 'CPF'],
    ['12.345.678/0001-99', 'CNPJ', '12345678000199', 'CNPJ'],
    ['c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM', 'c873834c-ed18-4e63-8e5d-90190392b744', 'EVP'],
  ] as const)('logs in (POST /withdrawals/auth {email, password}) and pays out to %s (%s) as %s, %s, in cents', async (key, type, pixKey, keyType) => {
    const login = withLogin();
    h.fake.expect({
      method: 'POST',
      path: '/withdrawals',
      headers: PAYOUT_AUTH,
      body: { amount: 1050, pixKey, pixKeyType: keyType, method: 'PIX' },
      reply: { status: 201, body: payout('PENDING') },
    });
    await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixKey: key, pixType: type })).resolves.toEqual({
      withdrawId: 'wd-9',
      amount: 1050,
      status: 'PENDING',
    });
    expect(login.calls).toHaveLength(1);
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['PROCESSING', 'PENDING'],
    ['BLOCKED', 'PENDING'],
    ['APPROVED', 'APPROVED'],
    ['PAID', 'APPROVED'],
    ['REJECTED', 'REJECTED'],
    ['FAILED', 'REJECTED'],
    ['REFUNDED', 'REJECTED'],
    ['CANCELED', 'CANCELED'],
    ['SOMETHING_NEW', 'PENDING'],
  ])('GET /withdrawals/{id} answering %s is %s (unknown PENDING: a payout is never falsely failed)', async (status, expected) => {
    withLogin();
    h.fake.expect({ method: 'GET', path: '/withdrawals/wd-9', headers: PAYOUT_AUTH, reply: { body: payout(status) } });
    await expect(h.adapter.getWithdraw(h.ctx, 'wd-9')).resolves.toEqual({ withdrawId: 'wd-9', amount: 1050, status: expected });
  });

  it('a token refused (401) is forgotten: the next payout call logs in again; a refused login is the operation failure', async () => {
    const login = h.fake.expect({ ...LOGIN, times: 2, reply: { body: { token: 'wt-token' } } });
    h.fake.expect({ method: 'GET', path: '/withdrawals/wd-9', reply: { status: 401, body: { message: 'Token expirado' } } });
    h.fake.expect({ method: 'GET', path: '/withdrawals/wd-9', reply: { body: payout('PAID') } });
    expect((await failure(h.adapter.getWithdraw(h.ctx, 'wd-9'))).code).toBe('FAILED_PRECONDITION');
    await expect(h.adapter.getWithdraw(h.ctx, 'wd-9')).resolves.toMatchObject({ status: 'APPROVED' });
    expect(login.calls).toHaveLength(2);
    h.fake.expect({ ...LOGIN, reply: { status: 401, body: { message: 'Credenciais inválidas' } } });
    expect(await failure(h.adapter.withdraw({ ...h.ctx, accountId: 'other' }, WITHDRAWAL))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: failureMessage.WITHDRAW('Credenciais inválidas'),
    });
  });

  describe('credentials: secret key apiKey[|email|password], the payout login together or not at all', () => {
    const FORMAT = 'Formato de credenciais inválido. Use: apiKey|email|password';
    it.each([
      ['', 'secretKey is required'],
      ['sk_wt_1|fin@loja.com', FORMAT],
      ['sk_wt_1||s3nh@', FORMAT],
      ['sk_wt_1|fin@loja.com|s3nh@|extra', FORMAT],
    ])('refuses the secret key %j at the door: %s', (secretKey, message) => {
      expect(() => h.adapter.checkAccount({ publicKey: 'pk_wt_1', secretKey })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
    });

    it.each(['sk_wt_1', SECRET])('takes %j (charges only, or charges and payouts)', (secretKey) => {
      expect(() => h.adapter.checkAccount({ publicKey: '', secretKey })).not.toThrow();
    });

    it('an account without the payout login cannot pay out: refused before anything is sent', async () => {
      const ctx = { ...h.ctx, secretKey: 'sk_wt_1' };
      expect(await failure(h.adapter.withdraw(ctx, WITHDRAWAL))).toEqual({ code: 'FAILED_PRECONDITION', message: FORMAT });
      expect(await failure(h.adapter.getWithdraw(ctx, 'wd-9'))).toEqual({ code: 'FAILED_PRECONDITION', message: FORMAT });
      expect(h.fake.received).toHaveLength(0);
    });
  });

  describe('a 2xx answer that is not the resource is UNAVAILABLE, never a status', () => {
    itRefusesGarbageAnswers(
      h,
      [
        ['createTransaction', 'POST /v2/transactions/pix/create', () => h.adapter.createTransaction(h.ctx, transactionInput())],
        ['getTransaction', 'GET /transactions/pix/wt-1', () => h.adapter.getTransaction(h.ctx, 'wt-1')],
        ['withdraw', 'POST /withdrawals', () => h.adapter.withdraw(h.ctx, WITHDRAWAL)],
        ['getWithdraw', 'GET /withdrawals/wd-9', () => h.adapter.getWithdraw(h.ctx, 'wd-9')],
      ],
      (operation) => {
        if (operation === 'withdraw' || operation === 'getWithdraw') withLogin();
      },
    );

    it.each([
      ['an unreadable amount', 'R$ 19,90', 'resposta do provedor em formato inesperado (amount: invalid_format)'],
      ['no amount (a read has no amount asked for to fall back on)', undefined, 'resposta do provedor sem valor da transação'],
      ['an id of the wrong type', 1990, 'resposta do provedor em formato inesperado (id: invalid_union)', { id: { value: 'wt-1' } }],
      ['a status of the wrong type', 1990, 'resposta do provedor em formato inesperado (status: esperado string)', { status: 7 }],
      ['a pix that is not an object', 1990, 'resposta do provedor em formato inesperado (pix: esperado object)', { pix: 'x' }],
    ])('a read with %s is UNAVAILABLE', async (_label, amount, text, more: object = {}) => {
      h.fake.expect({ method: 'GET', path: '/transactions/pix/wt-1', reply: { body: charge('PAID', { amount, ...more }) } });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'wt-1'))).toEqual({
        code: 'UNAVAILABLE',
        message: failureMessage.GET_TRANSACTION(text),
      });
    });

    it('a PIX charge without its BR Code is UNAVAILABLE: nobody could pay it', async () => {
      h.fake.expect({ method: 'POST', path: '/v2/transactions/pix/create', reply: { body: charge('PENDING', { pix: { qrcode: 'https://img/qr.png' } }) } });
      expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: failureMessage.CREATE_TRANSACTION('resposta do provedor sem código PIX da transação'),
      });
    });
  });

  describe("notifications: the SDK's flat events, by their eventType", () => {
    const event = (eventType: string, id = 'wt-1') => ({ eventType, id, amount: 1990, status: 'PAID', method: 'PIX', end2endId: null });
    it("states a charge event's `end2endId` as the PIX's end-to-end id", async () => {
      await expect(h.adapter.processWebhook(h.ctx, notification({ ...event('TRANSACTION_PAID'), end2endId: 'E123' }))).resolves.toEqual({
        ...{ type: 'TRANSACTION', transactionId: 'wt-1', status: 'APPROVED', pixPayment: { endToEndId: 'E123' } },
      });
    });
    it.each([
      ['TRANSACTION_PAID', { type: 'TRANSACTION', transactionId: 'wt-1', status: 'APPROVED' }],
      ['TRANSACTION_PENDING', { type: 'TRANSACTION', transactionId: 'wt-1', status: 'PENDING' }],
      ['TRANSACTION_FAILED', { type: 'TRANSACTION', transactionId: 'wt-1', status: 'REJECTED' }],
      ['TRANSACTION_DISPUTE', { type: 'TRANSACTION', transactionId: 'wt-1', status: 'CHARGEBACK' }],
      ['TRANSACTION_REFUNDED', { type: 'TRANSACTION', transactionId: 'wt-1', status: 'REFUNDED' }],
      ['TRANSACTION_CHARGEDBACK', { type: 'TRANSACTION', transactionId: 'wt-1', status: 'CHARGEBACK' }],
      ['WITHDRAWAL_PENDING', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'PENDING' }],
      ['WITHDRAWAL_PROCESSING', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'PENDING' }],
      ['WITHDRAWAL_BLOCKED', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'PENDING' }],
      ['WITHDRAWAL_APPROVED', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'APPROVED' }],
      ['WITHDRAWAL_PAID', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'APPROVED' }],
      ['WITHDRAWAL_REJECTED', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'REJECTED' }],
      ['WITHDRAWAL_FAILED', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'REJECTED' }],
      ['WITHDRAWAL_REFUNDED', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'REJECTED' }],
      ['WITHDRAWAL_CANCELED', { type: 'WITHDRAW', transactionId: 'wt-1', status: 'CANCELED' }],
      ['TRANSACTION_CREATED', undefined],
      ['transaction_paid', undefined],
    ])('%s', async (eventType, expected) => {
      await expect(h.adapter.processWebhook(h.ctx, notification(event(eventType)))).resolves.toEqual(expected);
    });

    it.each([
      ['without an eventType', { id: 'wt-1', status: 'PAID' }],
      ['without an id', { eventType: 'TRANSACTION_PAID', status: 'PAID' }],
      ['not JSON', 'not json'],
    ])('ignores an event %s', async (_label, body) => {
      await expect(h.adapter.processWebhook(h.ctx, notification(body))).resolves.toBeUndefined();
    });

    it('unsigned (none documented); keyed by kind, id and event (the events carry no id of their own)', () => {
      const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
      expect(h.adapter.verifyNotification(h.ctx, notification(event('TRANSACTION_PAID')))).toBe('unsigned');
      expect(key(event('TRANSACTION_PAID'))).toBe('transaction:wt-1:paid');
      expect(key(event('WITHDRAWAL_PAID', 'wd-9'))).toBe('withdrawal:wd-9:paid');
      expect(key('not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
    });
  });

  describe("api_version public: the SDK's paths, where the specification has its own", () => {
    const publicCtx = () => ({ ...h.ctx, apiVersion: 'public' });

    it('creates PIX and card charges by POST /transactions with the same body, and reads by GET /transactions/{id}', async () => {
      h.fake.expect({
        method: 'POST',
        path: '/transactions',
        headers: API_KEY,
        body: (body) => (body as { method?: string }).method === 'PIX',
        reply: { status: 201, body: charge('WAITING_PAYMENT') },
      });
      await expect(h.adapter.createTransaction(publicCtx(), transactionInput())).resolves.toMatchObject({
        transactionId: 'wt-1',
        status: 'PENDING',
        pixCode: PIX_CODE,
      });
      h.fake.expect({
        method: 'POST',
        path: '/transactions',
        body: (body) =>
          (body as { method?: string; card?: { hash?: string } }).method === 'CREDIT_CARD' &&
          (body as { card?: { hash?: string } }).card?.hash === 'enc-card-1',
        reply: { body: charge('PAID', { id: 'wt-3', method: 'CREDIT_CARD', pix: null }) },
      });
      await expect(
        h.adapter.createTransaction(publicCtx(), transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'enc-card-1', installments: 1 })),
      ).resolves.toMatchObject({ transactionId: 'wt-3', paymentMethod: 'CREDIT_CARD', status: 'APPROVED' });
      h.fake.expect({ method: 'GET', path: '/transactions/wt-1', headers: API_KEY, reply: { body: charge('PAID') } });
      await expect(h.adapter.getTransaction(publicCtx(), 'wt-1')).resolves.toMatchObject({ transactionId: 'wt-1', status: 'APPROVED' });
      h.fake.assertAllDone();
    });

    it("refuses, before anything is sent, a charge without the customer the SDK's request requires (the specification's dialect sends none)", async () => {
      for (const [customer, field] of [
        [undefined, 'transaction.customer'],
        [{ ...transactionInput().customer!, name: ' ' }, 'transaction.customer.name'],
        [{ ...transactionInput().customer!, email: '' }, 'transaction.customer.email'],
        [{ ...transactionInput().customer!, phone: '' }, 'transaction.customer.phone'],
        [{ ...transactionInput().customer!, document: '' }, 'transaction.customer.document'],
      ] as const)
        expect(await failure(h.adapter.createTransaction(publicCtx(), transactionInput({ customer })))).toEqual({
          code: 'INVALID_ARGUMENT',
          message: `${field} is required for WITETEC charges`,
        });
      expect(h.fake.received).toHaveLength(0);
    });

    it('pays out and reads payouts with the x-api-key alone when the secret carries no login (the SDK has none), no login call', async () => {
      const ctx = { ...publicCtx(), secretKey: 'sk_wt_1' };
      h.fake.expect({
        method: 'POST',
        path: '/withdrawals',
        headers: { ...API_KEY, authorization: (value) => value === undefined },
        body: { amount: 1050, pixKey: 'ana@example.com', pixKeyType: 'EMAIL', method: 'PIX' },
        reply: { body: payout('PENDING') },
      });
      await expect(h.adapter.withdraw(ctx, WITHDRAWAL)).resolves.toEqual({ withdrawId: 'wd-9', amount: 1050, status: 'PENDING' });
      h.fake.expect({
        method: 'GET',
        path: '/withdrawals/wd-9',
        headers: { ...API_KEY, authorization: (value) => value === undefined },
        reply: { body: payout('PAID') },
      });
      await expect(h.adapter.getWithdraw(ctx, 'wd-9')).resolves.toEqual({ withdrawId: 'wd-9', amount: 1050, status: 'APPROVED' });
      h.fake.assertAllDone();
      expect(h.fake.received.map((request) => request.path)).toEqual(['/withdrawals', '/withdrawals/wd-9']);
    });

    it('still logs in first when the secret carries the login', async () => {
      const login = withLogin();
      h.fake.expect({ method: 'POST', path: '/withdrawals', headers: PAYOUT_AUTH, reply: { body: payout('PENDING') } });
      await expect(h.adapter.withdraw(publicCtx(), WITHDRAWAL)).resolves.toMatchObject({ withdrawId: 'wd-9', status: 'PENDING' });
      expect(login.calls).toHaveLength(1);
    });

    it('is offered beside the default, the specification', () => {
      expect(h.adapter.apiVersions).toEqual(['specification', 'public']);
    });
  });
});
