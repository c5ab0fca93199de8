import { describe, expect, it } from '@jest/globals';
import type { PixKeyType, WithdrawInput } from '../../server/domain/types.js';
import { CATALOGUE, FAILURE_PREFIXES, paymentMethodNotSupportedBy } from '../../server/lib/providerMessages.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { createRegistry } from '../../server/providers/catalog.js';
import {
  PRONTTUS,
  PRONTTUS_STATUSES,
  PRONTTUS_WITHDRAWAL_STATUSES,
  PronttusAdapter,
  pronttusPaymentRequest,
  pronttusRefundRequest,
  pronttusWithdrawRequest,
  toPronttusPayment,
  toPronttusRefund,
  toPronttusWithdraw,
} from '../../server/providers/pronttus/adapter.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES } from '../support/fakeProvider.js';
import {
  LATE_MS,
  NOW,
  TIMEOUT_TEXT,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

const PIX_CODE = '00020126360014br.gov.bcb.pix0114+5511999999999520400005303986540519.905802BR5908PRONTTUS6009SAO PAULO62070503***6304BEEF';
/** The research's headers: the client id (public key) and the client secret (secret key). */
const AUTH = { 'x-client-id': 'pronttus-client-1', 'x-client-secret': 'pronttus-secret-1' };
const WITHDRAWAL: WithdrawInput = {
  paymentMethod: 'PIX',
  amount: 2500,
  pixKey: '123.456.789-09',
  pixType: 'CPF',
  name: 'Ana Souza',
  document: '123.456.789-09',
};
const create = (body: unknown, extra: object = {}) => ({ method: 'POST', path: '/v1/payment', reply: { body }, ...extra });

/** The kit's text for an answer its schema refuses (the field at fault follows). */
const BAD_ANSWER = 'resposta do provedor em formato inesperado (';

describe('PRONTTUS (spec doc 2, group 2), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new PronttusAdapter(PRONTTUS, runtime),
    account: () => ({ publicKey: AUTH['x-client-id'], secretKey: AUTH['x-client-secret'] }),
  });
  /** The account as in production: the research's host carries /v1, the spec's paths do not (but the refund's). */
  const v1 = (): AdapterContext => ({ ...h.ctx, baseUrl: `${h.fake.url}/v1` });

  it('offers PIX charges, their refunds, PIX payouts and notifications; the rest rejects with the spec text', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, v1(), h.fake);
    for (const paymentMethod of ['BILLET', 'CREDIT_CARD'] as const)
      expect(await failure(h.adapter.createTransaction(v1(), transactionInput({ paymentMethod, cardId: 'c' })))).toEqual({
        code: 'UNIMPLEMENTED',
        message: paymentMethodNotSupportedBy('PRONTTUS'),
      });
    expect(h.adapter.verifyNotification(v1(), notification({}))).toBe('unsigned');
  });

  it('needs both keys, and says so without calling the provider', async () => {
    for (const key of ['publicKey', 'secretKey'])
      expect(await failure(h.adapter.getTransaction({ ...v1(), [key]: '' }, 'tx_1'))).toEqual({ code: 'FAILED_PRECONDITION', message: `${key} is required` });
    expect(h.fake.received).toHaveLength(0);
  });

  describe('createTransaction: POST /payment', () => {
    it('sends the customer and the amount in cents with both keys; answers the code, its image and a 1-day expiry', async () => {
      h.fake.expect(
        create(
          { transactionId: 'pr_tx_1', pixCode: PIX_CODE },
          {
            headers: AUTH,
            body: {
              customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
              amount: 1990,
              description: 'Pagamento via PIX',
            },
          },
        ),
      );
      expect(await h.adapter.createTransaction(v1(), transactionInput())).toEqual({
        paymentMethod: 'PIX',
        transactionId: 'pr_tx_1',
        status: 'PENDING',
        amount: 1990,
        pixCode: PIX_CODE,
        expiresAt: new Date(NOW.getTime() + 86_400_000),
      });
    });

    it("sends the caller's description without a customer; reads an enveloped answer's status, amount and expiry", async () => {
      const answer = { data: { id: 77, status: 'PENDING', amount: 500, pixCode: PIX_CODE, expiresAt: '2025-03-10T12:30:00.000Z' } };
      h.fake.expect(create(answer, { body: { amount: 500, description: 'Curso avulso' } }));
      expect(await h.adapter.createTransaction(v1(), bareTransactionInput({ amount: 500, description: 'Curso avulso' }))).toMatchObject({
        transactionId: '77',
        status: 'PENDING',
        amount: 500,
        expiresAt: new Date('2025-03-10T12:30:00.000Z'),
      });
    });

    it.each([
      [400, { code: 'INVALID_DOCUMENT', message: 'Documento inválido' }, 'INVALID_ARGUMENT', 'Documento inválido'],
      [401, { code: 'UNAUTHORIZED', message: 'Credenciais inválidas' }, 'FAILED_PRECONDITION', 'Credenciais inválidas'],
      [503, { message: 'Service unavailable' }, 'UNAVAILABLE', 'Service unavailable'],
    ])('keeps the message of a %i {code, message} under the prefix, sent once', async (status, body, code, text) => {
      h.fake.expect(create(body, { reply: { status, body } }));
      expect(await failure(h.adapter.createTransaction(v1(), transactionInput()))).toEqual({
        code,
        message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${text}`,
      });
      expect(h.fake.received).toHaveLength(1);
    });

    it.each([...BODIES_WITHOUT_RESOURCE, ['an answer without its code', { transactionId: 'pr_tx_2', status: 'PENDING' }] as const])(
      'an answer that is %s is UNAVAILABLE, never a charge',
      async (_label, body) => {
        h.fake.expect(create(body));
        expect(await failure(h.adapter.createTransaction(v1(), transactionInput()))).toEqual({
          code: 'UNAVAILABLE',
          message: expect.stringContaining(`${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${BAD_ANSWER}`),
        });
      },
    );

    it('keeps the message of a refusal inside a 2xx; an unreadable amount or a timeout is UNAVAILABLE', async () => {
      h.fake.expect(create({ code: 'LIMIT', message: 'Limite excedido' }));
      expect(await failure(h.adapter.createTransaction(v1(), transactionInput()))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: Limite excedido`,
      });
      h.fake.expect(create({ transactionId: 'pr_tx_3', pixCode: PIX_CODE, amount: { cents: 1990 } }));
      expect(await failure(h.adapter.createTransaction(v1(), transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${BAD_ANSWER}amount: invalid_union)`,
      });
      h.fake.expect(create({}, { reply: { delayMs: LATE_MS, body: {} } }));
      expect(await failure(h.adapter.createTransaction(v1(), transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${TIMEOUT_TEXT}`,
      });
    });
  });

  describe('getTransaction: GET /payment/{id}', () => {
    it.each(Object.entries(PRONTTUS_STATUSES.entries))('reads %s → %s', async (status, expected) => {
      h.fake.expect({
        method: 'GET',
        path: '/v1/payment/pr%2F1',
        headers: AUTH,
        reply: { body: { transactionId: 'pr/1', status: status.toUpperCase(), amount: 1990, pixCode: PIX_CODE } },
      });
      expect(await h.adapter.getTransaction(v1(), 'pr/1')).toEqual({
        paymentMethod: 'PIX',
        transactionId: 'pr/1',
        status: expected,
        amount: 1990,
        pixCode: PIX_CODE,
      });
      expect(h.warn).not.toHaveBeenCalled();
    });

    it("reads the spec's PAID as APPROVED and INFRACTION as CHARGEBACK, the table's reading of doc 2 §4 (not the notes' APPROVED)", async () => {
      for (const [status, expected] of [
        ['PAID', 'APPROVED'],
        ['INFRACTION', 'CHARGEBACK'],
        ['infraction', 'CHARGEBACK'],
      ]) {
        h.fake.expect({ method: 'GET', path: '/v1/payment/pr_2', reply: { body: { transactionId: 'pr_2', status, amount: 1990 } } });
        expect((await h.adapter.getTransaction(v1(), 'pr_2')).status).toBe(expected);
      }
    });

    it('maps an unknown status to REJECTED (the common rule) and logs it with the provider', async () => {
      h.fake.expect({ method: 'GET', path: '/v1/payment/pr_3', reply: { body: { status: 'UNDER_REVIEW' } } });
      expect(await h.adapter.getTransaction(v1(), 'pr_3')).toEqual({ paymentMethod: 'PIX', transactionId: 'pr_3', status: 'REJECTED', amount: 0 });
      expect(h.warn).toHaveBeenCalledWith(
        { provider: 'PRONTTUS', providerStatus: 'UNDER_REVIEW', mappedTo: 'REJECTED' },
        'unknown provider transaction status',
      );
    });

    it.each(GARBAGE_2XX_BODIES)('an answer that is %s is an error, never a status', async (_label, body) => {
      h.fake.expect({ method: 'GET', path: '/v1/payment/pr_g', reply: { body } });
      await expect(h.adapter.getTransaction(v1(), 'pr_g')).rejects.toMatchObject({
        message: expect.stringMatching(new RegExp(`^${FAILURE_PREFIXES.GET_TRANSACTION}: `)),
      });
    });

    it('keeps a 404 as NOT_FOUND and a persistent 5xx as UNAVAILABLE after the read retries', async () => {
      h.fake.expect({ method: 'GET', path: '/v1/payment/nope', reply: { status: 404, body: { code: 'NOT_FOUND', message: 'Pagamento não encontrado' } } });
      expect(await failure(h.adapter.getTransaction(v1(), 'nope'))).toEqual({
        code: 'NOT_FOUND',
        message: `${FAILURE_PREFIXES.GET_TRANSACTION}: Pagamento não encontrado`,
      });
      h.fake.expect({ method: 'GET', path: '/v1/payment/pr_1', times: 3, reply: { status: 502, body: { message: 'Bad gateway' } } });
      expect(await failure(h.adapter.getTransaction(v1(), 'pr_1'))).toEqual({
        code: 'UNAVAILABLE',
        message: `${FAILURE_PREFIXES.GET_TRANSACTION}: Bad gateway`,
      });
    });
  });

  describe('refoundTransaction: POST /v1/payment/refund', () => {
    it.each([
      ['a host with /v1', (ctx: AdapterContext) => ({ ...ctx, baseUrl: `${ctx.baseUrl}/v1` })],
      ['a host without it', (ctx: AdapterContext) => ctx],
    ])('reaches /v1/payment/refund from %s, the payment and amount in the body', async (_label, account) => {
      h.fake.expect({
        method: 'POST',
        path: '/v1/payment/refund',
        headers: AUTH,
        body: { transactionId: 'pr_tx_1', amount: 1990 },
        reply: { body: { refundId: 'rf_1', status: 'REFUNDED' } },
      });
      expect(await h.adapter.refoundTransaction(account(h.ctx), 'pr_tx_1', 1990)).toEqual({ refundId: 'rf_1', status: true });
    });

    it("answers a refusal in a 2xx as status false under the payment's id", async () => {
      h.fake.expect({ method: 'POST', path: '/v1/payment/refund', reply: { body: { status: 'FAILED' } } });
      expect(await h.adapter.refoundTransaction(v1(), 'pr_tx_1', 500)).toEqual({ refundId: 'pr_tx_1', status: false });
    });

    it.each([
      [422, { code: 'REFUND_NOT_ALLOWED', message: 'Pagamento não pode ser estornado' }, 'INVALID_ARGUMENT', 'Pagamento não pode ser estornado'],
      [500, { message: 'boom' }, 'UNAVAILABLE', 'boom'],
    ])('keeps the message of a %i under the refund prefix (%s)', async (status, body, code, text) => {
      h.fake.expect({ method: 'POST', path: '/v1/payment/refund', reply: { status, body } });
      expect(await failure(h.adapter.refoundTransaction(v1(), 'pr_tx_1', 1990))).toEqual({ code, message: `${FAILURE_PREFIXES.REFUND_TRANSACTION}: ${text}` });
    });

    it.each(BODIES_WITHOUT_RESOURCE)('a refund answer that is %s is never "refunded": UNAVAILABLE', async (_label, body) => {
      h.fake.expect({ method: 'POST', path: '/v1/payment/refund', reply: { body } });
      expect(await failure(h.adapter.refoundTransaction(v1(), 'pr_tx_1', 1990))).toEqual({
        code: 'UNAVAILABLE',
        message: expect.stringContaining(`${FAILURE_PREFIXES.REFUND_TRANSACTION}: ${BAD_ANSWER}`),
      });
    });
  });

  describe('withdraw: POST /payment/withdraw', () => {
    it.each([
      ['CPF', '123.456.789-09', '12345678909'],
      ['CNPJ', '11.222.333/0001-81', '11222333000181'],
      ['PHONE', '(11) 98765-4321', '11987654321'],
      ['EMAIL', 'Ana.Souza@Example.com', 'Ana.Souza@Example.com'],
      ['RANDOM', '123e4567-e89b-12d3-a456-426655440000', '123e4567-e89b-12d3-a456-426655440000'],
    ] as Array<[PixKeyType, string, string]>)(
      'pays out to a %s key in cents with the holder; accepted without a status is PENDING',
      async (pixType, pixKey, key) => {
        h.fake.expect({
          method: 'POST',
          path: '/v1/payment/withdraw',
          headers: AUTH,
          body: { amount: 2500, type: 'PIX', details: { key, keyType: pixType, name: 'Ana Souza', document: '12345678909' } },
          reply: { status: 201, body: { id: 'pw_1' } },
        });
        expect(await h.adapter.withdraw(v1(), { ...WITHDRAWAL, pixKey, pixType })).toEqual({ withdrawId: 'pw_1', amount: 2500, status: 'PENDING' });
      },
    );

    it.each(Object.entries(PRONTTUS_WITHDRAWAL_STATUSES.entries))('reads a payout answered %s as %s', async (status, expected) => {
      h.fake.expect({
        method: 'POST',
        path: '/v1/payment/withdraw',
        body: { amount: 2500, type: 'PIX', details: { key: 'a@b.co', keyType: 'EMAIL' } },
        reply: { body: { data: { withdrawId: 9, status, amount: 2500 } } },
      });
      expect(await h.adapter.withdraw(v1(), { paymentMethod: 'PIX', amount: 2500, pixKey: 'a@b.co', pixType: 'EMAIL' })).toEqual({
        withdrawId: '9',
        amount: 2500,
        status: expected,
      });
    });

    it('refuses, before calling, a payout that is not PIX or lacks its key or key type (never guessed)', async () => {
      expect(await failure(h.adapter.withdraw(v1(), { ...WITHDRAWAL, paymentMethod: 'BANK_ACCOUNT' }))).toEqual({
        code: 'UNIMPLEMENTED',
        message: CATALOGUE.WITHDRAW_METHOD_NAO_IMPLEMENTADO.message,
      });
      expect((await failure(h.adapter.withdraw(v1(), { ...WITHDRAWAL, pixKey: '' }))).code).toBe('INVALID_ARGUMENT');
      expect((await failure(h.adapter.withdraw(v1(), { ...WITHDRAWAL, pixType: undefined }))).message).toBe(
        'withdraw.pix_type is required for PIX withdrawals',
      );
      expect(h.fake.received).toHaveLength(0);
    });

    it('keeps the message of a refusal; a 5xx is UNAVAILABLE and sent once; an answer without an id is never a payout', async () => {
      h.fake.expect({ method: 'POST', path: '/v1/payment/withdraw', reply: { status: 400, body: { code: 'BALANCE', message: 'Saldo insuficiente' } } });
      expect(await failure(h.adapter.withdraw(v1(), WITHDRAWAL))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `${FAILURE_PREFIXES.WITHDRAW}: Saldo insuficiente`,
      });
      h.fake.expect({ method: 'POST', path: '/v1/payment/withdraw', reply: { status: 504, body: 'Gateway timeout' } });
      expect(await failure(h.adapter.withdraw(v1(), WITHDRAWAL))).toEqual({ code: 'UNAVAILABLE', message: `${FAILURE_PREFIXES.WITHDRAW}: Gateway timeout` });
      for (const body of BODIES_WITHOUT_RESOURCE.map(([, value]) => value)) {
        h.fake.expect({ method: 'POST', path: '/v1/payment/withdraw', reply: { body } });
        expect(await failure(h.adapter.withdraw(v1(), WITHDRAWAL))).toEqual({
          code: 'UNAVAILABLE',
          message: expect.stringContaining(`${FAILURE_PREFIXES.WITHDRAW}: ${BAD_ANSWER}`),
        });
      }
      expect(h.fake.received).toHaveLength(2 + BODIES_WITHOUT_RESOURCE.length);
    });
  });

  describe('processWebhook', () => {
    it.each(Object.entries(PRONTTUS_STATUSES.entries))('reads a payment notification %s → %s', async (status, expected) => {
      expect(await h.adapter.processWebhook(v1(), notification({ transactionId: 'pr_tx_1', status: status.toUpperCase() }))).toEqual({
        type: 'TRANSACTION',
        transactionId: 'pr_tx_1',
        status: expected,
      });
    });

    it('reads an enveloped payment, an infraction event and a payout through their tables', async () => {
      expect(await h.adapter.processWebhook(v1(), notification({ event: 'payment.updated', data: { id: 5, status: 'PAID' } }))).toEqual({
        type: 'TRANSACTION',
        transactionId: '5',
        status: 'APPROVED',
      });
      expect(await h.adapter.processWebhook(v1(), notification({ type: 'INFRACTION', transactionId: 'pr_tx_1', status: 'INFRACTION' }))).toEqual({
        type: 'TRANSACTION',
        transactionId: 'pr_tx_1',
        status: 'CHARGEBACK',
      });
      expect(await h.adapter.processWebhook(v1(), notification({ type: 'withdraw', id: 'pw_1', status: 'COMPLETED' }))).toEqual({
        type: 'WITHDRAW',
        transactionId: 'pw_1',
        status: 'APPROVED',
      });
    });

    it('ignores events of other kinds and bodies it cannot use, and keys one notification by kind, id and status', async () => {
      for (const body of [
        '{not json',
        'null',
        { hello: 'world' },
        { transactionId: 'x' },
        { type: 'account.updated', id: 1, status: 'ACTIVE' },
        { event: 3, id: 1, status: 'PAID' },
      ])
        expect(await h.adapter.processWebhook(v1(), notification(body))).toBeUndefined();
      const key = (body: unknown) => h.adapter.notificationKey(v1(), notification(body));
      expect(key({ transactionId: 'pr_tx_1', status: 'PAID', sentAt: 1 })).toBe('payment:pr_tx_1:paid');
      expect(key({ event: 'payment', data: { transactionId: 'pr_tx_1', status: 'paid' } })).toBe('payment:pr_tx_1:paid');
      expect(key('{not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
    });
  });

  describe('answers read by schema: garbage is UNAVAILABLE under the operation prefix, never a status', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /v1/payment', () => h.adapter.createTransaction(v1(), transactionInput())],
      ['getTransaction', 'GET /v1/payment/pr_1', () => h.adapter.getTransaction(v1(), 'pr_1')],
      ['refoundTransaction', 'POST /v1/payment/refund', () => h.adapter.refoundTransaction(v1(), 'pr_1', 500)],
      ['withdraw', 'POST /v1/payment/withdraw', () => h.adapter.withdraw(v1(), WITHDRAWAL)],
    ]);

    it('a 2xx payout that carries a message beside other fields is no refusal: UNAVAILABLE (held), never a freed key', async () => {
      h.fake.expect({ method: 'POST', path: '/v1/payment/withdraw', reply: { body: { message: 'Saque em processamento', status: 'PROCESSING' } } });
      expect(await failure(h.adapter.withdraw(v1(), WITHDRAWAL))).toEqual({
        code: 'UNAVAILABLE',
        message: `${FAILURE_PREFIXES.WITHDRAW}: ${BAD_ANSWER}id: custom)`,
      });
    });

    it("keeps Pronttus's {code, message} in a 2xx refund or payout as its refusal", async () => {
      h.fake.expect({
        method: 'POST',
        path: '/v1/payment/refund',
        reply: { body: { code: 'REFUND_NOT_ALLOWED', message: 'Pagamento não pode ser estornado' } },
      });
      expect(await failure(h.adapter.refoundTransaction(v1(), 'pr_1', 500))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `${FAILURE_PREFIXES.REFUND_TRANSACTION}: Pagamento não pode ser estornado`,
      });
      h.fake.expect({ method: 'POST', path: '/v1/payment/withdraw', reply: { body: { code: 'BALANCE', message: 'Saldo insuficiente' } } });
      expect(await failure(h.adapter.withdraw(v1(), WITHDRAWAL))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `${FAILURE_PREFIXES.WITHDRAW}: Saldo insuficiente`,
      });
    });

    it('an amount in reais where cents are declared is UNAVAILABLE, never a guessed amount', async () => {
      h.fake.expect({ method: 'GET', path: '/v1/payment/pr_1', reply: { body: { status: 'PAID', amount: '19.90' } } });
      expect(await failure(h.adapter.getTransaction(v1(), 'pr_1'))).toEqual({
        code: 'UNAVAILABLE',
        message: `${FAILURE_PREFIXES.GET_TRANSACTION}: valor ilegível na resposta do provedor: "19.90"`,
      });
    });
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    expectBodiesOf(pronttusPaymentRequest, [
      toPronttusPayment(transactionInput({ description: 'Curso' }), 1990),
      toPronttusPayment(bareTransactionInput(), 1990),
    ]);
    expectBodiesOf(
      pronttusWithdrawRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) =>
        toPronttusWithdraw({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType, name: 'Ana', document: '123.456.789-09' }, 2500),
      ),
    );
    expectBodiesOf(pronttusRefundRequest, [toPronttusRefund('tx_1', 500)]);
  });

  it('is registered in the catalogue, case-insensitively', async () => {
    expect((await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('pronttus')?.identity.id).toBe('PRONTTUS');
  });
});
