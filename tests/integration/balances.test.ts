import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest, GetTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateRouteRequest, RoutingStrategy } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { GetAccountBalanceRequest, GetAccountStatementRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { Operation, PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { startAsaasStandIn } from '../standins/asaas.js';
import { startMercadoPagoStandIn } from '../standins/mercadopago.js';
import { closedPort } from '../support/closedPort.js';
import { eventually } from '../support/eventually.js';
import { connectDriver, errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §4: GetAccountBalance reads the balance at the provider (SANDBOX's fake PSP here), refuses a provider with
 * no balance read with the spec's not-implemented text, and reports an unreachable provider as UNAVAILABLE;
 * GetAccountStatement adds up what the gateway recorded per São Paulo calendar day.
 */

let stack: TestStack;
const CUSTOMER = { name: 'Ana', document: '12345678909', email: 'ana@example.com' };
const ASAAS_KEY = '$aact_statement_fees_key';
const MP_TOKEN = 'APP_USR-statement-fees-token';
const MP_SECRET = 'mercadopago-statement-secret';
/** Today's São Paulo calendar day, YYYY-MM-DD: the day a charge made now is on. */
const saoPauloToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const drivers: Driver[] = [];

const createAccount = async (provider: string, extra: Record<string, unknown> = {}): Promise<string> =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider,
      name: `${provider} balance`,
      publicKey: 'pk',
      secretKey: `sk-${randomUUID()}`,
      ...extra,
    })
  ).providerAccount.id;

beforeAll(async () => {
  stack = await startTestStack();
  drivers.push(grpcDriver(stack.gateway.grpcAddress!, TEST_TOKEN), connectDriver(stack.gateway.httpUrl!, TEST_TOKEN));
});
afterAll(async () => {
  drivers.forEach((driver) => driver.close());
  await stack?.close();
});

describe('ListProviders', () => {
  it('lists the balance read for the providers that have one, and not for the others', async () => {
    const { providers } = await stack.client.call('gateway', 'listProviders', {});
    const operationsOf = (id: string): Operation[] => providers.find((p: { id: string }) => p.id === id).operations;
    expect(operationsOf('SANDBOX')).toContain(Operation.OPERATION_GET_ACCOUNT_BALANCE);
    expect(operationsOf('ASAAS')).toContain(Operation.OPERATION_GET_ACCOUNT_BALANCE);
    expect(operationsOf('NOXPAY')).toContain(Operation.OPERATION_GET_ACCOUNT_BALANCE);
    expect(operationsOf('PAGARME')).toContain(Operation.OPERATION_GET_ACCOUNT_BALANCE);
    expect(operationsOf('SYNCPAY')).toContain(Operation.OPERATION_GET_ACCOUNT_BALANCE);
    expect(operationsOf('FIREBANK')).toContain(Operation.OPERATION_GET_ACCOUNT_BALANCE);
    expect(operationsOf('PAGUESAFE')).not.toContain(Operation.OPERATION_GET_ACCOUNT_BALANCE);
  });
});

describe.each([
  ['grpc-js', 0],
  ['connect-web', 1],
])('GetAccountBalance through %s', (_name, index) => {
  const driver = () => drivers[index]!;
  const balance = (providerAccountId: string) => driver().call('accounts', 'getAccountBalance', GetAccountBalanceRequest.fromPartial({ providerAccountId }));

  it("answers the sandbox PSP's balance in cents: a paid PIX available, nothing pending", async () => {
    const accountId = await createAccount('SANDBOX');
    expect(await balance(accountId)).toMatchObject({ available: 0, pending: 0, currency: 'BRL' });
    const { transaction } = await driver().call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        transaction: {
          amount: 1990,
          paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
          customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com' },
        },
      }),
    );
    await driver().call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
    const read = await balance(accountId);
    expect(read).toMatchObject({ available: 1990, pending: 0, currency: 'BRL' });
    expect(Math.abs(new Date(read.readAt).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("is UNIMPLEMENTED with the spec's text where the provider has no balance read", async () => {
    const accountId = await createAccount('PAGUESAFE');
    expect(await failureOf(balance(accountId))).toEqual({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
  });

  it('is UNAVAILABLE when the provider cannot be reached', async () => {
    const accountId = await createAccount('SANDBOX', { baseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect((await failureOf(balance(accountId))).code).toBe('UNAVAILABLE');
  });

  it('is NOT_FOUND for an unknown account and INVALID_ARGUMENT without one', async () => {
    expect((await failureOf(balance(randomUUID()))).code).toBe('NOT_FOUND');
    expect(await failureOf(balance(''))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await errorDetailsOf(balance(''))).fields).toEqual(['provider_account_id']);
  });
});

describe('GetAccountStatement', () => {
  let accountId: string;
  let otherAccountId: string;

  /** Rows as the gateway writes them, at chosen instants (São Paulo is UTC−3). */
  async function seed(): Promise<void> {
    const db = new pg.Client({ connectionString: stack.database.url });
    await db.connect();
    try {
      /**
       * `declaredFee`: the fee its route's target declared, kept in the routing record as a routed charge keeps it;
       * `providerFee`: the one its provider reported.
       */
      const charge = async (account: string, status: string, amount: number, at: string, declaredFee?: number, providerFee?: number): Promise<string> => {
        const id = randomUUID();
        const routing =
          declaredFee === undefined ? null : { routeId: randomUUID(), routeName: 'fees', ruleIndex: 0, strategy: 'priority', attempts: [], declaredFee };
        await db.query(
          `insert into transactions (id, provider_account_id, provider, provider_transaction_id, payment_method, status, amount, currency, installments, routing, provider_fee, created_at, updated_at)
           values ($1, $2, 'SANDBOX', $3, 'PIX', $4, $5, 'BRL', 1, $6, $7, $8, $8)`,
          [id, account, `ch_${id}`, status, amount, routing, providerFee ?? null, at],
        );
        return id;
      };
      const refund = (transactionId: string, status: string, amount: number, at: string) =>
        db.query(`insert into refunds (id, transaction_id, amount, status, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)`, [
          randomUUID(),
          transactionId,
          amount,
          status,
          at,
        ]);
      const payout = (account: string, status: string, amount: number, at: string) =>
        db.query(
          `insert into withdrawals (id, provider_account_id, provider, provider_withdraw_id, payment_method, status, amount, created_at, updated_at)
           values ($1, $2, 'SANDBOX', $3, 'PIX', $4, $5, $6, $6)`,
          [randomUUID(), account, `wd_${randomUUID()}`, status, amount, at],
        );
      // 2026-03-10 in São Paulo: 03:00Z to 03:00Z the next morning.
      const late = await charge(accountId, 'APPROVED', 10_000, '2026-03-11T02:59:00Z', 199); // 23:59 on the 10th
      await charge(accountId, 'REFUNDED', 5_000, '2026-03-10T03:00:00Z', 120); // 00:00 on the 10th: its fee stays
      // Paid on the 10th, charged back on the 11th: the chargeback counts on the day of the move (its status event).
      const chargedBack = await charge(accountId, 'CHARGEBACK', 2_500, '2026-03-10T12:00:00Z');
      await db.query(
        `insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at) values ('TRANSACTION', $1, $2, 'CHARGEBACK', 'WEBHOOK', $3)`,
        [chargedBack, accountId, '2026-03-11T13:00:00Z'],
      );
      await charge(accountId, 'REJECTED', 99_999, '2026-03-10T12:00:00Z', 5_000); // not paid: no fee
      await charge(accountId, 'PENDING', 88_888, '2026-03-10T12:00:00Z');
      await charge(accountId, 'APPROVED', 7_000, '2026-03-10T02:59:00Z', 700); // 23:59 on the 9th
      const early = await charge(accountId, 'APPROVED', 3_000, '2026-03-11T03:00:00Z', 0); // 00:00 on the 11th: declared free
      await charge(accountId, 'APPROVED', 4_000, '2026-03-11T15:00:00Z', 300, 150); // the provider's fee wins over the route's
      await refund(late, 'SUCCEEDED', 1_000, '2026-03-11T03:30:00Z'); // the 11th: the day it was asked for
      await refund(late, 'FAILED', 2_000, '2026-03-11T03:40:00Z');
      await refund(early, 'PENDING', 500, '2026-03-11T04:00:00Z');
      await payout(accountId, 'APPROVED', 4_000, '2026-03-10T20:00:00Z');
      await payout(accountId, 'REJECTED', 6_000, '2026-03-10T20:00:00Z');
      await payout(accountId, 'APPROVED', 1_500, '2026-03-12T02:00:00Z'); // 23:00 on the 11th
      await charge(otherAccountId, 'APPROVED', 50_000, '2026-03-10T12:00:00Z');
    } finally {
      await db.end();
    }
  }

  beforeAll(async () => {
    accountId = await createAccount('PAGUESAFE');
    otherAccountId = await createAccount('PAGUESAFE');
    await seed();
  });

  const day = (values: { day: string; [field: string]: string | number }) => ({
    chargesCount: 0,
    chargesAmount: 0,
    refundsCount: 0,
    refundsAmount: 0,
    chargebacksCount: 0,
    chargebacksAmount: 0,
    payoutsCount: 0,
    payoutsAmount: 0,
    feesAmount: 0,
    feesReportedCount: 0,
    feesDeclaredCount: 0,
    netAmount: 0,
    ...values,
  });

  it.each([
    ['grpc-js', 0],
    ['connect-web', 1],
  ])('adds up each São Paulo day of one account through %s, at the boundaries of its days', async (_name, index) => {
    const statement = await drivers[index]!.call(
      'accounts',
      'getAccountStatement',
      GetAccountStatementRequest.fromPartial({ providerAccountId: accountId, fromDay: '2026-03-10', toDay: '2026-03-11' }),
    );
    expect(statement.currency).toBe('BRL');
    expect(statement.days).toEqual([
      day({
        day: '2026-03-10',
        chargesCount: 3,
        chargesAmount: 17_500,
        payoutsCount: 1,
        payoutsAmount: 4_000,
        feesAmount: 319,
        feesDeclaredCount: 2,
        netAmount: 13_500,
      }),
      day({
        day: '2026-03-11',
        chargesCount: 2,
        chargesAmount: 7_000,
        refundsCount: 1,
        refundsAmount: 1_000,
        chargebacksCount: 1,
        chargebacksAmount: 2_500,
        payoutsCount: 1,
        payoutsAmount: 1_500,
        feesAmount: 150,
        feesReportedCount: 1,
        feesDeclaredCount: 1,
        netAmount: 2_000,
      }),
    ]);
    expect(statement.total).toEqual(
      day({
        day: '',
        chargesCount: 5,
        chargesAmount: 24_500,
        refundsCount: 1,
        refundsAmount: 1_000,
        chargebacksCount: 1,
        chargebacksAmount: 2_500,
        payoutsCount: 2,
        payoutsAmount: 5_500,
        feesAmount: 469,
        feesReportedCount: 1,
        feesDeclaredCount: 3,
        netAmount: 15_500,
      }),
    );
  });

  it("keeps the fee a routed charge's target declares, and counts it on the charge's day beside its refund", async () => {
    const sandbox = await createAccount('SANDBOX');
    const PIX = PaymentMethod.PAYMENT_METHOD_PIX;
    // 0.99 R$ plus 1.99 %: 3,000 cents cost 99 + 59.7, rounded to 159.
    const fees = [{ paymentMethod: PIX, fixed: 99, percentBps: 199 }];
    const targets = [{ providerAccountId: sandbox, weight: 0, fees }];
    await stack.client.call(
      'routes',
      'createRoute',
      CreateRouteRequest.fromPartial({
        name: 'statement-fees',
        rules: [
          { paymentMethods: [PIX], strategy: RoutingStrategy.ROUTING_STRATEGY_LOWEST_COST, targets },
          { strategy: RoutingStrategy.ROUTING_STRATEGY_PRIORITY, targets: [{ providerAccountId: sandbox, weight: 0, fees: [] }] },
        ],
      }),
    );
    const charge = async (amount: number, paymentMethod: PaymentMethod) => {
      const { transaction } = await stack.client.call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({ route: 'statement-fees', transaction: { amount, paymentMethod, customer: CUSTOMER } }),
      );
      await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
      return transaction.id as string;
    };
    const paid = await charge(3_000, PIX);
    await stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: sandbox, id: paid, amount: 1_000 }));
    // Billet: the second rule, whose target declares no fee.
    await charge(2_000, PaymentMethod.PAYMENT_METHOD_BILLET);
    const today = saoPauloToday();
    for (const driver of drivers) {
      const statement = await driver.call(
        'accounts',
        'getAccountStatement',
        GetAccountStatementRequest.fromPartial({ providerAccountId: sandbox, fromDay: today, toDay: today }),
      );
      expect(statement.days).toEqual([
        day({
          day: today,
          chargesCount: 2,
          chargesAmount: 5_000,
          refundsCount: 1,
          refundsAmount: 1_000,
          feesAmount: 159,
          feesDeclaredCount: 1,
          netAmount: 4_000,
        }),
      ]);
    }
  });

  /** A PIX charge of R$ 25,00 at `account`, as created. */
  const pixCharge = async (account: string) =>
    (
      await stack.client.call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({
          providerAccountId: account,
          transaction: { amount: 2_500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER },
        }),
      )
    ).transaction;
  /** Today's São Paulo day of `account`'s statement (none when nothing was paid). */
  const todaysStatement = async (account: string) =>
    (
      await stack.client.call(
        'accounts',
        'getAccountStatement',
        GetAccountStatementRequest.fromPartial({ providerAccountId: account, fromDay: saoPauloToday(), toDay: saoPauloToday() }),
      )
    ).days;

  it('keeps the fee ASAAS reports for a charge (its value less its netValue) and counts it as reported', async () => {
    const asaas = await startAsaasStandIn({ apiKey: ASAAS_KEY });
    try {
      const account = await createAccount('ASAAS', { publicKey: '', secretKey: ASAAS_KEY, baseUrl: asaas.baseUrl });
      const transaction = await pixCharge(account);
      await asaas.pay(transaction.transactionId);
      const read = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id, refresh: true }));
      expect(read.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
      // The stand-in's PIX fee, R$ 0,99, as its netValue says.
      expect(await todaysStatement(account)).toEqual([
        day({ day: saoPauloToday(), chargesCount: 1, chargesAmount: 2_500, feesAmount: 99, feesReportedCount: 1, netAmount: 2_500 }),
      ]);
    } finally {
      await asaas.close();
    }
  });

  it('keeps a fee that only a later notification or read reports, and never loses it to an answer that states none', async () => {
    const mp = await startMercadoPagoStandIn({ accessToken: MP_TOKEN, publicKey: 'APP_USR-fees-public', webhookSecret: MP_SECRET });
    try {
      const account = await createAccount('MERCADOPAGO', { secretKey: MP_TOKEN, baseUrl: mp.url, webhookSecret: MP_SECRET });
      const transaction = await pixCharge(account);
      const today = saoPauloToday();
      const statement = () => todaysStatement(account);
      const refresh = () => stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id, refresh: true }));
      const paid = (fees: Partial<ReturnType<typeof day>>) => [day({ day: today, chargesCount: 1, chargesAmount: 2_500, netAmount: 2_500, ...fees })];

      // Created pending, with no fee listed yet; paid, the signed notification's read lists the stand-in's 0.99 %.
      expect(await mp.pay(transaction.transactionId)).toMatchObject({ status: 200 });
      await eventually(async () => (await statement()).length === 1);
      expect(await statement()).toEqual(paid({ feesAmount: 25, feesReportedCount: 1 }));

      // A read that lists no fee keeps the known one.
      Object.assign(mp.payment(transaction.transactionId)!, { fee_details: [], transaction_details: { net_received_amount: 0 } });
      expect((await refresh()).transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
      expect(await statement()).toEqual(paid({ feesAmount: 25, feesReportedCount: 1 }));

      // A read that states another fee is the provider's latest word on it.
      Object.assign(mp.payment(transaction.transactionId)!, {
        fee_details: [{ type: 'mercadopago_fee', amount: 0.3, fee_payer: 'collector' }],
        transaction_details: { net_received_amount: 24.7 },
      });
      await refresh();
      expect(await statement()).toEqual(paid({ feesAmount: 30, feesReportedCount: 1 }));
    } finally {
      await mp.close();
    }
  });

  it('covers every account without one, and only the days asked for', async () => {
    const statement = await stack.client.call(
      'accounts',
      'getAccountStatement',
      GetAccountStatementRequest.fromPartial({ fromDay: '2026-03-10', toDay: '2026-03-10' }),
    );
    expect(statement.days.map((row: { day: string; chargesAmount: number }) => [row.day, row.chargesAmount])).toEqual([['2026-03-10', 67_500]]);
  });

  it('refuses a missing, malformed, reversed or too long range, naming the field', async () => {
    const statement = (fromDay: string, toDay: string) =>
      stack.client.call('accounts', 'getAccountStatement', GetAccountStatementRequest.fromPartial({ providerAccountId: accountId, fromDay, toDay }));
    expect((await errorDetailsOf(statement('', '2026-03-10'))).fields).toEqual(['from_day']);
    expect((await errorDetailsOf(statement('2026-02-30', '2026-03-10'))).fields).toEqual(['from_day']);
    expect((await errorDetailsOf(statement('2026-03-10', '2026-03-09'))).fields).toEqual(['to_day']);
    expect((await errorDetailsOf(statement('2025-03-10', '2026-03-11'))).fields).toEqual(['to_day']);
    expect((await failureOf(statement('2025-03-10', '2026-03-11'))).code).toBe('INVALID_ARGUMENT');
  });
});
