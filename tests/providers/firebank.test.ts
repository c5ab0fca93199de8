import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { clearClientCertificates } from '../../server/lib/http/index.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import {
  FIREBANK,
  FirebankAdapter,
  firebankCashInRequest,
  firebankCashOutRequest,
  firebankRefundExternalId,
  firebankRefundRequest,
  toFirebankCashIn,
  toFirebankCashOut,
  toFirebankRefund,
} from '../../server/providers/firebank/adapter.js';
import { startFileServer, type Expectation, type FileServer } from '../support/fakeProvider.js';
import {
  NOW,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

/** FIREBANK (spec doc 2, group 1): Fire Banking on the Avista platform, as its public documentation shows it. */

const KEYS = { publicKey: 'account-93-550e8400', secretKey: 'fire-secret' };
const CERT = '-----BEGIN CERTIFICATE-----\nMIIBfireBankingTestCertificate+/=\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
const BEARER = { authorization: 'Bearer fire-jwt-1' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136a629532e-7693-4846-852d-1bbff817b5a8520400005303986540519.905802BR6304ABCD';
const DAY_MS = 86_400_000;

const payout = (extra: Partial<WithdrawInput> = {}): WithdrawInput => ({
  paymentMethod: 'PIX',
  amount: 1550,
  pixKey: '123.456.789-09',
  pixType: 'CPF',
  description: 'Pagamento fornecedor',
  withdrawReference: 'wd-1',
  name: 'John Marvin',
  ...extra,
});

describe('FIREBANK (spec doc 2, group 1), Fire Banking on the Avista platform', () => {
  let files: FileServer;
  beforeAll(async () => {
    // The platform's certificate store: the PEM holds the certificate and its key; only the certificate is ever sent.
    files = await startFileServer({ '/platform/cash-in.pem': `${CERT}\n${KEY}\n`, '/platform/key-only.pem': `${KEY}\n` });
  });
  afterAll(() => files.close());

  const h = providerHarness({ create: (runtime) => new FirebankAdapter(FIREBANK, runtime), account: () => KEYS });
  const ctx = (extra: Partial<AdapterContext> = {}): AdapterContext => ({ ...h.ctx, certCashInUrl: files.url('/platform/cash-in.pem'), ...extra });

  /** The token call: {clientId, clientSecret} and the certificate, URL-encoded, in X-SSL-Client-Cert. */
  const TOKEN: Expectation = {
    method: 'POST',
    path: '/api/auth/token',
    headers: { 'x-ssl-client-cert': encodeURIComponent(CERT), 'content-type': /^application\/json/ },
    body: { clientId: 'account-93-550e8400', clientSecret: 'fire-secret' },
    reply: { status: 201, body: { access_token: 'fire-jwt-1', token_type: 'Bearer', expires_in: 1800 } },
  };
  const withToken = () => h.fake.expect(TOKEN);

  it('offers PIX charges with reads and refunds, PIX payouts with reads, and webhooks; keys and the certificate are checked at the door', async () => {
    expect(FIREBANK.identity.defaultBaseUrl).toBe('https://api.public.firebanking.com.br');
    expect(h.adapter.operations).toEqual([
      ...['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw', 'processWebhook', 'getAccountBalance'],
    ]);
    await expectUnsupportedOperationsRejected(h.adapter, ctx(), h.fake);
    const account = { ...KEYS, certCashInUrl: 'https://files.example/cert.pem' };
    expect(() => h.adapter.checkAccount(account)).not.toThrow();
    expect(() => h.adapter.checkAccount({ ...account, certCashInUrl: undefined })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'Unauthorized.', details: expect.objectContaining({ field: 'cert_cash_in_url' }) }),
    );
    expect(() => h.adapter.checkAccount({ ...account, publicKey: '' })).toThrow(expect.objectContaining({ message: 'publicKey is required' }));
    expect(() => h.adapter.checkAccount({ ...account, secretKey: ' ' })).toThrow(expect.objectContaining({ message: 'secretKey is required' }));
    expect((await failure(h.adapter.createTransaction(ctx(), transactionInput({ paymentMethod: 'BILLET' })))).message).toBe(
      'Payment method not supported by FIREBANK',
    );
  });

  it("builds bodies of its request schemas (the platform's cash-in, cash-out and refund)", () => {
    const terms = { value: 19.9, expirationTime: 86_400 };
    expectBodiesOf(firebankCashInRequest, [
      toFirebankCashIn(transactionInput({ description: 'x'.repeat(200) }), terms),
      toFirebankCashIn(transactionInput({ orderId: undefined, idempotencyKey: 'idem-1' }), terms),
    ]);
    expectBodiesOf(
      firebankCashOutRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) =>
        toFirebankCashOut(
          { paymentMethod: 'PIX', amount: 2500, pixKey, pixType, name: 'Ana Souza', document: '123.456.789-09', withdrawReference: 'wd-1' },
          25,
        ),
      ),
    );
    expectBodiesOf(firebankRefundRequest, [toFirebankRefund(5.5, firebankRefundExternalId('tx_1', 'idem-1'))]);
  });

  it('takes a token with the certificate, then charges by POST /api/pix/cash-in in reais, valid 86400 s', async () => {
    const token = withToken();
    h.fake.expect({
      method: 'POST',
      path: '/api/pix/cash-in',
      headers: { ...BEARER, 'x-ssl-client-cert': (value) => value === undefined },
      body: {
        transaction: { value: 19.9, description: 'Pedido 77', expirationTime: 86400, externalId: 'order-77', generateQrCode: true },
        payer: { fullName: 'Ana Souza', document: '12345678909' },
      },
      reply: {
        status: 201,
        body: {
          transactionId: '123',
          correlationId: '550e8400-e29b-41d4-a716-446655440000',
          externalId: 'order-77',
          status: 'PENDING',
          pixCode: PIX_CODE,
          generateTime: NOW.toISOString(),
          expirationDate: new Date(NOW.getTime() + DAY_MS).toISOString(),
          qrCodeImage: 'data:image/png;base64,iVBORw0KGgo=',
        },
      },
    });
    h.fake.expect({
      method: 'GET',
      path: '/api/pix/transaction/123',
      headers: BEARER,
      reply: { body: { id: '123', type: 'PAYMENT', status: 'CONFIRMED', originalAmount: 19.9, feeAmount: 0.065, finalAmount: 19.835 } },
    });

    expect(await h.adapter.createTransaction(ctx(), transactionInput({ description: 'Pedido 77' }))).toEqual({
      // Firebank's own image is not kept: the gateway draws the code's at its edge.
      ...{ paymentMethod: 'PIX', transactionId: '123', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
    // The platform's fee in reais, as cents like every amount it sends (R$ 0,065 is 7).
    expect(await h.adapter.getTransaction(ctx(), '123')).toEqual({
      paymentMethod: 'PIX',
      transactionId: '123',
      status: 'APPROVED',
      amount: 1990,
      providerFee: 7,
    });
    // One token for both calls.
    expect(token.calls).toHaveLength(1);
  });

  it("reads a paid charge's fee (`feeAmount`, reais) and its PIX's end-to-end id (`e2eId`) from GET /api/pix/transaction/{id}", async () => {
    withToken();
    const confirmed = { id: '123', type: 'PAYMENT', status: 'CONFIRMED', originalAmount: 19.9, feeAmount: 0.5, finalAmount: 19.4 };
    h.fake.expect({ method: 'GET', path: '/api/pix/transaction/123', reply: { body: { ...confirmed, e2eId: 'E00416968202611291200a1b2c3d4e5f6' } } });
    expect(await h.adapter.getTransaction(ctx(), '123')).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: '123', status: 'APPROVED', amount: 1990 },
      ...{ providerFee: 50, pixPayment: { endToEndId: 'E00416968202611291200a1b2c3d4e5f6' } },
    });
    h.fake.expect({ method: 'GET', path: '/api/pix/transaction/123', reply: { body: { ...confirmed, feeAmount: null, e2eId: null } } });
    expect(await h.adapter.getTransaction(ctx(), '123')).toEqual({ paymentMethod: 'PIX', transactionId: '123', status: 'APPROVED', amount: 1990 });
  });

  it('renders the QR image itself when the answer has none, and names the charge by the idempotency key without an order id', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/api/pix/cash-in',
      body: {
        transaction: { value: 0.29, description: 'Cobrança PIX', expirationTime: 86400, externalId: 'idem-1', generateQrCode: true },
        payer: { fullName: 'Ana Souza', document: '12345678909' },
      },
      reply: { status: 201, body: { transactionId: 7, status: 'PENDING', pixCode: PIX_CODE } },
    });
    const input = transactionInput({ amount: 29, orderId: undefined, description: undefined, idempotencyKey: 'idem-1' });
    expect(await h.adapter.createTransaction(ctx(), input)).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: '7', status: 'PENDING', amount: 29, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('refuses a charge without a payer before anything is sent (the API requires one)', async () => {
    expect(await failure(h.adapter.createTransaction(ctx(), transactionInput({ customer: undefined })))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(0);
  });

  it("is 'Unauthorized.' without the platform's certificate, and says what is wrong with an unusable one, before any token call", async () => {
    expect(await failure(h.adapter.getTransaction(ctx({ certCashInUrl: undefined }), '123'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Unauthorized.',
    });
    const keyOnly = await failure(h.adapter.getTransaction(ctx({ certCashInUrl: files.url('/platform/key-only.pem') }), '123'));
    expect(keyOnly).toEqual({ code: 'FAILED_PRECONDITION', message: expect.stringContaining('no CERTIFICATE block') });
    expect(keyOnly.message).not.toContain('PRIVATE KEY-----');
    const missing = await failure(h.adapter.getTransaction(ctx({ certCashInUrl: files.url('/platform/none.pem') }), '123'));
    expect(missing).toEqual({ code: 'FAILED_PRECONDITION', message: expect.stringContaining('HTTP 404') });
    expect(h.fake.received).toHaveLength(0);
    clearClientCertificates();
  });

  it("keeps the platform's refusal of the token under the operation's prefix", async () => {
    h.fake.expect({ ...TOKEN, reply: { status: 401, body: { statusCode: 401, message: 'Credenciais inválidas ou certificado inválido' } } });
    expect(await failure(h.adapter.getTransaction(ctx(), '123'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao buscar transação: Credenciais inválidas ou certificado inválido',
    });
  });

  it("keeps the platform's refusal of a charge under the spec's prefix", async () => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/api/pix/cash-in', reply: { status: 400, body: { statusCode: 400, message: 'Dados inválidos' } } });
    expect(await failure(h.adapter.createTransaction(ctx(), transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: Dados inválidos',
    });
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['CONFIRMED', 'APPROVED'],
    ['ERROR', 'REJECTED'],
    ['MYSTERY', 'REJECTED'],
  ])('reads a charge %s as %s', async (status, expected) => {
    withToken();
    h.fake.expect({ method: 'GET', path: '/api/pix/transaction/123', reply: { body: { id: '123', type: 'PAYMENT', status, originalAmount: '19.90' } } });
    expect(await h.adapter.getTransaction(ctx(), '123')).toMatchObject({ status: expected, amount: 1990 });
    expect(h.warn).toHaveBeenCalledTimes(status === 'MYSTERY' ? 1 : 0);
  });

  it('refunds by POST /api/pix/refund-in/{id} {refundValue in reais, externalId}; ERROR is a refused refund', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/api/pix/refund-in/123',
      headers: BEARER,
      body: (body) => {
        const { refundValue, externalId } = body as { refundValue: number; externalId: string };
        return refundValue === 5 && /^123-r[0-9a-f]{16}$/.test(externalId);
      },
      reply: {
        status: 201,
        body: { transactionId: '789', externalId: 'x', status: 'PENDING', refundValue: 5, providerTransactionId: 'p', generateTime: NOW.toISOString() },
      },
    });
    expect(await h.adapter.refoundTransaction(ctx(), '123', 500)).toEqual({ refundId: '789', status: true });
    h.fake.expect({ method: 'POST', path: '/api/pix/refund-in/123', reply: { status: 201, body: { transactionId: '790', status: 'ERROR' } } });
    expect(await h.adapter.refoundTransaction(ctx(), '123', 500)).toEqual({ refundId: '790', status: false });
    h.fake.expect({ method: 'POST', path: '/api/pix/refund-in/123', reply: { status: 400, body: { message: 'prazo excedido' } } });
    expect(await failure(h.adapter.refoundTransaction(ctx(), '123', 500))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao estornar transação: prazo excedido',
    });
  });

  it('names a refund by the idempotency key it runs under: a retried refund is the same devolução, another key another one', async () => {
    withToken();
    const externalIds: string[] = [];
    for (const key of ['refund-key-1', 'refund-key-1', 'refund-key-2']) {
      h.fake.expect({
        method: 'POST',
        path: '/api/pix/refund-in/123',
        body: (body) => Boolean(externalIds.push((body as { externalId: string }).externalId)),
        reply: { status: 201, body: { transactionId: '789', externalId: 'x', status: 'PENDING', refundValue: 5 } },
      });
      await h.adapter.refoundTransaction(ctx(), '123', 500, key);
    }
    expect(externalIds[0]).toMatch(/^123-r[0-9a-f]{16}$/);
    expect(externalIds[1]).toBe(externalIds[0]);
    expect(externalIds[2]).not.toBe(externalIds[0]);
  });

  it('pays out by POST /api/pix/cash-out {value, details{key, keyType, name, document}, externalId, description} and reads it back', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/api/pix/cash-out',
      headers: BEARER,
      body: {
        value: 15.5,
        details: { key: '12345678909', keyType: 'DOCUMENT', name: 'John Marvin', document: '12345678909' },
        externalId: 'wd-1',
        description: 'Pagamento fornecedor',
      },
      reply: { status: 201, body: { transactionId: '456', externalId: 'wd-1', status: 'PENDING', generateTime: NOW.toISOString() } },
    });
    h.fake.expect({
      method: 'GET',
      path: '/api/pix/transaction/456',
      reply: { body: { id: '456', type: 'WITHDRAW', status: 'CONFIRMED', originalAmount: 15.5 } },
    });
    expect(await h.adapter.withdraw(ctx(), payout())).toEqual({ withdrawId: '456', status: 'PENDING', amount: 1550 });
    expect(await h.adapter.getWithdraw(ctx(), '456')).toEqual({ withdrawId: '456', status: 'APPROVED', amount: 1550 });
  });

  it.each([
    ['CNPJ', '12.345.678/0001-95', 'DOCUMENT', '12345678000195'],
    ['PHONE', '(11) 99999-9999', 'PHONE', '5511999999999'],
    ['PHONE', '+55 11 99999-9999', 'PHONE', '5511999999999'],
    ['EMAIL', 'Ana@Example.com', 'EMAIL', 'Ana@Example.com'],
    ['RANDOM', '123e4567-e89b-12d3-a456-426614174000', 'RANDOM', '123e4567-e89b-12d3-a456-426614174000'],
  ] as const)('names a %s key %s as keyType %s, key %s', (pixType, pixKey, keyType, key) => {
    expect(toFirebankCashOut({ ...payout({ document: '987.654.321-00' }), pixType, pixKey }, 15.5).details).toEqual({
      key,
      keyType,
      name: 'John Marvin',
      document: '98765432100',
    });
  });

  it('cuts a description to the platform\'s 140 characters ("Máximo: 140 caracteres"), never inside a character', () => {
    const long = `Pedido ${'🛒'.repeat(200)}`;
    const charge = toFirebankCashIn(transactionInput({ description: long }), { value: 19.9, expirationTime: 86400 });
    expect(Array.from(charge.transaction.description)).toHaveLength(140);
    expect(charge.transaction.description.startsWith('Pedido 🛒')).toBe(true);
    expect(charge.transaction.description.endsWith('🛒')).toBe(true);
    expect(
      Array.from(toFirebankCashOut({ ...payout(), description: 'x'.repeat(300), pixKey: '12345678909', pixType: 'CPF' as const }, 15.5).description),
    ).toHaveLength(140);
    expect(toFirebankCashOut({ ...payout(), pixKey: '12345678909', pixType: 'CPF' as const }, 15.5).description).toBe('Pagamento fornecedor');
  });

  it("refuses a payout without the holder's name, or without a document for a non-document key, before anything is sent", async () => {
    expect(await failure(h.adapter.withdraw(ctx(), payout({ name: undefined })))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('withdraw.name'),
    });
    const email = payout({ pixType: 'EMAIL', pixKey: 'ana@example.com' });
    expect(await failure(h.adapter.withdraw(ctx(), email))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('withdraw.document') });
    expect(await failure(h.adapter.withdraw(ctx(), payout({ pixType: undefined })))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(0);
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['CONFIRMED', 'APPROVED'],
    ['ERROR', 'REJECTED'],
  ])('reads a payout %s as %s', async (status, expected) => {
    withToken();
    h.fake.expect({ method: 'GET', path: '/api/pix/transaction/456', reply: { body: { id: '456', type: 'WITHDRAW', status, originalAmount: 15.5 } } });
    expect((await h.adapter.getWithdraw(ctx(), '456')).status).toBe(expected);
  });

  describe("the account balance (GET /api/balance, the platform's balance guide)", () => {
    /** The guide's answer: gross = net + blocked, in reais. */
    const answer = (net: unknown, blocked = 0) => ({
      grossBalance: Number(net) + blocked,
      blockedBalance: blocked,
      netBalance: net,
      consultedAt: NOW.toISOString(),
    });

    it('reads `netBalance` in reais as cents with the session token; the blocked part is not pending money', async () => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/api/balance', headers: BEARER, reply: { body: answer(48_734.9, 250) } });
      expect(await h.adapter.getAccountBalance(ctx())).toEqual({ available: 4_873_490, currency: 'BRL' });
      h.fake.expect({ method: 'GET', path: '/api/balance', headers: BEARER, reply: { body: answer(0) } });
      expect(await h.adapter.getAccountBalance(ctx())).toEqual({ available: 0, currency: 'BRL' });
    });

    it('an answer without `netBalance` is a bad answer, never a balance of 0', async () => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/api/balance', reply: { body: { grossBalance: 10, blockedBalance: 0, consultedAt: NOW.toISOString() } } });
      expect(await failure(h.adapter.getAccountBalance(ctx()))).toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(/^Erro ao consultar saldo: /),
      });
    });

    it("keeps the platform's refusal under the balance read's prefix", async () => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/api/balance', reply: { status: 401, body: { statusCode: 401, message: 'Token não fornecido ou inválido' } } });
      expect(await failure(h.adapter.getAccountBalance(ctx()))).toMatchObject({ message: 'Erro ao consultar saldo: Token não fornecido ou inválido' });
    });
  });

  describe('answers that are not the resource', () => {
    itRefusesGarbageAnswers(
      h,
      [
        ['createTransaction', 'POST /api/pix/cash-in', () => h.adapter.createTransaction(ctx(), transactionInput())],
        ['getTransaction', 'GET /api/pix/transaction/123', () => h.adapter.getTransaction(ctx(), '123')],
        ['refoundTransaction', 'POST /api/pix/refund-in/123', () => h.adapter.refoundTransaction(ctx(), '123', 100)],
        ['withdraw', 'POST /api/pix/cash-out', () => h.adapter.withdraw(ctx(), payout())],
        ['getWithdraw', 'GET /api/pix/transaction/456', () => h.adapter.getWithdraw(ctx(), '456')],
        ['getAccountBalance', 'GET /api/balance', () => h.adapter.getAccountBalance(ctx())],
      ],
      () => withToken(),
    );

    it('a charge without its PIX code, or a read without its amount, is UNAVAILABLE', async () => {
      withToken();
      h.fake.expect({ method: 'POST', path: '/api/pix/cash-in', reply: { status: 201, body: { transactionId: '123', status: 'PENDING' } } });
      expect(await failure(h.adapter.createTransaction(ctx(), transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao criar transação: resposta do provedor em formato inesperado (pixCode: esperado string)',
      });
      h.fake.expect({ method: 'GET', path: '/api/pix/transaction/123', reply: { body: { id: '123', status: 'CONFIRMED' } } });
      expect((await failure(h.adapter.getTransaction(ctx(), '123'))).code).toBe('UNAVAILABLE');
    });

    it.each<[string, string, unknown, () => Promise<unknown>]>([
      [
        'a charge whose id is an object',
        'POST /api/pix/cash-in',
        { transactionId: { id: 1 }, status: 'PENDING', pixCode: PIX_CODE },
        () => h.adapter.createTransaction(ctx(), transactionInput()),
      ],
      [
        'a charge whose status is a number',
        'POST /api/pix/cash-in',
        { transactionId: '1', status: 2, pixCode: PIX_CODE },
        () => h.adapter.createTransaction(ctx(), transactionInput()),
      ],
      [
        'a read whose amount is not money',
        'GET /api/pix/transaction/123',
        { id: '123', status: 'CONFIRMED', originalAmount: '19,90' },
        () => h.adapter.getTransaction(ctx(), '123'),
      ],
      [
        'a read whose status is not text',
        'GET /api/pix/transaction/123',
        { id: '123', status: true, originalAmount: 19.9 },
        () => h.adapter.getTransaction(ctx(), '123'),
      ],
      ['a refund without its status', 'POST /api/pix/refund-in/123', { transactionId: '789' }, () => h.adapter.refoundTransaction(ctx(), '123', 100)],
      ['a payout whose id is blank', 'POST /api/pix/cash-out', { transactionId: ' ', status: 'PENDING' }, () => h.adapter.withdraw(ctx(), payout())],
      [
        'a payout read whose status is not text',
        'GET /api/pix/transaction/456',
        { id: '456', status: null, originalAmount: 15.5 },
        () => h.adapter.getWithdraw(ctx(), '456'),
      ],
    ])('%s is the one bad-answer failure (UNAVAILABLE), never a status or INTERNAL', async (_label, route, body, run) => {
      withToken();
      const [method, path] = route.split(' ');
      h.fake.expect({ method: method!, path: path!, reply: { status: method === 'POST' ? 201 : 200, body } });
      expect(await failure(run())).toEqual({ code: 'UNAVAILABLE', message: expect.stringContaining('resposta do provedor em formato inesperado') });
    });
  });

  describe('webhooks', () => {
    const base = { transactionType: 'PIX', feeAmount: 0.01, processingDate: NOW.toISOString(), errorCode: null, errorMessage: null, metadata: {} };
    const cashIn = (status: string) => ({
      ...base,
      event: 'CashIn',
      status,
      movementType: 'CREDIT',
      transactionId: '12345',
      externalId: 'order-77',
      originalAmount: 0.5,
    });
    const cashOut = (status: string) => ({
      ...base,
      event: 'CashOut',
      status,
      movementType: 'DEBIT',
      transactionId: '456',
      externalId: 'wd-1',
      originalAmount: 15.5,
    });
    const reversal = (event: 'CashInReversal' | 'CashOutReversal', status: string, wasTotalRefunded: boolean) => ({
      ...base,
      event,
      status,
      transactionId: '11111',
      originalAmount: 0.3,
      parentTransaction: { transactionId: event === 'CashInReversal' ? '12345' : '456', externalId: 'x', wasTotalRefunded, remainingAmountForRefund: 0.2 },
    });

    it.each([
      // A charge's event states the platform's fee (`feeAmount`, reais) and, once paid, the PIX's `endToEndId`.
      [
        { ...cashIn('CONFIRMED'), endToEndId: 'E00416968202611291200a1b2c3d4e5f6' },
        { type: 'TRANSACTION', transactionId: '12345', status: 'APPROVED', providerFee: 1, pixPayment: { endToEndId: 'E00416968202611291200a1b2c3d4e5f6' } },
      ],
      [
        { ...cashIn('ERROR'), endToEndId: null },
        { type: 'TRANSACTION', transactionId: '12345', status: 'REJECTED', providerFee: 1 },
      ],
      [
        { ...cashIn('PENDING'), feeAmount: 'n/a' },
        { type: 'TRANSACTION', transactionId: '12345', status: 'PENDING' },
      ],
      [cashOut('CONFIRMED'), { type: 'WITHDRAW', transactionId: '456', status: 'APPROVED' }],
      [cashOut('ERROR'), { type: 'WITHDRAW', transactionId: '456', status: 'REJECTED' }],
      // A failed CashOut says why (webhooks overview: errorCode and errorMessage when status is ERROR; the values are invented).
      [
        { ...cashOut('ERROR'), errorCode: 'INVALID_PIX_KEY', errorMessage: 'Chave PIX inválida' },
        { type: 'WITHDRAW', transactionId: '456', status: 'REJECTED', refusalReason: 'Chave PIX inválida' },
      ],
      [
        { ...cashOut('ERROR'), errorCode: 'INVALID_PIX_KEY' },
        { type: 'WITHDRAW', transactionId: '456', status: 'REJECTED', refusalReason: 'INVALID_PIX_KEY' },
      ],
      // A confirmed one keeps no reason, whatever it carries.
      [
        { ...cashOut('CONFIRMED'), errorMessage: 'x' },
        { type: 'WITHDRAW', transactionId: '456', status: 'APPROVED' },
      ],
      [reversal('CashInReversal', 'CONFIRMED', true), { type: 'TRANSACTION', transactionId: '12345', status: 'REFUNDED' }],
      [reversal('CashOutReversal', 'CONFIRMED', false), { type: 'WITHDRAW', transactionId: '456', status: 'REJECTED' }],
    ])('%j is %j', async (body, expected) => {
      expect(await h.adapter.processWebhook(ctx(), notification(body))).toEqual(expected);
    });

    it('ignores a partial or unconfirmed reversal, other events, bodies without an id and what it cannot parse', async () => {
      for (const body of [
        reversal('CashInReversal', 'CONFIRMED', false),
        reversal('CashInReversal', 'PENDING', true),
        reversal('CashOutReversal', 'ERROR', false),
        { ...reversal('CashInReversal', 'CONFIRMED', true), parentTransaction: undefined },
        { ...cashIn('CONFIRMED'), event: 'RefundIn' },
        { ...cashIn('CONFIRMED'), event: 'constructor' },
        { ...cashIn('CONFIRMED'), transactionId: ' ' },
        { ...cashIn('CONFIRMED'), status: undefined },
        'not json',
        [cashIn('CONFIRMED')],
      ])
        expect(await h.adapter.processWebhook(ctx(), notification(body))).toBeUndefined();
    });

    it('keys a notification by its event, object and status (the payload carries no event id)', () => {
      expect(h.adapter.notificationKey(ctx(), notification(cashIn('CONFIRMED')))).toBe('CashIn:12345:confirmed');
      expect(h.adapter.notificationKey(ctx(), notification(reversal('CashInReversal', 'CONFIRMED', true)))).toBe('CashInReversal:12345:refunded');
      expect(h.adapter.notificationKey(ctx(), notification('not json'))).toMatch(/^sha256:/);
    });

    describe('the credentials registered with the webhook: Basic, or the custom headers of POST /api/webhooks', () => {
      const body = Buffer.from(JSON.stringify(cashIn('CONFIRMED')));
      const withSecret = (): AdapterContext => ({ ...ctx(), webhookSecret: 'gateway:s3cr3t:with-colon' });
      const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });

      it('is valid when the Authorization header carries the account secret as user:password', () => {
        expect(h.adapter.verifyNotification(withSecret(), { body, headers: basic('gateway:s3cr3t:with-colon') })).toBe('valid');
      });

      it("is valid with the setup guide's custom headers: `Authorization: Bearer <secret>`, `X-Webhook-Secret: <secret>`", () => {
        const bearer = { ...ctx(), webhookSecret: 'my-secret-token' };
        expect(h.adapter.verifyNotification(bearer, { body, headers: { authorization: 'Bearer my-secret-token' } })).toBe('valid');
        expect(h.adapter.verifyNotification(bearer, { body, headers: { 'x-webhook-secret': 'my-secret-token' } })).toBe('valid');
        expect(
          h.adapter.verifyNotification({ ...ctx(), webhookSecret: 'Bearer my-secret-token' }, { body, headers: { authorization: 'Bearer my-secret-token' } }),
        ).toBe('valid');
      });

      it('is invalid with other credentials', () => {
        for (const headers of [
          basic('gateway:wrong') as Record<string, string>,
          { authorization: 'Bearer gateway:wrong' },
          { authorization: 'Basic' },
          { 'x-webhook-secret': 'abc123' },
          { authorization: 'Bearer other', 'x-webhook-secret': 'abc123' },
        ])
          expect(h.adapter.verifyNotification(withSecret(), { body, headers })).toBe('invalid');
      });

      it('is unsigned without the headers or without a secret on the account: the gateway then confirms by reading the transaction', () => {
        expect(h.adapter.verifyNotification(withSecret(), { body, headers: {} })).toBe('unsigned');
        expect(h.adapter.verifyNotification(ctx(), { body, headers: basic('gateway:s3cr3t:with-colon') })).toBe('unsigned');
      });
    });
  });
});
