import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { PaguesafeAdapter } from '../../server/providers/paguesafe.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import type { TransactionInput } from '../../server/domain/types.js';
import { resetCircuitBreakers } from '../../server/lib/http/index.js';
import { GatewayError } from '../../server/lib/errors.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES, partial, startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';

const SECRET = 'sk_live_paguesafe_123';
const BASIC = `Basic ${Buffer.from(`${SECRET}:x`).toString('base64')}`;
const NOW = new Date('2025-03-10T12:00:00.000Z');
const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';

let fake: FakeProvider;
let warn: jest.Mock;
let adapter: PaguesafeAdapter;
let accountNumber = 0;
let ctx: AdapterContext;

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

beforeEach(() => {
  resetCircuitBreakers();
  warn = jest.fn();
  adapter = new PaguesafeAdapter({ timeoutMs: 500, now: () => NOW, logger: { warn } as never });
  accountNumber += 1;
  ctx = {
    accountId: `acc-${accountNumber}`,
    publicKey: 'pk_paguesafe',
    secretKey: SECRET,
    baseUrl: fake.url,
    notificationUrl: `http://127.0.0.1:8081/webhooks/PAGUESAFE/acc-${accountNumber}`,
  };
});

afterEach(() => {
  try {
    fake.assertAllDone();
  } finally {
    fake.reset();
  }
});

