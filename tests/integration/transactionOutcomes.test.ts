import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import {
  CreateTransactionRequest,
  GetTransactionStatsRequest,
  RefoundTransactionRequest,
  type GetTransactionStatsResponse,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, TransactionStatus, type Transaction } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { connectDriver, type Driver } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { sandboxCardId } from '../support/sandboxCard.js';

/**
 * Issue 33 §2, "numbers you can trust": GetTransactionStats says what the
 * charges came to (approved, declined, pending, canceled; gross, refunded,
 * charged back, net), over all and per payment method and provider, beside
 * the totals of every charge created. Charges in every state, made through
 * the API on SANDBOX and on PAGUESAFE (a fake on loopback); the sandbox has no
 * chargeback and no refund made at the provider's own dashboard, so those two
 * states (and their status events) are written to the database, as a
 * provider's notification would leave them. Refunds and chargebacks count by
 * the day they happened: tests/integration/moneyByDay.test.ts.
 */

let stack: TestStack;
let connect: Driver;
let fake: FakeProvider;
let sandbox: string;
let paguesafe: string;
const from = new Date(Date.now() - 3_600_000);

async function charge(providerAccountId: string, amount: number, paymentMethod = PaymentMethod.PAYMENT_METHOD_PIX, cardId?: string): Promise<Transaction> {
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      transaction: {
        amount,
        paymentMethod,
        cardId,
        customer: { name: 'Cliente', document: '39053344705', email: 'someone@example.com', phone: '11987654321' },
      },
    }),
  );
  return transaction;
}

const paid = async (amount: number) => {
  const made = await charge(sandbox, amount);
  const { transaction } = await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: made.id }));
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  return made;
};

const refund = async (id: string, amount: number, key: string) =>
  (
    await stack.client.call(
      'gateway',
      'refoundTransaction',
      RefoundTransactionRequest.fromPartial({ providerAccountId: sandbox, id, amount, idempotencyKey: key }),
    )
  ).transaction;

