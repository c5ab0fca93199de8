import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parsePix, hasError } from 'pix-utils';
import boletoUtils from '@mrmgomes/boleto-utils';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  RefoundTransactionRequest,
  WatchEventsRequest,
  CreateCardTokenRequest,
  CreateCardIdRequest,
  ListTransactionsRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, StatusSource, TransactionStatus, EventSubject } from '../../gen/ts-proto/gateway/v1/types.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { connectDriver, errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { createTestDatabase } from '../support/postgres.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let accountId: string;
const drivers: Driver[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startTestGateway({ databaseUrl: database.url });
  drivers.push(grpcDriver(gateway.grpcAddress!, TEST_TOKEN), connectDriver(gateway.httpUrl!, TEST_TOKEN));
  const { providerAccount } = await drivers[0]!.call('accounts', 'createProviderAccount', {
    provider: 'sandbox',
    name: 'Sandbox for tests',
    publicKey: 'pk',
    secretKey: 'sk-test-secret',
    webhookSecret: 'whsec-test',
  });
  accountId = providerAccount.id;
});

afterAll(async () => {
  drivers.forEach((driver) => driver.close());
  await gateway?.close();
  await database?.drop();
  if (gateway) removeDir(gateway.dataDir);
});

const pix = (amount: number, extra: Partial<CreateTransactionRequest> = {}) =>
  CreateTransactionRequest.fromPartial({
    providerAccountId: accountId,
    ...extra,
    transaction: {
      amount,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
      customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
    },
  });