const input = (extra: Partial<TransactionInput> = {}): TransactionInput => ({
  amount: 1990,
  paymentMethod: 'PIX',
  customer: { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' },
  items: [{ id: 'sku-1', title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }],
  orderId: 'order-77',
  installments: 1,
  fingerPrints: [],
  splits: [],
  currency: 'BRL',
  ...extra,
});

/** The failure of a call as a GatewayError (fails the test when it succeeds or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return { code: (error as GatewayError).code, message: (error as GatewayError).message };
  }
  throw new Error('expected a failure');
}

const notification = (body: unknown) => ({
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  headers: { 'content-type': 'application/json' },
});

describe('identity', () => {
  it('declares PAGUESAFE of document 2 with PIX, card and boleto, and the four operations it implements', () => {
    expect(adapter.identity).toEqual({
      id: 'PAGUESAFE',
      aliases: [],
      specGroup: 'document 2 (group 2)',
      paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
      withdrawMethods: [],
      defaultBaseUrl: 'https://api.paguesafe.com.br/v1',
    });
    expect(adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'processWebhook']);
    expect(() => adapter.withdraw(ctx, { paymentMethod: 'PIX', amount: 100 })).toThrow('Method not implemented.');
    expect(() => adapter.createCardToken(ctx, {} as never)).toThrow('Method not implemented.');
    expect(adapter.verifyNotification(ctx, notification({ id: 1, status: 'paid' }))).toBe('unsigned');
  });
});

describe('createTransaction', () => {
  it('creates a PIX charge: POST /transactions with Basic auth from the secret key; answers the code, its QR image and the expiry', async () => {
    fake.expect({
      method: 'POST',
      path: '/transactions',
      headers: { authorization: BASIC, 'content-type': /^application\/json/ },
      body: {
        amount: 1990,
        paymentMethod: 'pix',
        pix: { expiresInDays: 1 },
        customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', document: { number: '12345678909', type: 'cpf' } },
        items: [{ externalRef: 'sku-1', title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }],
        postbackUrl: ctx.notificationUrl,
        externalRef: 'order-77',
        currency: 'BRL',
      },
      reply: {
        status: 200,
        body: {
          id: 98765,
          status: 'waiting_payment',
          amount: 1990,
          paymentMethod: 'pix',
          pix: { qrcode: PIX_CODE, expirationDate: '2025-03-11T12:00:00.000Z' },
        },
      },
    });
    const result = await adapter.createTransaction(ctx, input());
    expect(result).toEqual({
      paymentMethod: 'PIX',
      transactionId: '98765',
      status: 'PENDING',
      amount: 1990,
      pixCode: PIX_CODE,
      pixQrCode: expect.stringMatching(/^data:image\/png;base64,/),
      expiresAt: new Date('2025-03-11T12:00:00.000Z'),
    });
  });

  it("creates a boleto valid 3 days; without the provider's date the expiry is 3 days from now", async () => {
    fake.expect({
      method: 'POST',
      path: '/transactions',
      headers: { authorization: BASIC },
      body: partial({ amount: 123456, paymentMethod: 'boleto', boleto: { expiresInDays: 3 }, postbackUrl: ctx.notificationUrl }),
      reply: {
        status: 201,
        body: {
          id: 'bol_1',
          status: 'waiting_payment',
          amount: 123456,
          paymentMethod: 'boleto',
          boleto: { url: 'https://paguesafe.example/b/bol_1.pdf', digitableLine: '23790123456789012345678901234567890123456789012' },
        },
      },
    });
    expect(await adapter.createTransaction(ctx, input({ amount: 123456, paymentMethod: 'BILLET', items: [] }))).toEqual({
      paymentMethod: 'BILLET',
      transactionId: 'bol_1',
      status: 'PENDING',
      amount: 123456,
      billetCode: '23790123456789012345678901234567890123456789012',
      billetUrl: 'https://paguesafe.example/b/bol_1.pdf',
      expiresAt: new Date('2025-03-13T12:00:00.000Z'),
    });
  });

  it('charges a card by card id and installments', async () => {
    const call = fake.expect({
      method: 'POST',
      path: '/transactions',
      headers: { authorization: BASIC },
      body: partial({ amount: 7000, paymentMethod: 'credit_card', installments: 3, card: { id: 'card_abc' } }),
      reply: { body: { id: 'cc_1', status: 'paid', amount: 7000, paymentMethod: 'credit_card' } },
    });
    expect(await adapter.createTransaction(ctx, input({ amount: 7000, paymentMethod: 'CREDIT_CARD', cardId: 'card_abc', installments: 3 }))).toEqual({
      paymentMethod: 'CREDIT_CARD',
      transactionId: 'cc_1',
      status: 'APPROVED',
      amount: 7000,
    });
    expect(call.calls[0]!.body).not.toHaveProperty('pix');
  });

  it('maps a refused card to REJECTED', async () => {
    fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'cc_2', status: 'refused', amount: 7000, paymentMethod: 'credit_card' } } });
    expect((await adapter.createTransaction(ctx, input({ amount: 7000, paymentMethod: 'CREDIT_CARD', cardId: 'card_abc' }))).status).toBe('REJECTED');
  });

  it("keeps the provider's message of a 4xx under the spec's prefix", async () => {
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 400, body: { message: 'customer.document inválido' } } });
    expect(await failure(adapter.createTransaction(ctx, input()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: customer.document inválido',
    });
  });

  it("reports refused credentials (401) as FAILED_PRECONDITION with the provider's message", async () => {
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 401, body: { error: 'Unauthorized' } } });
    expect(await failure(adapter.createTransaction(ctx, input()))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Erro ao criar transação: Unauthorized' });
  });

  it('keeps the message of a failure inside a 2xx body, and never stores a charge without an id', async () => {
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 200, body: { success: false, message: 'Saldo insuficiente' } } });
    expect(await failure(adapter.createTransaction(ctx, input()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: Saldo insuficiente',
    });
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 200, body: {} } });
    expect(await failure(adapter.createTransaction(ctx, input()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: resposta do provedor sem id ou status da transação',
    });
  });

  it('turns a 5xx into UNAVAILABLE, sent once (a charge is never retried)', async () => {
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 502, body: { message: 'Bad gateway' } } });
    expect(await failure(adapter.createTransaction(ctx, input()))).toEqual({ code: 'UNAVAILABLE', message: 'Erro ao criar transação: Bad gateway' });
    expect(fake.received).toHaveLength(1);
  });

  it('turns a timeout into UNAVAILABLE, never a PENDING charge', async () => {
    fake.expect({ method: 'POST', path: '/transactions', reply: { delayMs: 1_500, body: { id: 'late', status: 'waiting_payment' } } });
    expect(await failure(adapter.createTransaction(ctx, input()))).toEqual({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/^Erro ao criar transação: timeout of 500ms exceeded$/),
    });
  });

  it('refuses a card charge without a card id before calling the provider', async () => {
    expect(await failure(adapter.createTransaction(ctx, input({ paymentMethod: 'CREDIT_CARD' })))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'cardId is required for credit card transactions',
    });
    expect(fake.received).toHaveLength(0);
  });

  it('needs the secret key, and says so without calling the provider', async () => {
    expect(await failure(adapter.createTransaction({ ...ctx, secretKey: '' }, input()))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'secretKey is required',
    });
    expect(fake.received).toHaveLength(0);
  });
});

describe('getTransaction', () => {
  it('reads GET /transactions/{id} and maps the status', async () => {
    fake.expect({
      method: 'GET',
      path: '/transactions/98765',
      headers: { authorization: BASIC },
      reply: { body: { id: 98765, status: 'paid', amount: 1990, paymentMethod: 'pix', pix: { qrcode: PIX_CODE, expirationDate: '2025-03-11T12:00:00.000Z' } } },
    });
    expect(await adapter.getTransaction(ctx, '98765')).toMatchObject({
      paymentMethod: 'PIX',
      transactionId: '98765',
      status: 'APPROVED',
      amount: 1990,
      pixCode: PIX_CODE,
    });
  });

  it.each([
    ['refunded', 'REFUNDED'],
    ['chargedback', 'CHARGEBACK'],
    ['expired', 'REJECTED'],
  ])('maps %s to %s', async (status, expected) => {
    fake.expect({ method: 'GET', path: '/transactions/tx_9', reply: { body: { id: 'tx_9', status, amount: 500, paymentMethod: 'credit_card' } } });
    expect((await adapter.getTransaction(ctx, 'tx_9')).status).toBe(expected);
  });

  it('maps an unknown status to REJECTED and logs a warning', async () => {
    fake.expect({
      method: 'GET',
      path: '/transactions/tx_9',
      reply: { body: { id: 'tx_9', status: 'in_analysis', amount: 500, paymentMethod: 'credit_card' } },
    });
    expect((await adapter.getTransaction(ctx, 'tx_9')).status).toBe('REJECTED');
    expect(warn).toHaveBeenCalledWith({ provider: 'PAGUESAFE', providerStatus: 'in_analysis', mappedTo: 'REJECTED' }, 'unknown provider transaction status');
  });

  it.each(GARBAGE_2XX_BODIES)('a 2xx answer that is %s is an error, never a status', async (_label, body) => {
    fake.expect({ method: 'GET', path: '/transactions/tx_g', reply: { body } });
    await expect(adapter.getTransaction(ctx, 'tx_g')).rejects.toMatchObject({ message: expect.stringMatching(/^Erro ao buscar transação: /) });
  });

  it('encodes the id into the path', async () => {
    fake.expect({ method: 'GET', path: '/transactions/a%2Fb', reply: { body: { id: 'a/b', status: 'pending', amount: 1, paymentMethod: 'credit_card' } } });
    expect((await adapter.getTransaction(ctx, 'a/b')).transactionId).toBe('a/b');
  });

  it("keeps the provider's message of a 404 as NOT_FOUND", async () => {
    fake.expect({ method: 'GET', path: '/transactions/nope', reply: { status: 404, body: { message: 'Transaction not found' } } });
    expect(await failure(adapter.getTransaction(ctx, 'nope'))).toEqual({ code: 'NOT_FOUND', message: 'Erro ao buscar transação: Transaction not found' });
  });

  it('turns a persistent 5xx into UNAVAILABLE after the read retries', async () => {
    fake.expect({ method: 'GET', path: '/transactions/tx_1', times: 3, reply: { status: 503, body: { message: 'Service unavailable' } } });
    expect(await failure(adapter.getTransaction(ctx, 'tx_1'))).toEqual({ code: 'UNAVAILABLE', message: 'Erro ao buscar transação: Service unavailable' });
  });
});

describe('refoundTransaction', () => {
  it('refunds by POST /transactions/{id}/refund with the amount in cents', async () => {
    fake.expect({
      method: 'POST',
      path: '/transactions/98765/refund',
      headers: { authorization: BASIC },
      body: { amount: 1990 },
      reply: { body: { id: 98765, status: 'refunded', amount: 1990, refunds: [{ id: 'rf_1', amount: 1990 }] } },
    });
    expect(await adapter.refoundTransaction(ctx, '98765', 1990)).toEqual({ refundId: 'rf_1', status: true });
  });

  it('reports a refusal inside a 2xx body as status false', async () => {
    fake.expect({ method: 'POST', path: '/transactions/98765/refund', body: { amount: 500 }, reply: { body: { id: 98765, status: 'refused' } } });
    expect(await adapter.refoundTransaction(ctx, '98765', 500)).toEqual({ refundId: '98765', status: false });
  });

  it("answers the spec's 'Internal server error' on a refused refund, and logs the provider's message", async () => {
    fake.expect({ method: 'POST', path: '/transactions/98765/refund', reply: { status: 422, body: { message: 'Transação não pode ser estornada' } } });
    expect(await failure(adapter.refoundTransaction(ctx, '98765', 1990))).toEqual({ code: 'INVALID_ARGUMENT', message: 'Internal server error' });
    expect(warn).toHaveBeenCalledWith(
      { provider: 'PAGUESAFE', transactionId: '98765', failure: 'Erro ao estornar transação: Transação não pode ser estornada' },
      'refund failed',
    );
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a 2xx refund answer that is %s is never "refunded": the spec\'s text as UNAVAILABLE', async (_label, body) => {
    fake.expect({ method: 'POST', path: '/transactions/98765/refund', reply: { body } });
    expect(await failure(adapter.refoundTransaction(ctx, '98765', 1990))).toEqual({ code: 'UNAVAILABLE', message: 'Internal server error' });
  });

  it("answers 'Internal server error' as UNAVAILABLE on a 5xx or a timeout", async () => {
    fake.expect({ method: 'POST', path: '/transactions/98765/refund', reply: { status: 500, body: { message: 'boom' } } });
    expect(await failure(adapter.refoundTransaction(ctx, '98765', 1990))).toEqual({ code: 'UNAVAILABLE', message: 'Internal server error' });
    fake.expect({ method: 'POST', path: '/transactions/98765/refund', reply: { delayMs: 1_500, body: {} } });
    expect(await failure(adapter.refoundTransaction(ctx, '98765', 1990))).toEqual({ code: 'UNAVAILABLE', message: 'Internal server error' });
  });
});

describe('processWebhook and notificationKey', () => {
  it('accepts the postback envelope and maps its status', async () => {
    const body = { id: 'pb_1', type: 'transaction', objectId: '98765', data: { id: 98765, status: 'paid', amount: 1990 } };
    expect(await adapter.processWebhook(ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: '98765', status: 'APPROVED' });
  });

  it('accepts the bare transaction object', async () => {
    expect(await adapter.processWebhook(ctx, notification({ id: 'tx_1', status: 'chargedback' }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'tx_1',
      status: 'CHARGEBACK',
    });
    expect(await adapter.processWebhook(ctx, notification({ data: { id: 'tx_2', status: 'refunded' } }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'tx_2',
      status: 'REFUNDED',
    });
  });

  it('maps an unknown notified status to REJECTED with a warning', async () => {
    expect(await adapter.processWebhook(ctx, notification({ id: 'tx_1', status: 'mystery' }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'tx_1',
      status: 'REJECTED',
    });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('ignores other event types', async () => {
    expect(await adapter.processWebhook(ctx, notification({ type: 'transfer', objectId: 't_1', data: { id: 't_1', status: 'paid' } }))).toBeUndefined();
  });

  it('yields nothing for a body it cannot parse or use', async () => {
    expect(await adapter.processWebhook(ctx, notification('{not json'))).toBeUndefined();
    expect(await adapter.processWebhook(ctx, notification({ hello: 'world' }))).toBeUndefined();
    expect(await adapter.processWebhook(ctx, notification({ type: 'transaction', objectId: '1' }))).toBeUndefined();
  });

  it('keys a notification by transaction id and status, so a re-delivery in a new envelope is a duplicate', () => {
    const first = adapter.notificationKey(ctx, notification({ id: 'pb_1', type: 'transaction', objectId: '98765', data: { id: 98765, status: 'paid' } }));
    const again = adapter.notificationKey(
      ctx,
      notification({ id: 'pb_2', type: 'transaction', objectId: '98765', data: { id: 98765, status: 'PAID', updatedAt: 'later' } }),
    );
    const refunded = adapter.notificationKey(
      ctx,
      notification({ id: 'pb_3', type: 'transaction', objectId: '98765', data: { id: 98765, status: 'refunded' } }),
    );
    expect(first).toBe('transaction:98765:paid');
    expect(again).toBe(first);
    expect(refunded).toBe('transaction:98765:refunded');
    expect(adapter.notificationKey(ctx, notification('{not json'))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
