import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import {
  CreateReceiverRequest,
  CreateTransactionRequest,
  GetTransactionStatsRequest,
  GetWithdrawRequest,
  ListReceiversRequest,
  ListTransactionsRequest,
  ListWithdrawalsRequest,
  TimeBucket,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import {
  PaymentMethod,
  PixKeyType,
  ReceiverStatus,
  TransactionStatus,
  WithdrawMethod,
  WithdrawStatus,
  type Transaction,
} from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { SANDBOX_FAILING_PIX_KEY } from '../../server/sandbox/api.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { sandboxCardId } from '../support/sandboxCard.js';

/**
 * Issue "A back-office operators can run the business from", point 1: the
 * back-office's lists (ListTransactions, ListWithdrawals, ListReceivers) and
 * GetTransactionStats, over gRPC and Connect, on SANDBOX charges, payouts and
 * receivers made through the API.
 */

let stack: TestStack;
let connect: Driver;
let accountA: string;
let accountB: string;
/** Charges on account A (c1…c5, oldest first) and B (c6). */
const c = {} as Record<'c1' | 'c2' | 'c3' | 'c4' | 'c5' | 'c6', Transaction>;

async function newAccount(name: string): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name,
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret: 'whsec-lists',
  });
  return providerAccount.id;
}

async function charge(
  providerAccountId: string,
  transaction: { amount: number; paymentMethod?: PaymentMethod; orderId?: string; cardId?: string; document?: string; email?: string; name?: string },
): Promise<Transaction> {
  const { document = '39053344705', email = 'someone@example.com', name = 'Cliente', paymentMethod = PaymentMethod.PAYMENT_METHOD_PIX, ...rest } = transaction;
  const response = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      transaction: { ...rest, paymentMethod, customer: { name, document, email, phone: '11987654321' } },
    }),
  );
  return response.transaction;
}

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  accountA = await newAccount('lists A');
  accountB = await newAccount('lists B');
  c.c1 = await charge(accountA, { amount: 1000, orderId: 'ord-1', document: '123.456.789-09', email: 'Ana@Example.com', name: 'Maria Souza' });
  c.c2 = await charge(accountA, { amount: 2000, orderId: 'ord-2', document: '11144477735', email: 'bruno@example.com' });
  c.c3 = await charge(accountA, {
    amount: 3000,
    orderId: 'ord-3',
    paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET,
    document: '11.222.333/0001-81',
    email: 'carla@example.com',
  });
  c.c4 = await charge(accountA, {
    amount: 4500,
    orderId: 'ord-4',
    paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
    cardId: await sandboxCardId(stack.client, accountA),
  });
  c.c5 = await charge(accountA, {
    amount: 5000,
    orderId: 'ord-5',
    paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
    cardId: await sandboxCardId(stack.client, accountA, SANDBOX_TEST_CARDS.declined),
  });
  c.c6 = await charge(accountB, { amount: 6000, orderId: 'ord-6', document: '52998224725', email: 'dora@example.com' });
  const paid = await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: c.c1.id }));
  expect(paid.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect([c.c2, c.c3, c.c4, c.c5, c.c6].map((t) => t.status)).toEqual([
    TransactionStatus.TRANSACTION_STATUS_PENDING,
    TransactionStatus.TRANSACTION_STATUS_PENDING,
    TransactionStatus.TRANSACTION_STATUS_APPROVED,
    TransactionStatus.TRANSACTION_STATUS_REJECTED,
    TransactionStatus.TRANSACTION_STATUS_PENDING,
  ]);
});

afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const TRANSPORTS: [string, () => Driver][] = [
  ['grpc-js', () => stack.client],
  ['connect-web', () => connect],
];

/** The window in which beforeAll made its charges: later tests add charges of their own, after it. */
const window = () => ({ createdFrom: c.c1.createdAt, createdTo: new Date(c.c6.createdAt!.getTime() + 1) });