const paguesafeCharge = async (id: string, amount: number, status: string) => {
  fake.expect({
    method: 'POST',
    path: '/transactions',
    reply: { body: { id, status, amount, paymentMethod: 'pix', pix: { qrcode: '000201outcomes', expirationDate: '2030-01-02T00:00:00.000Z' } } },
  });
  return charge(paguesafe, amount);
};

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  fake = await startFakeProvider();
  sandbox = (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: 'outcomes',
      publicKey: 'pk',
      secretKey: 'sk',
      webhookSecret: 'whsec',
    })
  ).providerAccount.id;
  paguesafe = (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'PAGUESAFE',
      name: 'outcomes',
      publicKey: 'pk',
      secretKey: 'sk_outcomes',
      baseUrl: fake.url,
    })
  ).providerAccount.id;

  // Approved, then R$ 25,00 of its R$ 100,00 refunded: still APPROVED, R$ 75,00 kept.
  const partial = await paid(10_000);
  expect(await refund(partial.id, 2500, 'outcomes-partial')).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, refundedAmount: 2500 });
  // Approved, then refunded whole: REFUNDED, nothing kept.
  const full = await paid(5000);
  expect(await refund(full.id, 0, 'outcomes-full')).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_REFUNDED, refundedAmount: 5000 });
  // A card charge approved, R$ 5,00 refunded, then charged back: the chargeback takes the R$ 40,00 left.
  const card = await charge(sandbox, 4500, PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, await sandboxCardId(stack.client, sandbox));
  expect(card.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect(await refund(card.id, 500, 'outcomes-card')).toMatchObject({ refundedAmount: 500 });
  const declined = await charge(
    sandbox,
    5000,
    PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
    await sandboxCardId(stack.client, sandbox, SANDBOX_TEST_CARDS.declined),
  );
  expect(declined.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
  const pending = await charge(sandbox, 3000);
  expect(pending.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  // Approved, then refunded at the provider: REFUNDED with no refund recorded by the gateway (refunded_amount 0).
  const outside = await paid(2000);
  const canceled = await charge(sandbox, 1500);

  expect((await paguesafeCharge('ps_outcomes_paid', 1990, 'paid')).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect((await paguesafeCharge('ps_outcomes_refused', 800, 'refused')).status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
  expect((await paguesafeCharge('ps_outcomes_waiting', 700, 'waiting_payment')).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  fake.assertAllDone();

  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    for (const [id, status] of [
      [card.id, 'CHARGEBACK'],
      [outside.id, 'REFUNDED'],
      [canceled.id, 'CANCELED'],
    ]) {
      // As a provider's notification leaves them: the status, and its event (when the money moved: the refund at the
      // provider and the chargeback count on its day, moneyMovements.ts).
      await db.query('update transactions set status = $2 where id = $1', [id, status]);
      await db.query(
        `insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at)
         select 'TRANSACTION', id, provider_account_id, $2, 'WEBHOOK', now() from transactions where id = $1`,
        [id, status],
      );
    }
  } finally {
    await db.end();
  }
});

afterAll(async () => {
  connect?.close();
  await fake?.close();
  await stack?.close();
});

/** Conversion as the proto defines it: approved over decided (approved and declined). */
const conversion = (o: { approvedCount: number; declinedCount: number }) => `${o.approvedCount}/${o.approvedCount + o.declinedCount}`;

describe.each([
  ['grpc-js', () => stack.client],
  ['connect-web', () => connect],
] as [string, () => Driver][])('GetTransactionStats outcomes through %s', (_name, driver) => {
  const stats = (request: Partial<GetTransactionStatsRequest> = {}): Promise<GetTransactionStatsResponse> =>
    driver().call(
      'gateway',
      'getTransactionStats',
      GetTransactionStatsRequest.fromPartial({ createdFrom: from, createdTo: new Date(Date.now() + 3_600_000), ...request }),
    );

  it('keeps the totals of every charge created, and says what was approved, refunded, charged back and kept, in cents', async () => {
    const result = await stats();
    // Every charge created, pending, declined and canceled included: R$ 344,90, of which only R$ 94,90 was kept.
    expect(result).toMatchObject({ count: 10, amount: 34_490 });
    expect(result).toMatchObject({
      approvedCount: 5,
      declinedCount: 2,
      pendingCount: 2,
      canceledCount: 1,
      // 100,00 + 50,00 + 45,00 + 20,00 (SANDBOX) + 19,90 (PAGUESAFE).
      approvedAmount: 23_490,
      // 25,00 partial + 50,00 whole + 5,00 before the chargeback + 20,00 refunded at the provider.
      refundedAmount: 10_000,
      // What the charged-back card charge still held: 45,00 − 5,00.
      chargebackAmount: 4000,
      // 75,00 kept of the partly refunded charge + 19,90 at PAGUESAFE.
      netAmount: 9490,
    });
    expect(conversion(result)).toBe('5/7');
  });

  it('breaks the outcomes and conversion down by payment method and by provider, in the order of the totals', async () => {
    const result = await stats();
    expect(result.outcomesByProvider).toEqual([
      {
        provider: 'SANDBOX',
        approvedCount: 4,
        declinedCount: 1,
        pendingCount: 1,
        canceledCount: 1,
        approvedAmount: 21_500,
        refundedAmount: 10_000,
        chargebackAmount: 4000,
        netAmount: 7500,
      },
      {
        provider: 'PAGUESAFE',
        approvedCount: 1,
        declinedCount: 1,
        pendingCount: 1,
        canceledCount: 0,
        approvedAmount: 1990,
        refundedAmount: 0,
        chargebackAmount: 0,
        netAmount: 1990,
      },
    ]);
    expect(result.byProvider.map((p) => p.provider)).toEqual(['SANDBOX', 'PAGUESAFE']);
    expect(result.outcomesByPaymentMethod).toEqual([
      {
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        approvedCount: 4,
        declinedCount: 1,
        pendingCount: 2,
        canceledCount: 1,
        approvedAmount: 18_990,
        refundedAmount: 9500,
        chargebackAmount: 0,
        netAmount: 9490,
      },
      {
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        approvedCount: 1,
        declinedCount: 1,
        pendingCount: 0,
        canceledCount: 0,
        approvedAmount: 4500,
        refundedAmount: 500,
        chargebackAmount: 4000,
        netAmount: 0,
      },
    ]);
    expect(result.byPaymentMethod.map((m) => m.paymentMethod)).toEqual([PaymentMethod.PAYMENT_METHOD_PIX, PaymentMethod.PAYMENT_METHOD_CREDIT_CARD]);
    expect([...result.outcomesByProvider, ...result.outcomesByPaymentMethod].map(conversion)).toEqual(['4/5', '1/2', '4/5', '1/2']);
  });

  it('keeps to the provider asked for, and answers zeros for a range without charges', async () => {
    expect(await stats({ provider: 'paguesafe' })).toMatchObject({ count: 3, approvedCount: 1, declinedCount: 1, pendingCount: 1, netAmount: 1990 });
    expect(await stats({ providerAccountId: sandbox })).toMatchObject({ count: 7, approvedAmount: 21_500, netAmount: 7500 });
    const empty = await stats({ createdFrom: new Date('2020-01-01T00:00:00Z'), createdTo: new Date('2020-01-02T00:00:00Z') });
    expect(empty).toMatchObject({ count: 0, approvedCount: 0, approvedAmount: 0, refundedAmount: 0, chargebackAmount: 0, netAmount: 0 });
    expect([empty.outcomesByProvider, empty.outcomesByPaymentMethod]).toEqual([[], []]);
  });
});
