import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { startPgCluster, type PgCluster } from '../support/pgCluster.js';
import { postSignedSandboxEvent } from '../support/sandboxEvents.js';

/**
 * The notification workers on a throwaway PostgreSQL that counts statements (pg_stat_statements): what processing
 * one notification costs, the backlog's partial index, and two gateways sharing one backlog. Both gateways run
 * without notification workers (WEBHOOK_WORKERS=0), so the test drives their worker rounds itself.
 */
const WEBHOOK_SECRET = 'whsec-workers';
let cluster: PgCluster;
let gateways: Awaited<ReturnType<typeof startTestGateway>>[] = [];
let client: Driver;
let account: { id: string; notificationUrl: string };

const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => cluster.primary.query<T>(text, params, 'gateway');

beforeAll(async () => {
  cluster = await startPgCluster({ replicas: 0 });
  await cluster.primary.query('create database gateway');
  await sql('create extension pg_stat_statements');
  const databaseUrl = cluster.primary.url('gateway');
  // Gateways sharing a database share its secrets key (each would otherwise make one in its own data folder). Their
  // other loops (outbound deliveries, reconciliation, unknown outcomes) sleep for minutes after their first round:
  // a round of theirs falling inside a measured window added its statements to the count (8 of 65 in one full run).
  const env = { WEBHOOK_WORKERS: '0', WORKER_IDLE_MS: '600000', SECRETS_KEY: randomBytes(32).toString('base64') };
  gateways = [await startTestGateway({ databaseUrl, env })];
  gateways.push(await startTestGateway({ databaseUrl, env }));
  client = grpcDriver(gateways[0]!.grpcAddress!, TEST_TOKEN);
  ({ providerAccount: account } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'workers',
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret: WEBHOOK_SECRET,
  }));
}, 180_000);

afterAll(async () => {
  client?.close();
  for (const gateway of gateways) {
    await gateway.close();
    removeDir(gateway.dataDir);
  }
  cluster?.destroy();
});

/** `count` pending PIX charges, each with one signed "paid" notification stored (not processed: no worker runs); four at a time. */
async function paidNotifications(count: number, run: string): Promise<string[]> {
  const one = async (i: number) => {
    const { transaction } = await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: account.id, transaction: { amount: 1500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    );
    const answer = await postSignedSandboxEvent(account.notificationUrl, WEBHOOK_SECRET, {
      id: `evt_${run}_${i}`,
      type: 'charge.paid',
      data: { id: transaction.transactionId, status: 'paid', amount: 1500 },
    });
    expect(answer.status).toBe(200);
    return transaction.id as string;
  };
  const ids: string[] = [];
  for (let i = 0; i < count; i += 4) ids.push(...(await Promise.all(Array.from({ length: Math.min(4, count - i) }, (_, j) => one(i + j)))));
  return ids;
}

/** Statements this database ran since the last reset, by their normalised text. */
async function statements(): Promise<{ query: string; calls: number }[]> {
  const rows = await sql<{ query: string; calls: string }>(
    `select query, calls::text as calls from pg_stat_statements
      where dbid = (select oid from pg_database where datname = 'gateway') and query not ilike '%pg_stat%'
      order by calls desc`,
  );
  return rows.map((row) => ({ query: row.query, calls: Number(row.calls) }));
}