describe.each(TRANSPORTS)('ListTransactions through %s', (_name, driver) => {
  const list = (request: Partial<ListTransactionsRequest>, token?: string) =>
    driver().call('gateway', 'listTransactions', ListTransactionsRequest.fromPartial(request), token);
  const names = async (request: Partial<ListTransactionsRequest>) => {
    const { transactions } = await list(request);
    return transactions.map((t: Transaction) => Object.entries(c).find(([, made]) => made.id === t.id)?.[0] ?? t.id);
  };

  it('lists every charge newest first, with its current status and without the heavy fields', async () => {
    const { transactions, nextPageToken } = await list(window());
    expect(transactions.map((t: Transaction) => t.id)).toEqual([c.c6, c.c5, c.c4, c.c3, c.c2, c.c1].map((t) => t.id));
    expect(nextPageToken).toBe('');
    const c1 = transactions.at(-1)!;
    expect(c1).toMatchObject({
      providerAccountId: accountA,
      provider: 'SANDBOX',
      transactionId: c.c1.transactionId,
      status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
      amount: 1000,
      orderId: 'ord-1',
      pixCode: c.c1.pixCode,
      pixQrCode: '',
      statusHistory: [],
    });
  });

  it('filters by provider account and by provider (any case)', async () => {
    expect(await names({ providerAccountId: accountA })).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
    expect(await names({ providerAccountId: accountB })).toEqual(['c6']);
    expect(await names({ ...window(), provider: 'sandbox' })).toEqual(['c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
    expect(await names({ ...window(), provider: 'PAGARME' })).toEqual([]);
  });

  it('filters by one or several statuses', async () => {
    expect(await names({ ...window(), statuses: [TransactionStatus.TRANSACTION_STATUS_APPROVED] })).toEqual(['c4', 'c1']);
    expect(await names({ ...window(), statuses: [TransactionStatus.TRANSACTION_STATUS_PENDING, TransactionStatus.TRANSACTION_STATUS_REJECTED] })).toEqual([
      'c6',
      'c5',
      'c3',
      'c2',
    ]);
    expect(await names({ ...window(), statuses: [TransactionStatus.TRANSACTION_STATUS_CHARGEBACK] })).toEqual([]);
  });

  it('filters by payment method', async () => {
    expect(await names({ ...window(), paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET })).toEqual(['c3']);
    expect(await names({ ...window(), paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD })).toEqual(['c5', 'c4']);
    expect(await names({ ...window(), paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX })).toEqual(['c6', 'c2', 'c1']);
  });

  it('filters by creation time: from inclusive, to exclusive', async () => {
    expect(await names({ createdFrom: c.c2.createdAt, createdTo: c.c5.createdAt })).toEqual(['c4', 'c3', 'c2']);
    expect(await names({ providerAccountId: accountA, createdTo: c.c3.createdAt })).toEqual(['c2', 'c1']);
  });

  it('finds a charge by its gateway id, its provider id, its order id, its customer document (any punctuation) or e-mail (any case)', async () => {
    expect(await names({ query: c.c3.id })).toEqual(['c3']);
    expect(await names({ query: c.c2.transactionId })).toEqual(['c2']);
    expect(await names({ query: 'ord-4' })).toEqual(['c4']);
    expect(await names({ query: '  ord-5 ' })).toEqual(['c5']);
    expect(await names({ query: '12345678909' })).toEqual(['c1']);
    expect(await names({ query: '123.456.789-09' })).toEqual(['c1']);
    expect(await names({ query: '11222333000181' })).toEqual(['c3']);
    expect(await names({ query: 'ANA@example.COM' })).toEqual(['c1']);
    expect(await names({ query: 'dora@example.com' })).toEqual(['c6']);
    expect(await names({ query: 'nobody@example.com' })).toEqual([]);
  });

  it('finds charges by part of the customer name, e-mail or document, the order id, the provider id or the gateway id, in any case', async () => {
    const found = (query: string) => names({ ...window(), query });
    expect(await found('mari')).toEqual(['c1']);
    expect(await found('SOUZA')).toEqual(['c1']);
    expect(await found('bruno@exa')).toEqual(['c2']);
    expect(await found('CARLA')).toEqual(['c3']);
    expect(await found('456.789')).toEqual(['c1']);
    expect(await found('ord')).toEqual(['c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
    expect(await found(c.c3.id.slice(0, 8))).toEqual(['c3']);
    // The gateway's id by its beginning, dashes where they go, in any case (a range of the primary key, not the text).
    expect(await found(c.c3.id.slice(0, 13).toUpperCase())).toEqual(['c3']);
    expect(await found(c.c2.transactionId.slice(0, -2))).toEqual(['c2']);
    // LIKE's wildcards are taken as typed, never as "anything".
    expect(await found('%%%')).toEqual([]);
    expect(await found('o_d')).toEqual([]);
    // Under three characters (no trigram to look up) only an exact value matches; so does a whole e-mail address.
    expect(await found('ma')).toEqual([]);
    expect(await found('runo@example.com')).toEqual([]);
    expect(await found('BRUNO@example.com')).toEqual(['c2']);
  });

  it('combines filters: all of them must hold', async () => {
    expect(await names({ providerAccountId: accountA, statuses: [TransactionStatus.TRANSACTION_STATUS_PENDING] })).toEqual(['c3', 'c2']);
    expect(await names({ providerAccountId: accountB, query: 'ord-1' })).toEqual([]);
    expect(await names({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, statuses: [TransactionStatus.TRANSACTION_STATUS_REJECTED] })).toEqual(['c5']);
  });

  it('pages stay stable while new charges arrive: no duplicates, no gaps', async () => {
    const account = await newAccount('pages');
    const made: Transaction[] = [];
    for (let i = 0; i < 5; i += 1) made.push(await charge(account, { amount: 100 + i }));
    const pages: string[][] = [];
    let page = await list({ providerAccountId: account, pageSize: 2 });
    pages.push(page.transactions.map((t: Transaction) => t.id));
    // A charge created between two pages is newer than every cursor: it shows on a new first page, never inside the walk.
    const late = await charge(account, { amount: 999 });
    while (page.nextPageToken) {
      page = await list({ providerAccountId: account, pageSize: 2, pageToken: page.nextPageToken });
      pages.push(page.transactions.map((t: Transaction) => t.id));
    }
    const newestFirst = made.map((t) => t.id).reverse();
    expect(pages).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);

    const first = await list({ providerAccountId: account, pageSize: 3 });
    expect(first.transactions.map((t: Transaction) => t.id)).toEqual([late.id, ...newestFirst.slice(0, 2)]);
    const second = await list({ providerAccountId: account, pageSize: 3, pageToken: first.nextPageToken });
    // Exactly three left: the last page says so instead of leading to an empty one.
    expect(second.transactions.map((t: Transaction) => t.id)).toEqual(newestFirst.slice(2));
    expect(second.nextPageToken).toBe('');
  });

  it('answers at most 200 a page', async () => {
    expect((await list({ pageSize: 200 })).transactions.length).toBeGreaterThan(0);
    const tooMany = list({ pageSize: 201 });
    expect(await failureOf(tooMany)).toEqual({ code: 'INVALID_ARGUMENT', message: 'page_size must be at most 200, got 201' });
    expect((await errorDetailsOf(list({ pageSize: 201 }))).fields).toEqual(['page_size']);
  });

  it.each([
    ['a page token it did not answer', { pageToken: 'not-a-token' }, 'page_token'],
    ['a page token naming no record', { pageToken: Buffer.from(`${new Date().toISOString()}|42`).toString('base64url') }, 'page_token'],
    ['an inverted range', { createdFrom: new Date('2026-02-01T00:00:00Z'), createdTo: new Date('2026-01-01T00:00:00Z') }, 'created_to'],
    ['an unknown status', { statuses: [TransactionStatus.TRANSACTION_STATUS_APPROVED, 99 as TransactionStatus] }, 'statuses[1]'],
    ['UNSPECIFIED among the statuses', { statuses: [TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED] }, 'statuses[0]'],
    ['an unknown payment method', { paymentMethod: 42 as PaymentMethod }, 'payment_method'],
    ['an account id that is not a UUID', { providerAccountId: 'acct-1' }, 'provider_account_id'],
    ['a negative page size', { pageSize: -1 }, 'page_size'],
  ])('refuses %s with INVALID_ARGUMENT naming the field', async (_what, request, field) => {
    expect((await failureOf(list(request))).code).toBe('INVALID_ARGUMENT');
    expect((await errorDetailsOf(list(request))).fields).toEqual([field]);
  });

  it('refuses a time beyond the year 9999 (gRPC can carry one; Connect-Web will not encode it in JSON)', async () => {
    const request = ListTransactionsRequest.fromPartial({ createdTo: new Date('+010000-01-01T00:00:00Z') });
    expect(await errorDetailsOf(stack.client.call('gateway', 'listTransactions', request))).toMatchObject({
      reason: 'INVALID_ARGUMENT',
      fields: ['created_to'],
    });
  });

  it('a caller limited to some provider accounts must name one of them', async () => {
    const { secret } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: 'lists limited', scopes: ['payments:read'], providerAccountIds: [accountA] }),
    );
    expect((await failureOf(list({}, secret))).code).toBe('PERMISSION_DENIED');
    expect((await failureOf(list({ providerAccountId: accountB }, secret))).code).toBe('PERMISSION_DENIED');
    expect((await list({ providerAccountId: accountA }, secret)).transactions).toHaveLength(5);
    const stats = driver().call('gateway', 'getTransactionStats', GetTransactionStatsRequest.fromPartial({ ...window(), providerAccountId: accountB }), secret);
    expect((await failureOf(stats)).code).toBe('PERMISSION_DENIED');
  });
});

