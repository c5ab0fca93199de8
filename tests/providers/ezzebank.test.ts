import { describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { signTimestampedBody } from '../../server/lib/hmacSignature.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import {
  EZZEBANK,
  EzzebankAdapter,
  ezzebankPaymentRequest,
  ezzebankQrCodeRequest,
  toEzzebankPayment,
  toEzzebankQrCode,
} from '../../server/providers/ezzebank/adapter.js';
import type { Expectation } from '../support/fakeProvider.js';
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

/** EZZEBANK (spec doc 2, group 1): its API as public integrations use it (research and stored public code). */

const KEYS = { publicKey: 'ezze-client', secretKey: 'ezze-secret' };
const BEARER = { authorization: 'Bearer ezze-token-1' };
const PIX_CODE = '00020101021226870014br.gov.bcb.pix2565qrcode.ezzebank.com/v2/cobv/9b1c520400005303986540519.905802BR6304ABCD';
const DAY_MS = 86_400_000;

/** The token request: HTTP Basic base64(clientId:clientSecret), a form of grant_type only, at the base's /v2. */
const TOKEN: Expectation = {
  method: 'POST',
  path: '/v2/oauth/token',
  headers: { authorization: `Basic ${Buffer.from('ezze-client:ezze-secret').toString('base64')}`, 'content-type': /^application\/x-www-form-urlencoded/ },
  body: { grant_type: 'client_credentials' },
  reply: { body: { access_token: 'ezze-token-1', token_type: 'Bearer', expires_in: 1800 } },
};

const payout = (extra: Partial<WithdrawInput> = {}): WithdrawInput => ({
  paymentMethod: 'PIX',
  amount: 2500,
  pixKey: '123.456.789-09',
  pixType: 'CPF',
  description: 'Saque 9',
  withdrawReference: 'wd-9',
  name: 'Ana Souza',
  document: '123.456.789-09',
  ...extra,
});

