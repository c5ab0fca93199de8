import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { GetTransactionStatsRequest, type GetTransactionStatsResponse } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetAccountStatementRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { connectDriver, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * The dashboard (GetTransactionStats) and the statement (GetAccountStatement) count a charge's money on the days it
 * moved: the sale when the charge was created, a refund when it was asked for, a refund made at the provider and a
 * chargeback when the charge moved to REFUNDED or CHARGEBACK. So over any days and account their nets agree, and a
 * charge refunded or charged back later lowers the later days, not the day of the sale.
 *
 * Rows are written as the gateway writes them (charges, refund records, status events), at chosen São Paulo days of
 * May 2026 (UTC−3, no daylight saving): the days are the point, and the API makes everything now.
 */

let stack: TestStack;
let connect: Driver;
let accountId: string;
let otherAccountId: string;
const TIME_ZONE = 'America/Sao_Paulo';
/** Noon of day `n` of May 2026 in São Paulo. */
const noon = (n: number) => new Date(`2026-05-${String(n).padStart(2, '0')}T15:00:00Z`);
/** The instant day `n` of May 2026 begins in São Paulo. */
const dayStart = (n: number) => new Date(`2026-05-${String(n).padStart(2, '0')}T03:00:00Z`);
const isoDay = (n: number) => `2026-05-${String(n).padStart(2, '0')}`;

async function seed(): Promise<void> {
  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    const charge = async (account: string, status: string, amount: number, at: Date, paymentMethod = 'PIX'): Promise<string> => {
      const id = randomUUID();
      await db.query(
        `insert into transactions (id, provider_account_id, provider, provider_transaction_id, payment_method, status, amount, refunded_amount, currency, installments, created_at, updated_at)
         values ($1, $2, 'SANDBOX', $3, $4, $5, $6, 0, 'BRL', 1, $7, $7)`,
        [id, account, `ch_${id}`, paymentMethod, status, amount, at],
      );
      return id;
    };
    const refund = async (transactionId: string, status: string, amount: number, at: Date) => {
      await db.query(`insert into refunds (id, transaction_id, amount, status, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)`, [
        randomUUID(),
        transactionId,
        amount,
        status,
        at,
      ]);
      if (status === 'SUCCEEDED') await db.query(`update transactions set refunded_amount = refunded_amount + $2 where id = $1`, [transactionId, amount]);
    };
    /** The charge's move to `status` on its day: the state machine's event, as a notification leaves it. */
    const moved = (transactionId: string, account: string, status: string, at: Date) =>
      db.query(
        `insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at) values ('TRANSACTION', $1, $2, $3, 'WEBHOOK', $4)`,
        [transactionId, account, status, at],
      );

    // The case: R$ 100,00 paid on the 1st, R$ 30,00 of it refunded on the 3rd, charged back on the 5th (the
    // R$ 70,00 it still held). A refund the provider refused on the 3rd moves nothing.
    const disputed = await charge(accountId, 'CHARGEBACK', 10_000, noon(1), 'CREDIT_CARD');
    await refund(disputed, 'SUCCEEDED', 3000, noon(3));
    await refund(disputed, 'FAILED', 2000, noon(3));
    await moved(disputed, accountId, 'CHARGEBACK', noon(5));
    // R$ 40,00 paid on the 2nd, refunded at the provider (no refund record) on the 4th.
    const outside = await charge(accountId, 'REFUNDED', 4000, noon(2));
    await moved(outside, accountId, 'REFUNDED', noon(4));
    // R$ 60,00 paid on the 3rd, refunded whole through the gateway on the 4th: its record counts, its REFUNDED move
    // adds nothing more.
    const returned = await charge(accountId, 'REFUNDED', 6000, noon(3));
    await refund(returned, 'SUCCEEDED', 6000, noon(4));
    await moved(returned, accountId, 'REFUNDED', noon(4));
    // Counted by creation only (conversion): declined on the 1st, pending on the 2nd.
    await charge(accountId, 'REJECTED', 9999, noon(1));
    await charge(accountId, 'PENDING', 8888, noon(2));
    // Another account: R$ 500,00 paid on the 1st and charged back on the 3rd.
    const other = await charge(otherAccountId, 'CHARGEBACK', 50_000, noon(1));
    await moved(other, otherAccountId, 'CHARGEBACK', noon(3));
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  const account = async (name: string): Promise<string> =>
    (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: `sk-${randomUUID()}` }))
      .providerAccount.id;
  accountId = await account('days');
  otherAccountId = await account('other days');
  await seed();
});

afterAll(async () => {
  connect?.close();
  await stack?.close();
});

/** The dashboard's figures over São Paulo days first..last of May 2026, both included. */
const stats = (first: number, last: number, providerAccountId?: string): Promise<GetTransactionStatsResponse> =>
  connect.call(
    'gateway',
    'getTransactionStats',
    GetTransactionStatsRequest.fromPartial({ createdFrom: dayStart(first), createdTo: dayStart(last + 1), timeZone: TIME_ZONE, providerAccountId }),
  );