describe('notification workers', () => {
  it('apply a signed notification in 5 statements and a share of the dedup claims, its outcome committed with the status move, after one lease for the batch', async () => {
    const charges = await paidNotifications(10, 'cost');
    await sql('select pg_stat_statements_reset()');
    expect(await gateways[0]!.useCases!.notifications.processDue()).toBe(10);
    const ran = await statements();
    const total = ran.reduce((sum, statement) => sum + statement.calls, 0);
    const calls = (pattern: RegExp) => ran.filter((statement) => pattern.test(statement.query)).reduce((sum, statement) => sum + statement.calls, 0);
    // The lease (1 for the batch); per notification: the charge read, then begin, the move (the row locked, its status
    // and its event in one statement), the outcome, commit; and the dedup keys, claimed together by the notifications
    // processed side by side (at most one statement each). Before: 10 each (the leased row read again; the locked read,
    // the event and the status apart; the outcome written after the move's commit, and read back).
    const dedupClaims = calls(/^update webhook_notifications n set dedup_key/i);
    expect(dedupClaims).toBeGreaterThanOrEqual(1);
    expect(dedupClaims).toBeLessThanOrEqual(charges.length);
    expect({ total, commits: calls(/^commit/i), leases: calls(/locked_until = \$\d+, attempts = attempts \+/i) }).toEqual({
      total: 1 + 5 * charges.length + dedupClaims,
      commits: charges.length,
      leases: 1,
    });
    expect(calls(/^select "w0"\.\* from "webhook_notifications"/i)).toBe(0);
    const outcomes = await sql<{ outcome: string; attempts: number }>(
      `select outcome, attempts from webhook_notifications where subject_id = any($1::uuid[])`,
      [charges],
    );
    expect(outcomes).toEqual(charges.map(() => ({ outcome: 'APPLIED', attempts: 1 })));
    // Each outcome was written by the database transaction that wrote the move's event: they commit together.
    const [{ together }] = await sql<{ together: string }>(
      `select count(*)::text as together from webhook_notifications n join status_events e on e.subject_id = n.subject_id and e.status = 'APPROVED'
        where n.subject_id = any($1::uuid[]) and n.xmin = e.tx::xid`,
      [charges],
    );
    expect(Number(together)).toBe(charges.length);
  }, 120_000);

  it('find the backlog through its partial index, which holds only what waits', async () => {
    // A history of processed notifications that the scan must not walk through.
    await sql(
      `insert into webhook_notifications (id, provider, provider_account_id, body, headers, received_at, outcome, attempts, processed_at)
       select gen_random_uuid(), 'SANDBOX', $1, '\\x7b7d', '{}', now() - interval '1 day', 'APPLIED', 1, now() from generate_series(1, 5000)`,
      [account.id],
    );
    await sql('analyze webhook_notifications');
    await paidNotifications(3, 'index');
    const scans = async () =>
      Number(
        (await sql<{ scans: string }>(`select idx_scan::text as scans from pg_stat_user_indexes where indexrelname = 'webhook_notifications_backlog_index'`))[0]
          ?.scans ?? NaN,
      );
    const before = await scans();
    expect(await gateways[0]!.useCases!.notifications.processDue()).toBe(3);
    // Statistics reach pg_stat_user_indexes once the backend reports them (within a second or so of going idle).
    await eventually(async () => (await scans()) > before, 10_000, 'the backlog index to be scanned');
    const [{ entries }] = await sql<{ entries: string }>(
      `select (pg_relation_size('webhook_notifications_backlog_index') / current_setting('block_size')::int)::text as entries`,
    );
    // 5,000 processed rows would take dozens of index pages; the backlog (now empty) takes the metapage and a leaf.
    expect(Number(entries)).toBeLessThanOrEqual(2);
  }, 120_000);

  it('apply the notifications about one charge in one batch in the order they were received', async () => {
    const { transaction } = await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: account.id, transaction: { amount: 1500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    );
    // Paid, then refunded: REFUNDED is only a move forward from APPROVED, so applied the other way round the refund
    // would find the charge still PENDING and be recorded as UNCHANGED, the charge left APPROVED.
    for (const [id, type, status] of [
      ['evt_order_paid', 'charge.paid', 'paid'],
      ['evt_order_refunded', 'charge.refunded', 'refunded'],
    ] as const) {
      const answer = await postSignedSandboxEvent(account.notificationUrl, WEBHOOK_SECRET, {
        id,
        type,
        data: { id: transaction.transactionId, status, amount: 1500 },
      });
      expect(answer.status).toBe(200);
    }
    // Both leased by one round, among other notifications.
    await paidNotifications(6, 'order');
    expect(await gateways[0]!.useCases!.notifications.processDue()).toBe(8);
    const events = await sql<{ status: string }>(`select status from status_events where subject_id = $1 order by id`, [transaction.id]);
    expect(events.map((event) => event.status)).toEqual(['PENDING', 'APPROVED', 'REFUNDED']);
    const outcomes = await sql<{ outcome: string; outcome_reason: string }>(
      `select outcome, outcome_reason from webhook_notifications where subject_id = $1 order by received_at, id`,
      [transaction.id],
    );
    expect(outcomes).toEqual([
      { outcome: 'APPLIED', outcome_reason: 'PENDING → APPROVED' },
      { outcome: 'APPLIED', outcome_reason: 'APPROVED → REFUNDED' },
    ]);
  }, 120_000);

  it('shared by two gateways on one database, apply each notification once', async () => {
    const charges = await paidNotifications(60, 'shared');
    const [first, second] = gateways.map((gateway) => gateway.useCases!.notifications);
    const leased = [0, 0];
    // Both gateways' worker rounds (batches of 20, so that neither can take the whole backlog at once) run side by
    // side until neither finds anything due.
    for (;;) {
      const round = await Promise.all([first!.processDue(20), second!.processDue(20)]);
      leased[0] += round[0]!;
      leased[1] += round[1]!;
      if (round[0] === 0 && round[1] === 0) break;
    }
    const notifications = await sql<{ outcome: string; attempts: number; count: string }>(
      `select outcome, attempts, count(*)::text as count from webhook_notifications where subject_id = any($1::uuid[]) group by outcome, attempts`,
      [charges],
    );
    expect(notifications).toEqual([{ outcome: 'APPLIED', attempts: 1, count: String(charges.length) }]);
    expect(leased[0]! + leased[1]!).toBe(charges.length);
    expect(leased[0]).toBeGreaterThan(0);
    expect(leased[1]).toBeGreaterThan(0);
    const events = await sql<{ status: string; count: string }>(
      `select status, count(*)::text as count from status_events where subject_id = any($1::uuid[]) group by status order by status`,
      [charges],
    );
    expect(events).toEqual([
      { status: 'APPROVED', count: String(charges.length) },
      { status: 'PENDING', count: String(charges.length) },
    ]);
  }, 300_000);
});