describe('EZZEBANK (spec doc 2, group 1), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new EzzebankAdapter(EZZEBANK, runtime), account: () => KEYS });
  /** The account's base as the default one is: ending in /v2, every path under it. */
  const ctx = (): AdapterContext => ({ ...h.ctx, baseUrl: `${h.fake.url}/v2` });
  /** Each test's account takes one token, on its first call. */
  const withToken = () => h.fake.expect(TOKEN);

  it('offers PIX charges read back, PIX payouts (no read) and webhooks; both keys are required at the door', async () => {
    expect(EZZEBANK.identity.defaultBaseUrl).toBe('https://api.ezzebank.com/v2');
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, ctx(), h.fake);
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: 'ezze-secret' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'publicKey is required' }),
    );
    expect(() => h.adapter.checkAccount({ publicKey: 'ezze-client', secretKey: ' ' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect(() => h.adapter.checkAccount(KEYS)).not.toThrow();
    expect((await failure(h.adapter.createTransaction(ctx(), transactionInput({ paymentMethod: 'BILLET' })))).message).toBe(
      'Payment method not supported by EZZEBANK',
    );
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    expectBodiesOf(ezzebankQrCodeRequest, [
      toEzzebankQrCode(transactionInput({ description: 'Curso' }), 19.9),
      toEzzebankQrCode(bareTransactionInput({ idempotencyKey: 'idem-1' }), 19.9),
    ]);
    expectBodiesOf(ezzebankPaymentRequest, [
      ...PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toEzzebankPayment({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType, withdrawReference: 'wd-1' }, 25)),
      toEzzebankPayment(
        { paymentMethod: 'PIX', amount: 2500, pixKey: 'ana@example.com', pixType: 'EMAIL', name: 'Ana', document: '123.456.789-09', idempotencyKey: 'k' },
        25,
      ),
    ]);
  });

  it('takes its token, then charges by POST /v2/pix/qrcode {amount in reais, payerQuestion, external_id, payer}; valid 1 day', async () => {
    const token = withToken();
    h.fake.expect({
      method: 'POST',
      path: '/v2/pix/qrcode',
      headers: { ...BEARER, 'content-type': /^application\/json/ },
      body: { amount: 19.9, payerQuestion: 'Pedido 77', external_id: 'order-77', payer: { name: 'Ana Souza', document: '12345678909' } },
      reply: { body: { transactionId: 'ez-tx-1', external_id: 'order-77', emvqrcps: PIX_CODE } },
    });
    h.fake.expect({ method: 'GET', path: '/v2/pix/qrcode/ez-tx-1/detail', headers: BEARER, reply: { body: { status: 'APPROVED', amount: 19.9 } } });

    expect(await h.adapter.createTransaction(ctx(), transactionInput({ description: 'Pedido 77' }))).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'ez-tx-1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
    // The token is cached: the read presents it again without asking.
    expect(await h.adapter.getTransaction(ctx(), 'ez-tx-1')).toEqual({ paymentMethod: 'PIX', transactionId: 'ez-tx-1', status: 'APPROVED', amount: 1990 });
    expect(token.calls).toHaveLength(1);
  });

  it('sends no payer without a customer and no question without a description; external_id is then the idempotency key', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/v2/pix/qrcode',
      body: { amount: 0.29, external_id: 'idem-1' },
      reply: { body: { transactionId: 7, emvqrcps: PIX_CODE, amount: '0.29' } },
    });
    expect(await h.adapter.createTransaction(ctx(), bareTransactionInput({ amount: 29, idempotencyKey: 'idem-1' }))).toMatchObject({
      transactionId: '7',
      amount: 29,
    });
  });

  it("keeps EzzeBank's refusal under the spec's prefix", async () => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/v2/pix/qrcode', reply: { status: 400, body: { statusCode: 400, message: 'Documento do pagador inválido' } } });
    expect(await failure(h.adapter.createTransaction(ctx(), transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: Documento do pagador inválido',
    });
  });

  it('fails the call, under its prefix, when the token endpoint refuses the client', async () => {
    h.fake.expect({ ...TOKEN, reply: { status: 401, body: { statusCode: 401, message: 'Credenciais inválidas' } } });
    expect(await failure(h.adapter.getTransaction(ctx(), 'ez-tx-1'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao buscar transação: Credenciais inválidas',
    });
  });

  it.each([
    ['APPROVED', 'APPROVED'],
    ['PAID', 'APPROVED'],
    ['PENDING', 'PENDING'],
    ['WAITING_PAYMENT', 'PENDING'],
    ['CANCELED', 'CANCELED'],
    ['EXPIRED', 'REJECTED'],
    ['REFUNDED', 'REFUNDED'],
    ['CHARGEBACK', 'CHARGEBACK'],
    ['MYSTERY', 'REJECTED'],
  ])('reads GET /v2/pix/qrcode/{id}/detail: %s is %s', async (status, expected) => {
    withToken();
    h.fake.expect({
      method: 'GET',
      path: '/v2/pix/qrcode/ez-tx-1/detail',
      headers: BEARER,
      reply: { body: { transactionId: 'ez-tx-1', status, amount: 19.9 } },
    });
    expect(await h.adapter.getTransaction(ctx(), 'ez-tx-1')).toEqual({ paymentMethod: 'PIX', transactionId: 'ez-tx-1', status: expected, amount: 1990 });
    expect(h.warn).toHaveBeenCalledTimes(status === 'MYSTERY' ? 1 : 0);
  });

  it('pays out by POST /v2/pix/payment {external_id, amount, description, creditParty{name, keyType, key, taxId}}', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/v2/pix/payment',
      headers: BEARER,
      body: {
        external_id: 'wd-9',
        amount: 25,
        description: 'Saque 9',
        creditParty: { name: 'Ana Souza', keyType: 'CPF', key: '12345678909', taxId: '12345678909' },
      },
      reply: { body: { transactionId: 'ez-po-1', status: 'PROCESSING' } },
    });
    expect(await h.adapter.withdraw(ctx(), payout())).toEqual({ withdrawId: 'ez-po-1', status: 'PENDING', amount: 2500 });
  });

  it.each([
    ['CPF', '123.456.789-09', 'CPF', '12345678909'],
    ['CNPJ', '12.345.678/0001-95', 'CNPJ', '12345678000195'],
    ['PHONE', '(11) 98765-4321', 'TELEFONE', '+5511987654321'],
    ['EMAIL', 'Ana@Example.com', 'EMAIL', 'Ana@Example.com'],
    ['RANDOM', '123e4567-e89b-12d3-a456-426614174000', 'CHAVE_ALEATORIA', '123e4567-e89b-12d3-a456-426614174000'],
  ] as const)('names a %s key %s as keyType %s, key %s', (pixType, pixKey, keyType, key) => {
    expect(toEzzebankPayment({ ...payout(), pixType, pixKey }, 25).creditParty).toEqual({ name: 'Ana Souza', keyType, key, taxId: '12345678909' });
  });

  it('takes taxId from a CPF or CNPJ key when the caller gives no document, and never invents a name or a document', () => {
    const bare = { paymentMethod: 'PIX' as const, amount: 1050, idempotencyKey: 'idem-po' };
    expect(toEzzebankPayment({ ...bare, pixKey: '12.345.678/0001-95', pixType: 'CNPJ' }, 10.5)).toEqual({
      external_id: 'idem-po',
      amount: 10.5,
      description: 'Saque solicitado',
      creditParty: { keyType: 'CNPJ', key: '12345678000195', taxId: '12345678000195' },
    });
    expect(toEzzebankPayment({ ...bare, pixKey: 'ana@example.com', pixType: 'EMAIL' }, 10.5).creditParty).toEqual({ keyType: 'EMAIL', key: 'ana@example.com' });
  });

  it('refuses a payout without a key or its type before anything is sent', async () => {
    expect(await failure(h.adapter.withdraw(ctx(), payout({ pixKey: ' ' })))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failure(h.adapter.withdraw(ctx(), payout({ pixType: undefined })))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(0);
  });

  describe('answers that are not the resource', () => {
    itRefusesGarbageAnswers(
      h,
      [
        ['createTransaction', 'POST /v2/pix/qrcode', () => h.adapter.createTransaction(ctx(), transactionInput())],
        ['getTransaction', 'GET /v2/pix/qrcode/ez-tx-1/detail', () => h.adapter.getTransaction(ctx(), 'ez-tx-1')],
        ['withdraw', 'POST /v2/pix/payment', () => h.adapter.withdraw(ctx(), payout())],
      ],
      () => withToken(),
    );

    it('a charge without its PIX code, or a read without an amount, is UNAVAILABLE naming the field', async () => {
      withToken();
      h.fake.expect({ method: 'POST', path: '/v2/pix/qrcode', reply: { body: { transactionId: 'ez-tx-1' } } });
      expect(await failure(h.adapter.createTransaction(ctx(), transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao criar transação: resposta do provedor em formato inesperado (emvqrcps: esperado string)',
      });
      h.fake.expect({ method: 'GET', path: '/v2/pix/qrcode/ez-tx-1/detail', reply: { body: { status: 'APPROVED' } } });
      expect(await failure(h.adapter.getTransaction(ctx(), 'ez-tx-1'))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao buscar transação: resposta do provedor em formato inesperado (amount: invalid_union)',
      });
    });

    it.each([
      ['createTransaction', 'POST', '/v2/pix/qrcode', { transactionId: ['ez'], emvqrcps: 'x' }, 'transactionId: invalid_union'],
      ['getTransaction', 'GET', '/v2/pix/qrcode/ez-tx-1/detail', { status: 2, amount: 19.9 }, 'status: esperado string'],
      ['getTransaction', 'GET', '/v2/pix/qrcode/ez-tx-1/detail', { status: 'APPROVED', amount: 'R$ 19,90' }, 'amount: invalid_format'],
      ['withdraw', 'POST', '/v2/pix/payment', { status: 'PENDING' }, 'transactionId: invalid_union'],
      ['withdraw', 'POST', '/v2/pix/payment', { transactionId: 'ez-po-1', status: { id: 2 } }, 'status: esperado string'],
    ] as const)('%s answered %s %s with a wrong-typed field is UNAVAILABLE naming it, never a status', async (operation, method, path, body, field) => {
      withToken();
      h.fake.expect({ method, path, reply: { body } });
      const run =
        operation === 'createTransaction'
          ? h.adapter.createTransaction(ctx(), transactionInput())
          : operation === 'getTransaction'
            ? h.adapter.getTransaction(ctx(), 'ez-tx-1')
            : h.adapter.withdraw(ctx(), payout());
      const { code, message } = await failure(run);
      expect(code).toBe('UNAVAILABLE');
      expect(message).toMatch(new RegExp(`^Erro ao .+: resposta do provedor em formato inesperado \\(${field.replace(/[()]/g, '\\$&')}\\)$`));
    });
  });

  describe('webhooks', () => {
    const receive = (statusCode?: unknown) => ({
      requestBody: {
        transactionType: 'RECEIVEPIX',
        transactionId: 'ez-tx-1',
        external_id: 'order-77',
        amount: 19.9,
        ...(statusCode === undefined ? {} : { statusCode }),
      },
    });
    const payment = (statusId: number) => ({
      requestBody: { transactionType: 'PAYMENT', transactionId: 'ez-po-1', external_id: 'wd-9', amount: 25, statusCode: { statusId } },
    });

    it.each([
      [{ statusId: 2, description: 'Confirmado' }, 'APPROVED'],
      [{ statusId: '2' }, 'APPROVED'],
      [{ statusId: 3 }, 'CANCELED'],
      [{ statusId: 9999 }, 'CANCELED'],
      [undefined, 'PENDING'],
      [{ statusId: 7 }, 'REJECTED'],
    ])('a RECEIVEPIX with statusCode %j is the charge %s', async (statusCode, expected) => {
      expect(await h.adapter.processWebhook(ctx(), notification(receive(statusCode)))).toEqual({
        type: 'TRANSACTION',
        transactionId: 'ez-tx-1',
        status: expected,
      });
    });

    it.each([
      [2, 'APPROVED'],
      [3, 'CANCELED'],
      [9999, 'CANCELED'],
      [1, 'PENDING'],
    ])('a PAYMENT with statusId %s is the payout %s', async (statusId, expected) => {
      expect(await h.adapter.processWebhook(ctx(), notification(payment(statusId)))).toEqual({ type: 'WITHDRAW', transactionId: 'ez-po-1', status: expected });
    });

    it('ignores other types, bare bodies and what it cannot parse', async () => {
      const paid = receive({ statusId: 2 });
      for (const body of [
        { requestBody: { ...paid.requestBody, transactionType: 'TRANSFER' } },
        { requestBody: { ...paid.requestBody, transactionType: 'constructor' } },
        { requestBody: { ...paid.requestBody, transactionId: ' ' } },
        paid.requestBody,
        { requestBody: 'RECEIVEPIX' },
        // A status that cannot be read is not read as pending.
        { requestBody: { ...paid.requestBody, statusCode: { statusId: { id: 2 } } } },
        'not json',
        [paid],
      ])
        expect(await h.adapter.processWebhook(ctx(), notification(body))).toBeUndefined();
    });

    it('keys a notification by its kind, id and statusId (the payload carries no event id)', () => {
      expect(h.adapter.notificationKey(ctx(), notification(receive({ statusId: 2 })))).toBe('transaction:ez-tx-1:2');
      expect(h.adapter.notificationKey(ctx(), notification(payment(3)))).toBe('withdrawal:ez-po-1:3');
      expect(h.adapter.notificationKey(ctx(), notification('not json'))).toMatch(/^sha256:/);
    });

    describe('the verify-signature header', () => {
      const body = Buffer.from(JSON.stringify(receive({ statusId: 2 })));
      const T = Math.floor(NOW.getTime() / 1000);
      const withSecret = (): AdapterContext => ({ ...ctx(), webhookSecret: 'ezze-signature-secret' });
      const signed = (secret: string, t = T, signedBody: Buffer = body) => ({
        'verify-signature': `t=${t},vsign=${signTimestampedBody(secret, t, signedBody)}`,
      });

      it('is valid when vsign is the hex HMAC-SHA256 of "<t>.<raw body>" under the account secret, within 5 minutes', () => {
        expect(h.adapter.verifyNotification(withSecret(), { body, headers: signed('ezze-signature-secret') })).toBe('valid');
        expect(h.adapter.verifyNotification(withSecret(), { body, headers: signed('ezze-signature-secret', T - 300) })).toBe('valid');
      });

      it('is invalid with another secret, another body, an old timestamp, a v1 name or no header', () => {
        const other = Buffer.from(JSON.stringify(receive({ statusId: 3 })));
        const v1 = { 'verify-signature': `t=${T},v1=${signTimestampedBody('ezze-signature-secret', T, body)}` };
        for (const headers of [signed('other-secret'), signed('ezze-signature-secret', T, other), signed('ezze-signature-secret', T - 301), v1, {}])
          expect(h.adapter.verifyNotification(withSecret(), { body, headers })).toBe('invalid');
      });

      it('measures the age from the arrival of a stored notification checked again', () => {
        const receivedAt = new Date(NOW.getTime() - 3_600_000);
        const headers = signed('ezze-signature-secret', T - 3600);
        expect(h.adapter.verifyNotification(withSecret(), { body, headers, receivedAt })).toBe('valid');
      });

      it('is unsigned when the account holds no secret: a charge is then confirmed by its read, a payout stays unconfirmed', () => {
        expect(h.adapter.verifyNotification(ctx(), { body, headers: signed('ezze-signature-secret') })).toBe('unsigned');
        expect(h.adapter.supports('getTransaction')).toBe(true);
        expect(h.adapter.supports('getWithdraw')).toBe(false);
      });
    });
  });

  it.each([
    [{ transactionId: 'ez-po-2' }, 'PENDING'],
    [{ transactionId: 'ez-po-2', status: 'FAILED' }, 'REJECTED'],
  ])('a payout answered %j is %s', async (reply, expected) => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/v2/pix/payment', reply: { body: reply } });
    expect(await h.adapter.withdraw(ctx(), payout())).toEqual({ withdrawId: 'ez-po-2', status: expected, amount: 2500 });
  });
});