describe.each(TRANSPORTS)('GetTransactionStats through %s', (_name, driver) => {
  const stats = (request: Partial<GetTransactionStatsRequest>) =>
    driver().call('gateway', 'getTransactionStats', GetTransactionStatsRequest.fromPartial(request));
  const aroundA = () => ({
    providerAccountId: accountA,
    createdFrom: new Date(c.c1.createdAt!.getTime() - 3_600_000),
    createdTo: new Date(c.c5.createdAt!.getTime() + 3_600_000),
  });
  const sum = (rows: { count: number; amount: number }[]) =>
    rows.reduce((total, row) => ({ count: total.count + row.count, amount: total.amount + row.amount }), { count: 0, amount: 0 });

  it('counts and adds up an account’s charges by status, provider and payment method, and per hour', async () => {
    const result = await stats({ ...aroundA(), bucket: TimeBucket.TIME_BUCKET_HOUR });
    expect(result).toMatchObject({ count: 5, amount: 15_500 });
    expect(result.byStatus).toEqual([
      { status: TransactionStatus.TRANSACTION_STATUS_APPROVED, count: 2, amount: 5_500 },
      { status: TransactionStatus.TRANSACTION_STATUS_PENDING, count: 2, amount: 5_000 },
      { status: TransactionStatus.TRANSACTION_STATUS_REJECTED, count: 1, amount: 5_000 },
    ]);
    expect(result.byProvider).toEqual([{ provider: 'SANDBOX', count: 5, amount: 15_500 }]);
    expect(result.byPaymentMethod).toEqual([
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, count: 2, amount: 9_500 },
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, count: 2, amount: 3_000 },
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET, count: 1, amount: 3_000 },
    ]);
    expect(sum(result.buckets)).toEqual({ count: 5, amount: 15_500 });
    const hourOf = (at: Date) => Math.floor(at.getTime() / 3_600_000) * 3_600_000;
    const starts = result.buckets.map((bucket: { start: Date }) => bucket.start.getTime());
    expect(starts).toEqual([...new Set([c.c1, c.c2, c.c3, c.c4, c.c5].map((t) => hourOf(t.createdAt!)))]);
  });

  it('cuts days at midnight in the time zone asked for', async () => {
    const result = await stats({ ...aroundA(), bucket: TimeBucket.TIME_BUCKET_DAY, timeZone: 'America/Sao_Paulo' });
    expect(sum(result.buckets)).toEqual({ count: 5, amount: 15_500 });
    // Brazil keeps UTC-3 all year: its midnight is 03:00 UTC.
    for (const bucket of result.buckets) expect(bucket.start.toISOString()).toMatch(/T03:00:00\.000Z$/);
    const utc = await stats({ ...aroundA() });
    for (const bucket of utc.buckets) expect(bucket.start.toISOString()).toMatch(/T00:00:00\.000Z$/);
  });

  it('agrees with ListTransactions over every account', async () => {
    const range = { createdFrom: new Date(Date.now() - 86_400_000), createdTo: new Date(Date.now() + 60_000) };
    const result = await stats(range);
    const listed: Transaction[] = [];
    let pageToken = '';
    do {
      const page = await driver().call('gateway', 'listTransactions', ListTransactionsRequest.fromPartial({ ...range, pageSize: 200, pageToken }));
      listed.push(...page.transactions);
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(result.count).toBe(listed.length);
    expect(result.amount).toBe(listed.reduce((total, t) => total + t.amount, 0));
    for (const { status, count } of result.byStatus) expect([status, count]).toEqual([status, listed.filter((t) => t.status === status).length]);
    expect(sum(result.buckets)).toEqual({ count: result.count, amount: result.amount });
  });

  it('filters by provider and keeps currencies apart', async () => {
    expect(await stats({ ...aroundA(), provider: 'sandbox' })).toMatchObject({ count: 5 });
    expect(await stats({ ...aroundA(), provider: 'PAGARME' })).toEqual({
      count: 0,
      amount: 0,
      byStatus: [],
      byProvider: [],
      byPaymentMethod: [],
      buckets: [],
      approvedCount: 0,
      declinedCount: 0,
      pendingCount: 0,
      canceledCount: 0,
      approvedAmount: 0,
      refundedAmount: 0,
      chargebackAmount: 0,
      netAmount: 0,
      outcomesByPaymentMethod: [],
      outcomesByProvider: [],
      declinesByCategory: [],
    });
    expect(await stats({ ...aroundA(), currency: 'usd' })).toMatchObject({ count: 0, buckets: [] });
  });

  it.each([
    ['no created_from', { createdTo: new Date() }, 'created_from'],
    ['no created_to', { createdFrom: new Date() }, 'created_to'],
    ['an inverted range', { createdFrom: new Date('2026-02-01T00:00:00Z'), createdTo: new Date('2026-01-01T00:00:00Z') }, 'created_to'],
    [
      'more than 1000 hours',
      { createdFrom: new Date('2026-01-01T00:00:00Z'), createdTo: new Date('2026-03-01T00:00:00Z'), bucket: TimeBucket.TIME_BUCKET_HOUR },
      'created_to',
    ],
    ['an unknown bucket', { createdFrom: new Date('2026-01-01T00:00:00Z'), createdTo: new Date('2026-01-02T00:00:00Z'), bucket: 9 as TimeBucket }, 'bucket'],
    [
      'an unknown time zone',
      { createdFrom: new Date('2026-01-01T00:00:00Z'), createdTo: new Date('2026-01-02T00:00:00Z'), timeZone: 'Mars/Olympus' },
      'time_zone',
    ],
    [
      'an offset for a time zone',
      { createdFrom: new Date('2026-01-01T00:00:00Z'), createdTo: new Date('2026-01-02T00:00:00Z'), timeZone: '-03:00' },
      'time_zone',
    ],
    ['a currency that is no code', { createdFrom: new Date('2026-01-01T00:00:00Z'), createdTo: new Date('2026-01-02T00:00:00Z'), currency: 'R$' }, 'currency'],
  ])('refuses %s with INVALID_ARGUMENT naming the field', async (_what, request, field) => {
    expect((await failureOf(stats(request))).code).toBe('INVALID_ARGUMENT');
    expect((await errorDetailsOf(stats(request))).fields).toEqual([field]);
  });

  it('counts a range of many days by the day', async () => {
    const result = await stats({ createdFrom: new Date(Date.now() - 990 * 86_400_000), createdTo: new Date(Date.now() + 86_400_000) });
    expect(result.count).toBeGreaterThanOrEqual(6);
  });
});

