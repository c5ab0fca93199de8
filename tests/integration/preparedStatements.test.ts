import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { openDatabase, type Database } from '../../server/db/orm.js';
import { inPreparedTransaction, prepared, runPrepared } from '../../server/db/preparedSql.js';
import { removeDir, startTestStack, type TestStack } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { createTestDatabase } from '../support/postgres.js';
import { postSignedSandboxEvent } from '../support/sandboxEvents.js';

/**
 * Issue "Fast and observable": the hot paths on prepared SQL. A charge's key claim and insert, its audit row, a
 * charge's read and a webhook's intake are sent as named statements, which PostgreSQL parses and plans once per
 * connection; with DB_PREPARED_STATEMENTS=false they go unnamed (a pooler that cannot keep them).
 */

/** The statements prepared on every connection the pool holds now (each taken in turn, so none is missed). */
async function preparedNames(db: Database): Promise<Set<string>> {
  const pool = (await (db.em().getConnection('write') as PostgreSqlConnection).getNativeClient()) as pg.Pool;
  const clients: pg.PoolClient[] = [];
  try {
    while (clients.length < pool.totalCount) clients.push(await pool.connect());
    const names = new Set<string>();
    for (const client of clients)
      for (const { name } of (await client.query<{ name: string }>('select name from pg_prepared_statements')).rows) names.add(name);
    return names;
  } finally {
    for (const client of clients) client.release();
  }
}

async function chargeReadAndNotify(stack: TestStack): Promise<void> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'prepared',
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret: 'whsec-prepared',
  });
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      idempotencyKey: 'prepared-1',
      transaction: { amount: 1234, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );
  const read = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
  expect(read.transaction).toMatchObject({ id: transaction.id, amount: 1234 });
  const posted = await postSignedSandboxEvent(providerAccount.notificationUrl, 'whsec-prepared', {
    id: 'evt-prepared-1',
    type: 'charge.paid',
    data: { id: transaction.transactionId, status: 'paid', amount: 1234 },
  });
  expect(posted.status).toBe(200);
  // Processed: leased, its dedup key claimed, the charge moved.
  await eventually(
    async () =>
      (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }))).transaction.status ===
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
    10_000,
  );
}

const HOT = [
  'claim_idempotency_key',
  'insert_charge',
  'append_audit_events',
  'transaction_with_refunds_by_id',
  'insert_notifications',
  'lease_due_notifications',
  'claim_dedup_keys',
  'record_notification_outcome',
];
/** The status move is named by its text (statusRepository.ts). */
const isMove = (name: string) => name.startsWith('move_transactions_');

describe('the gateway', () => {
  it('prepares the hot statements once per connection', async () => {
    const stack = await startTestStack();
    try {
      await chargeReadAndNotify(stack);
      const names = await preparedNames(stack.gateway.db!);
      for (const name of HOT) expect(names).toContain(name);
      expect([...names].some(isMove)).toBe(true);
    } finally {
      await stack.close();
    }
  });

  it('with DB_PREPARED_STATEMENTS=false, sends them unnamed and prepares none', async () => {
    const stack = await startTestStack({ env: { DB_PREPARED_STATEMENTS: 'false' } });
    try {
      await chargeReadAndNotify(stack);
      const names = await preparedNames(stack.gateway.db!);
      for (const name of HOT) expect(names).not.toContain(name);
      expect([...names].some(isMove)).toBe(false);
    } finally {
      await stack.close();
    }
  });
});

describe('a prepared statement', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'prepared-'));
    db = await openDatabase({ databaseUrl: database.url, dataDir, migrate: false });
    const setup = db.em().getConnection('write');
    await setup.execute('create table probe (id int primary key, label text not null)');
    await setup.execute("insert into probe values (1, 'one')");
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
    removeDir(dataDir);
  });

  it('is prepared again when another process changed its table under it (a migration added a column)', async () => {
    const byId = prepared('probe_by_id', 'select t.* from probe t where t.id = ?');
    expect(await runPrepared(db.em(), 'write', byId, [1])).toEqual([{ id: 1, label: 'one' }]);
    // As a migration run by another process would, on a connection of its own.
    const other = await openDatabase({ databaseUrl: database.url, dataDir, migrate: false });
    try {
      await other.em().getConnection('write').execute('alter table probe add column extra int not null default 7');
    } finally {
      await other.close();
    }
    // Without preparing it again, PostgreSQL refuses the old plan: "cached plan must not change result type".
    expect(await runPrepared(db.em(), 'write', byId, [1])).toEqual([{ id: 1, label: 'one', extra: 7 }]);
  });

  it('answers a failing statement with the driver error, as execute does, and the connection serves the next one', async () => {
    const insert = prepared('probe_insert', 'insert into probe (id, label) values (?, ?)');
    const refused: Error = await runPrepared(db.em(), 'write', insert, [1, 'again']).then(
      () => new Error('the second insert of id 1 was taken'),
      (error: unknown) => error as Error,
    );
    expect(refused).toMatchObject({ code: '23505' });
    // Its stack leads back to who sent it, not only to the socket's read the answer came in on.
    expect(refused.stack).toContain('runOn');
    await runPrepared(db.em(), 'write', insert, [2, 'two']);
    expect(await runPrepared(db.em(), 'write', prepared('probe_count', 'select count(*)::int as n from probe'), [])).toEqual([{ n: 2 }]);
  });

  it('in a transaction, commits its statements together, or none of them when the work throws', async () => {
    const insert = prepared('probe_insert_tx', 'insert into probe (id, label) values (?, ?)');
    const count = prepared('probe_count_tx', 'select count(*)::int as n from probe where id >= 10');
    await inPreparedTransaction(db.em(), async (tx) => {
      await tx.run(insert, [10, 'ten']);
      await tx.run(insert, [11, 'eleven']);
    });
    await expect(
      inPreparedTransaction(db.em(), async (tx) => {
        await tx.run(insert, [12, 'twelve']);
        throw new Error('after the first write');
      }),
    ).rejects.toThrow('after the first write');
    // A statement refused mid-transaction rolls back what came before it too.
    await expect(
      inPreparedTransaction(db.em(), async (tx) => {
        await tx.run(insert, [13, 'thirteen']);
        await tx.run(insert, [10, 'ten again']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await runPrepared(db.em(), 'write', count, [])).toEqual([{ n: 2 }]);
  });

  it('in a transaction, is prepared again on a fresh connection when its table changed under it, the work run once more', async () => {
    const byId = prepared('probe_by_id_tx', 'select t.* from probe t where t.id = ?');
    const insert = prepared('probe_insert_tx2', 'insert into probe (id, label) values (?, ?)');
    await inPreparedTransaction(db.em(), (tx) => tx.run(byId, [1]));
    const other = await openDatabase({ databaseUrl: database.url, dataDir, migrate: false });
    try {
      await other.em().getConnection('write').execute('alter table probe add column later int not null default 8');
    } finally {
      await other.close();
    }
    let runs = 0;
    const [row] = await inPreparedTransaction(db.em(), async (tx) => {
      runs += 1;
      await tx.run(insert, [20 + runs, 'written before the stale read']);
      return tx.run<Record<string, unknown>>(byId, [1]);
    });
    expect(row).toMatchObject({ id: 1, label: 'one', later: 8 });
    // The first run's insert was rolled back with it: only the second run's is there.
    expect(runs).toBe(2);
    expect(await runPrepared(db.em(), 'write', prepared('probe_21_22', 'select id from probe where id in (21, 22) order by id'), [])).toEqual([{ id: 22 }]);
  });
});