describe.each([
  ['grpc-js', 0],
  ['connect-web', 1],
])('through %s', (_name, index) => {
  const driver = () => drivers[index]!;

  async function cardId(number: string): Promise<string> {
    const { cardToken } = await driver().call(
      'gateway',
      'createCardToken',
      CreateCardTokenRequest.fromPartial({
        providerAccountId: accountId,
        card: { cardNumber: number, holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' },
      }),
    );
    const { cardId } = await driver().call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId: accountId, cardToken }));
    return cardId;
  }

  it('creates a PIX charge, pays it on the sandbox, streams the change and reads it back APPROVED', async () => {
    const { transaction } = await driver().call('gateway', 'createTransaction', pix(1990));
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(transaction.amount).toBe(1990);
    expect(transaction.provider).toBe('SANDBOX');
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    const parsed = parsePix(transaction.pixCode);
    expect(hasError(parsed)).toBe(false);
    expect((parsed as { transactionAmount: number }).transactionAmount).toBe(19.9);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(transaction.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const watch = driver().watch(WatchEventsRequest.fromPartial({ providerAccountIds: [accountId] }));
    try {
      // Let the stream attach before the change happens.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const simulated = await driver().call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
      expect(simulated.notification.responseStatus).toBe(200);
      expect(JSON.parse(simulated.notification.body)).toMatchObject({ type: 'charge.paid', data: { id: transaction.transactionId, status: 'paid' } });
      expect(simulated.notification.headers['x-sandbox-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

      let event;
      do event = (await watch.next()).event;
      while (event.subjectId !== transaction.id);
      expect(event).toMatchObject({
        subject: EventSubject.EVENT_SUBJECT_TRANSACTION,
        transactionStatus: TransactionStatus.TRANSACTION_STATUS_APPROVED,
        source: StatusSource.STATUS_SOURCE_WEBHOOK,
      });
    } finally {
      watch.close();
    }

    const read = await driver().call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
    expect(read.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(read.transaction.statusHistory.map((change: any) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
  });

  it('creates a boleto whose digitable line has valid check digits and carries the amount', async () => {
    const { transaction } = await driver().call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        transaction: { amount: 123456, paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET },
      }),
    );
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(transaction.billetCode).toMatch(/^\d{47}$/);
    const checked = boletoUtils.validarBoleto(transaction.billetCode);
    expect(checked.sucesso).toBe(true);
    expect(checked.valor).toBe(1234.56);
    expect(transaction.billetUrl).toMatch(/^http/);
  });

  it('rejects a charge on the declining test card', async () => {
    const { transaction } = await driver().call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        transaction: { amount: 5000, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardId(SANDBOX_TEST_CARDS.declined) },
      }),
    );
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
  });

  it('refunds an approved card payment', async () => {
    const { transaction } = await driver().call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        idempotencyKey: `card-${index}`,
        transaction: {
          amount: 7000,
          installments: 2,
          paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
          cardId: await cardId(SANDBOX_TEST_CARDS.approved),
        },
      }),
    );
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const refunded = await driver().call(
      'gateway',
      'refoundTransaction',
      RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id }),
    );
    expect(refunded.refund.status).toBe(true);
    expect(refunded.refund.refundId).not.toBe('');
    expect(refunded.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    const read = await driver().call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
    expect(read.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it('answers a retried CreateTransaction with the first charge', async () => {
    const first = await driver().call('gateway', 'createTransaction', pix(2500, { idempotencyKey: `retry-${index}` }));
    const again = await driver().call('gateway', 'createTransaction', pix(2500, { idempotencyKey: `retry-${index}` }));
    expect(again.transaction.id).toBe(first.transaction.id);
    expect(await failureOf(driver().call('gateway', 'createTransaction', pix(2600, { idempotencyKey: `retry-${index}` })))).toMatchObject({
      code: 'ALREADY_EXISTS',
    });
  });

  describe('refuses bad input with a clear error, never INTERNAL', () => {
    const create = (transaction: object, providerAccountId?: string) =>
      failureOf(
        driver().call('gateway', 'createTransaction', CreateTransactionRequest.fromPartial({ providerAccountId: providerAccountId ?? accountId, transaction })),
      );

    it('missing amount', async () => {
      expect(await create({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX })).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'transaction.amount is required: a positive integer number of cents',
      });
    });
    it('negative amount', async () => {
      expect(await create({ amount: -100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX })).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'transaction.amount must be a positive integer number of cents, got -100',
      });
    });
    it('unknown payment method', async () => {
      expect(await create({ amount: 100 })).toEqual({ code: 'INVALID_ARGUMENT', message: 'Invalid payment method' });
      expect(await create({ amount: 100, paymentMethod: 42 })).toEqual({ code: 'INVALID_ARGUMENT', message: 'Invalid payment method' });
    });
    it('unknown provider account', async () => {
      expect(await create({ amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX }, '5b0c4e1e-0000-4000-8000-000000000000')).toEqual({
        code: 'NOT_FOUND',
        message: 'provider account 5b0c4e1e-0000-4000-8000-000000000000 not found',
      });
      expect(await create({ amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX }, 'not-an-id')).toMatchObject({ code: 'NOT_FOUND' });
    });
    it('credit card without a card id', async () => {
      expect(await create({ amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD })).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'cardId is required for credit card transactions',
      });
    });
    it('an unknown transaction id', async () => {
      expect(await failureOf(driver().call('gateway', 'getTransaction', { id: 'nope', refresh: false }))).toMatchObject({ code: 'NOT_FOUND' });
    });
    it('carries google.rpc details: the reason, and the field at fault with the shared rule it broke', async () => {
      const call = (transaction: object, providerAccountId = accountId) =>
        driver().call('gateway', 'createTransaction', CreateTransactionRequest.fromPartial({ providerAccountId, transaction }));
      expect(await errorDetailsOf(call({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX }))).toEqual({
        reason: 'INVALID_ARGUMENT',
        domain: 'gateway.v1',
        metadata: { field: 'transaction.amount' },
        fields: ['transaction.amount'],
        fieldReasons: ['REQUIRED'],
      });
      // A rule with limits: the limits travel in the ErrorInfo metadata, for the client's own text.
      expect(await errorDetailsOf(driver().call('gateway', 'listTransactions', ListTransactionsRequest.fromPartial({ pageSize: 500 })))).toEqual({
        reason: 'INVALID_ARGUMENT',
        domain: 'gateway.v1',
        metadata: { field: 'page_size', min: '0', max: '200' },
        fields: ['page_size'],
        fieldReasons: ['OUT_OF_RANGE'],
      });
      expect(await errorDetailsOf(call({ amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD }))).toEqual({
        reason: 'CARD_ID_REQUIRED',
        domain: 'gateway.v1',
        metadata: { field: 'transaction.card_id' },
        fields: ['transaction.card_id'],
      });
      expect(await errorDetailsOf(call({ amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX }, '5b0c4e1e-0000-4000-8000-000000000000'))).toEqual({
        reason: 'NOT_FOUND',
        domain: 'gateway.v1',
        metadata: {},
        fields: [],
      });
    });
    it('no token, or a wrong one', async () => {
      expect(await failureOf(driver().call('gateway', 'listProviders', {}, null))).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(await failureOf(driver().call('gateway', 'listProviders', {}, 'wrong-token'))).toMatchObject({ code: 'UNAUTHENTICATED' });
    });
  });
});