describe('GetTransactionStats per hour or day, by status and by provider', () => {
  /**
   * Charges made through the API at two providers (SANDBOX and PAGUESAFE on a
   * fake), then moved to chosen creation times in March 2025 (the API stamps
   * now), around midnight in São Paulo (03:00 UTC), where no other test has charges.
   */
  const at = {
    s1: '2025-03-10T02:30:00Z',
    s2: '2025-03-10T03:30:00Z',
    p1: '2025-03-10T12:00:00Z',
    s3: '2025-03-10T15:00:00Z',
    s4: '2025-03-10T15:40:00Z',
    p2: '2025-03-11T02:59:59Z',
    s5: '2025-03-11T03:00:00Z',
  };
  const range = { createdFrom: new Date('2025-03-09T00:00:00Z'), createdTo: new Date('2025-03-12T00:00:00Z') };
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await startFakeProvider();
    const sandbox = await newAccount('stats over time');
    const { providerAccount: paguesafe } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'PAGUESAFE',
      name: 'stats over time',
      publicKey: 'pk',
      secretKey: 'sk_stats',
      baseUrl: fake.url,
    });
    const paguesafeCharge = async (id: string, amount: number, status: string) => {
      fake.expect({
        method: 'POST',
        path: '/transactions',
        reply: { body: { id, status, amount, paymentMethod: 'pix', pix: { qrcode: '000201stats', expirationDate: '2030-01-02T00:00:00.000Z' } } },
      });
      return charge(paguesafe.id, { amount });
    };
    const made = {
      s1: await charge(sandbox, { amount: 1000 }),
      s2: await charge(sandbox, { amount: 2000 }),
      p1: await paguesafeCharge('ps_stats_1', 1990, 'paid'),
      s3: await charge(sandbox, { amount: 4500, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await sandboxCardId(stack.client, sandbox) }),
      s4: await charge(sandbox, {
        amount: 5000,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        cardId: await sandboxCardId(stack.client, sandbox, SANDBOX_TEST_CARDS.declined),
      }),
      p2: await paguesafeCharge('ps_stats_2', 700, 'waiting_payment'),
      s5: await charge(sandbox, { amount: 300 }),
    };
    fake.assertAllDone();
    await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: made.s1.id }));
    expect([made.p1, made.s2, made.s3, made.s4, made.p2, made.s5].map((t) => t.status)).toEqual([
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      TransactionStatus.TRANSACTION_STATUS_PENDING,
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      TransactionStatus.TRANSACTION_STATUS_REJECTED,
      TransactionStatus.TRANSACTION_STATUS_PENDING,
      TransactionStatus.TRANSACTION_STATUS_PENDING,
    ]);
    const db = new pg.Client({ connectionString: stack.database.url });
    await db.connect();
    try {
      for (const [name, createdAt] of Object.entries(at))
        await db.query('update transactions set created_at = $2 where id = $1', [made[name as keyof typeof made].id, createdAt]);
    } finally {
      await db.end();
    }
  });

  afterAll(async () => {
    await fake?.close();
  });

  const APPROVED = TransactionStatus.TRANSACTION_STATUS_APPROVED;
  const PENDING = TransactionStatus.TRANSACTION_STATUS_PENDING;
  const REJECTED = TransactionStatus.TRANSACTION_STATUS_REJECTED;

  describe.each(TRANSPORTS)('through %s', (_name, driver) => {
    const stats = (request: Partial<GetTransactionStatsRequest>) =>
      driver().call('gateway', 'getTransactionStats', GetTransactionStatsRequest.fromPartial({ ...range, ...request }));

    it('gives each São Paulo day its counts and cents by status and by provider', async () => {
      const result = await stats({ bucket: TimeBucket.TIME_BUCKET_DAY, timeZone: 'America/Sao_Paulo' });
      expect(result.buckets).toEqual([
        {
          // 02:30 UTC on the 10th is still the 9th in São Paulo.
          start: new Date('2025-03-09T03:00:00Z'),
          count: 1,
          amount: 1000,
          byStatus: [{ status: APPROVED, count: 1, amount: 1000 }],
          byProvider: [{ provider: 'SANDBOX', count: 1, amount: 1000 }],
        },
        {
          start: new Date('2025-03-10T03:00:00Z'),
          count: 5,
          amount: 14_190,
          byStatus: [
            { status: APPROVED, count: 2, amount: 6490 },
            { status: PENDING, count: 2, amount: 2700 },
            { status: REJECTED, count: 1, amount: 5000 },
          ],
          byProvider: [
            { provider: 'SANDBOX', count: 3, amount: 11_500 },
            { provider: 'PAGUESAFE', count: 2, amount: 2690 },
          ],
        },
        {
          start: new Date('2025-03-11T03:00:00Z'),
          count: 1,
          amount: 300,
          byStatus: [{ status: PENDING, count: 1, amount: 300 }],
          byProvider: [{ provider: 'SANDBOX', count: 1, amount: 300 }],
        },
      ]);
    });

    it('cuts the same charges into UTC days when no time zone is given', async () => {
      const result = await stats({});
      expect(result.buckets).toEqual([
        {
          start: new Date('2025-03-10T00:00:00Z'),
          count: 5,
          amount: 14_490,
          byStatus: [
            { status: APPROVED, count: 3, amount: 7490 },
            { status: PENDING, count: 1, amount: 2000 },
            { status: REJECTED, count: 1, amount: 5000 },
          ],
          byProvider: [
            { provider: 'SANDBOX', count: 4, amount: 12_500 },
            { provider: 'PAGUESAFE', count: 1, amount: 1990 },
          ],
        },
        {
          start: new Date('2025-03-11T00:00:00Z'),
          count: 2,
          amount: 1000,
          byStatus: [{ status: PENDING, count: 2, amount: 1000 }],
          // Equal counts: by name.
          byProvider: [
            { provider: 'PAGUESAFE', count: 1, amount: 700 },
            { provider: 'SANDBOX', count: 1, amount: 300 },
          ],
        },
      ]);
      // The range's own totals are the buckets' added up.
      expect(result).toMatchObject({ count: 7, amount: 15_490 });
    });

    it('breaks hours down too, and keeps to the provider asked for', async () => {
      const hours = await stats({ bucket: TimeBucket.TIME_BUCKET_HOUR, timeZone: 'America/Sao_Paulo' });
      expect(hours.buckets.map((bucket: { start: Date }) => bucket.start.toISOString())).toEqual([
        '2025-03-10T02:00:00.000Z',
        '2025-03-10T03:00:00.000Z',
        '2025-03-10T12:00:00.000Z',
        '2025-03-10T15:00:00.000Z',
        '2025-03-11T02:00:00.000Z',
        '2025-03-11T03:00:00.000Z',
      ]);
      expect(hours.buckets[3]).toEqual({
        start: new Date('2025-03-10T15:00:00Z'),
        count: 2,
        amount: 9500,
        byStatus: [
          { status: APPROVED, count: 1, amount: 4500 },
          { status: REJECTED, count: 1, amount: 5000 },
        ],
        byProvider: [{ provider: 'SANDBOX', count: 2, amount: 9500 }],
      });

      const paguesafe = await stats({ provider: 'paguesafe', timeZone: 'America/Sao_Paulo' });
      expect(paguesafe.buckets).toEqual([
        {
          start: new Date('2025-03-10T03:00:00Z'),
          count: 2,
          amount: 2690,
          byStatus: [
            { status: APPROVED, count: 1, amount: 1990 },
            { status: PENDING, count: 1, amount: 700 },
          ],
          byProvider: [{ provider: 'PAGUESAFE', count: 2, amount: 2690 }],
        },
      ]);
    });
  });
});

