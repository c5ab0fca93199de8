import { createHash } from 'node:crypto';
import { afterAll, expect, it } from '@jest/globals';
import { openDatabase } from '../../server/db/orm.js';
import { MIGRATIONS } from '../../server/db/migrations/index.js';
import { containsPattern, CREATE_SEARCH_INDEX, SEARCH_INDEX, SEARCH_TEXT } from '../../server/db/transactionSearch.js';
import { createTestDatabase, onDatabase } from '../support/postgres.js';

let drop: (() => Promise<void>) | undefined;
afterAll(async () => drop?.());

it('migrates an empty database from zero to exactly the schema the entities describe', async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  const db = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent', migrate: false });
  try {
    expect((await db.orm.migrator.getPending()).map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
    await db.orm.migrator.up();
    expect(await db.orm.migrator.getPending()).toEqual([]);
    const diff = await db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  } finally {
    await db.close();
  }
});

it('lets go of the dedup keys that notifications never proven (UNCONFIRMED, MISMATCH) hold, and keeps the others', async () => {
  const database = await createTestDatabase();
  const db = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent', migrate: false });
  try {
    await db.orm.migrator.up({ to: 'Migration20261127120000_notification_backlog' });
    const connection = db.orm.em.getConnection();
    const account = '00000000-0000-4000-8000-000000000001';
    for (const [n, outcome] of ['APPLIED', 'UNCONFIRMED', 'MISMATCH', 'DUPLICATE'].entries())
      await connection.execute(
        `insert into webhook_notifications (id, provider, provider_account_id, body, headers, received_at, outcome, dedup_key)
         values (?, 'PAGUESAFE', ?, ?, '{}', now(), ?, ?)`,
        [`00000000-0000-4000-8000-00000000001${n}`, account, Buffer.from('{}'), outcome, outcome === 'DUPLICATE' ? null : `transaction:ps_${n}:paid`],
      );
    await db.orm.migrator.up();
    const rows = await connection.execute<{ outcome: string; dedup_key: string | null }[]>('select outcome, dedup_key from webhook_notifications order by id');
    expect(rows.map((row) => [row.outcome, row.dedup_key])).toEqual([
      ['APPLIED', 'transaction:ps_0:paid'],
      ['UNCONFIRMED', null],
      ['MISMATCH', null],
      ['DUPLICATE', null],
    ]);
  } finally {
    await db.close();
    await database.drop();
  }
});

it("moves an operator's running sign-in failures and lock to the per-e-mail table, under the e-mail's SHA-256", async () => {
  const database = await createTestDatabase();
  const db = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent', migrate: false });
  try {
    await db.orm.migrator.up({ to: 'Migration20261128100000_unproven_dedup_keys' });
    const connection = db.orm.em.getConnection();
    for (const [n, email, failures] of [
      [1, 'locked@example.com', 5],
      [2, 'calm@example.com', 0],
    ] as const)
      await connection.execute(
        `insert into operators (id, email, password_hash, role, created_at, failed_sign_ins, locked_until)
         values (?, ?, 'scrypt$x', 'viewer', now(), ?, ${failures ? "now() + interval '10 minutes'" : 'null'})`,
        [`00000000-0000-4000-8000-00000000002${n}`, email, failures],
      );
    await db.orm.migrator.up();
    const rows = await connection.execute<{ email_hash: string; failed_sign_ins: number; locked: boolean }[]>(
      'select email_hash, failed_sign_ins, locked_until > now() as locked from sign_in_failures',
    );
    expect(rows).toEqual([{ email_hash: createHash('sha256').update('locked@example.com').digest('hex'), failed_sign_ins: 5, locked: true }]);
  } finally {
    await db.close();
    await database.drop();
  }
});

it("replaces the search's index with one without the gateway's id, keeping an index built beforehand under its name", async () => {
  const prebuilt = await createTestDatabase();
  const fromZero = await createTestDatabase();
  const db = await openDatabase({ databaseUrl: prebuilt.url, dataDir: '/nonexistent', migrate: false });
  const other = await openDatabase({ databaseUrl: fromZero.url, dataDir: '/nonexistent', migrate: false });
  const definitions = `select indexname, indexdef from pg_indexes where indexname like 'transactions_search%'`;
  try {
    await db.orm.migrator.up({ to: 'Migration20261204070000_notification_query' });
    const connection = db.orm.em.getConnection();
    // An operator's concurrent build ahead of the migration, with the gateway's own text: the migration keeps it.
    await connection.execute(CREATE_SEARCH_INDEX.replace('create index', 'create index concurrently'));
    await db.orm.migrator.up();
    const kept = await connection.execute<{ indexname: string; indexdef: string }[]>(definitions);
    expect(kept.map((index) => index.indexname)).toEqual([SEARCH_INDEX]);
    // The migration's own text, written out in it, builds the very index the gateway's query is written for.
    await other.orm.migrator.up();
    expect(await other.orm.em.getConnection().execute(definitions)).toEqual(kept);
    // And the search by part reads it (the table is empty: the planner is told to leave a full scan aside).
    const plan = await onDatabase(prebuilt.url, async (client) => {
      await client.query('set enable_seqscan = off');
      return (
        await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) select id from transactions where ${SEARCH_TEXT} like $1`, [containsPattern('mari')])
      ).rows;
    });
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain(SEARCH_INDEX);
  } finally {
    await db.close();
    await other.close();
    await prebuilt.drop();
    await fromZero.drop();
  }
});