/** The statement's total over the same days. */
const statement = async (first: number, last: number, providerAccountId?: string) =>
  (
    await stack.client.call(
      'accounts',
      'getAccountStatement',
      GetAccountStatementRequest.fromPartial({ providerAccountId, fromDay: isoDay(first), toDay: isoDay(last) }),
    )
  ).total as { chargesAmount: number; refundsAmount: number; chargebacksAmount: number; payoutsAmount: number; netAmount: number };

/** The dashboard's money figures and the statement's, side by side. */
async function both(first: number, last: number, providerAccountId?: string) {
  const [dashboard, total] = await Promise.all([stats(first, last, providerAccountId), statement(first, last, providerAccountId)]);
  return {
    dashboard: { gross: dashboard.approvedAmount, refunded: dashboard.refundedAmount, chargedBack: dashboard.chargebackAmount, net: dashboard.netAmount },
    statement: { gross: total.chargesAmount, refunded: total.refundsAmount, chargedBack: total.chargebacksAmount, net: total.netAmount + total.payoutsAmount },
  };
}

describe('the dashboard and the statement, by the day money moved', () => {
  it.each([
    // The 1st and 2nd: the two sales (R$ 100,00 and R$ 40,00), nothing given back yet.
    [1, 2, { gross: 14_000, refunded: 0, chargedBack: 0, net: 14_000 }],
    // The 3rd and 4th: the sale of R$ 60,00; R$ 30,00 refunded, R$ 40,00 refunded at the provider, R$ 60,00 refunded.
    [3, 4, { gross: 6000, refunded: 13_000, chargedBack: 0, net: -7000 }],
    // The 5th and 6th: the chargeback takes what the charge still held.
    [5, 6, { gross: 0, refunded: 0, chargedBack: 7000, net: -7000 }],
    // All six days: every cent that came in went back out.
    [1, 6, { gross: 20_000, refunded: 13_000, chargedBack: 7000, net: 0 }],
  ])('days %i to %i of one account agree', async (first, last, expected) => {
    await expect(both(first, last, accountId)).resolves.toEqual({ dashboard: expected, statement: expected });
  });

  it('agree over every account, and each range adds up to the whole', async () => {
    const ranges = await Promise.all(
      (
        [
          [1, 2],
          [3, 4],
          [5, 6],
          [1, 6],
        ] as const
      ).map(([first, last]) => both(first, last)),
    );
    for (const { dashboard, statement } of ranges) expect(dashboard).toEqual(statement);
    // The other account's R$ 500,00: in on the 1st, out on the 3rd.
    expect(ranges.map(({ dashboard }) => dashboard.net)).toEqual([64_000, -57_000, -7000, 0]);
  });

  it('compares with the previous period by the same rule: the days before, as the dashboard asks for them', async () => {
    // The dashboard's comparison (web/src/pages/PreviousPeriod.tsx) is the same call over the period of the same
    // length just before: for the 3rd and 4th, the 1st and 2nd.
    const [from, to] = [dayStart(3), dayStart(5)];
    const previous = await connect.call(
      'gateway',
      'getTransactionStats',
      GetTransactionStatsRequest.fromPartial({
        createdFrom: new Date(2 * from.getTime() - to.getTime()),
        createdTo: from,
        timeZone: TIME_ZONE,
        providerAccountId: accountId,
      }),
    );
    expect(previous).toMatchObject({ approvedAmount: 14_000, refundedAmount: 0, chargebackAmount: 0, netAmount: 14_000 });
    expect(previous.netAmount).toBe((await statement(1, 2, accountId)).netAmount);
    // The refunds of the 3rd and 4th lower the period shown, not the one it is compared with.
    expect((await stats(3, 4, accountId)).netAmount).toBe(-7000);
  });

  it('keeps counts, conversion and the per-provider and per-method breakdowns by creation, their money by when it moved', async () => {
    const result = await stats(1, 2, accountId);
    expect(result).toMatchObject({ count: 4, approvedCount: 2, declinedCount: 1, pendingCount: 1, canceledCount: 0 });
    const later = await stats(5, 6, accountId);
    // No charge was created on the 5th or 6th: no count, no conversion; the chargeback still lowers the card's net.
    expect(later).toMatchObject({ count: 0, approvedCount: 0, declinedCount: 0, chargebackAmount: 7000, netAmount: -7000 });
    expect(later.outcomesByProvider).toEqual([expect.objectContaining({ provider: 'SANDBOX', approvedCount: 0, chargebackAmount: 7000, netAmount: -7000 })]);
    expect(later.outcomesByPaymentMethod).toEqual([expect.objectContaining({ approvedCount: 0, chargebackAmount: 7000, netAmount: -7000 })]);
    const middle = await stats(3, 4, accountId);
    const nets = middle.outcomesByPaymentMethod.map((method) => method.netAmount);
    // The card's R$ 30,00 refund and the PIX charges' R$ 60,00 sale less R$ 100,00 refunded.
    expect(nets.sort((a, b) => a - b)).toEqual([-4000, -3000]);
    expect(nets.reduce((sum, net) => sum + net, 0)).toBe(middle.netAmount);
  });
});