describe('ListWithdrawals and ListReceivers', () => {
  const w = {} as Record<'paid' | 'failed', { id: string; withdrawId: string }>;
  const r = {} as Record<'shop' | 'maria', { id: string; receiverId: string }>;

  beforeAll(async () => {
    const payout = async (amount: number, pixKey: string) =>
      (
        await stack.client.call(
          'gateway',
          'withdraw',
          WithdrawRequest.fromPartial({
            providerAccountId: accountA,
            withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount, pixKey, pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
          }),
        )
      ).withdrawal;
    w.paid = await payout(1500, 'seller@example.com');
    w.failed = await payout(2500, SANDBOX_FAILING_PIX_KEY);
    const settled = async (id: string, status: WithdrawStatus) =>
      eventually(
        async () => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal.status === status,
        15_000,
        `withdrawal ${id} to settle`,
      );
    await settled(w.paid.id, WithdrawStatus.WITHDRAW_STATUS_APPROVED);
    await settled(w.failed.id, WithdrawStatus.WITHDRAW_STATUS_REJECTED);
    const receiver = async (name: string, document: string, email: string) =>
      (
        await stack.client.call(
          'gateway',
          'createReceiver',
          CreateReceiverRequest.fromPartial({ providerAccountId: accountA, receiver: { name, document, email } }),
        )
      ).receiver;
    r.shop = await receiver('Loja Um', '11.222.333/0001-81', 'Loja@Example.com');
    r.maria = await receiver('Maria', '52998224725', 'maria@example.com');
  });

  describe.each(TRANSPORTS)('through %s', (_name, driver) => {
    const withdrawals = async (request: Partial<ListWithdrawalsRequest>) =>
      driver().call('gateway', 'listWithdrawals', ListWithdrawalsRequest.fromPartial(request));
    const withdrawalIds = async (request: Partial<ListWithdrawalsRequest>) => (await withdrawals(request)).withdrawals.map((item: { id: string }) => item.id);
    const receiverIds = async (request: Partial<ListReceiversRequest>) =>
      (await driver().call('gateway', 'listReceivers', ListReceiversRequest.fromPartial(request))).receivers.map((item: { id: string }) => item.id);

    it('lists payouts newest first, filtered by account, status, method, time and ids', async () => {
      expect(await withdrawalIds({ providerAccountId: accountA })).toEqual([w.failed.id, w.paid.id]);
      expect(await withdrawalIds({ providerAccountId: accountB })).toEqual([]);
      expect(await withdrawalIds({ provider: 'Sandbox', statuses: [WithdrawStatus.WITHDRAW_STATUS_APPROVED] })).toEqual([w.paid.id]);
      expect(await withdrawalIds({ providerAccountId: accountA, paymentMethod: WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT })).toEqual([]);
      expect(await withdrawalIds({ providerAccountId: accountA, paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX })).toEqual([w.failed.id, w.paid.id]);
      expect(await withdrawalIds({ createdTo: c.c6.createdAt })).toEqual([]);
      expect(await withdrawalIds({ query: w.paid.withdrawId })).toEqual([w.paid.id]);
      expect(await withdrawalIds({ query: w.failed.id })).toEqual([w.failed.id]);

      const first = await withdrawals({ providerAccountId: accountA, pageSize: 1 });
      const second = await withdrawals({ providerAccountId: accountA, pageSize: 1, pageToken: first.nextPageToken });
      expect([...first.withdrawals, ...second.withdrawals].map((item: { id: string }) => item.id)).toEqual([w.failed.id, w.paid.id]);
      expect(second.nextPageToken).toBe('');
      expect((await errorDetailsOf(withdrawals({ statuses: [7 as WithdrawStatus] }))).fields).toEqual(['statuses[0]']);
      expect((await errorDetailsOf(withdrawals({ pageSize: 500 }))).fields).toEqual(['page_size']);
    });

    it('lists receivers newest first, found by id, provider id, document (any punctuation) or e-mail (any case)', async () => {
      expect(await receiverIds({ providerAccountId: accountA })).toEqual([r.maria.id, r.shop.id]);
      expect(await receiverIds({ providerAccountId: accountA, statuses: [ReceiverStatus.RECEIVER_STATUS_ACTIVE] })).toEqual([r.maria.id, r.shop.id]);
      expect(await receiverIds({ providerAccountId: accountA, statuses: [ReceiverStatus.RECEIVER_STATUS_PENDING] })).toEqual([]);
      expect(await receiverIds({ provider: 'PAGARME' })).toEqual([]);
      expect(await receiverIds({ query: '11222333000181' })).toEqual([r.shop.id]);
      expect(await receiverIds({ query: '529.982.247-25' })).toEqual([r.maria.id]);
      expect(await receiverIds({ query: 'LOJA@example.com' })).toEqual([r.shop.id]);
      expect(await receiverIds({ query: r.maria.receiverId })).toEqual([r.maria.id]);
      expect(await receiverIds({ query: r.shop.id })).toEqual([r.shop.id]);
      expect(await receiverIds({ providerAccountId: accountB, query: r.shop.id })).toEqual([]);
    });
  });
});
