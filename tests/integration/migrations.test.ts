import { afterAll, expect, it } from '@jest/globals';
import { openDatabase } from '../../server/db/orm.js';
import { MIGRATIONS } from '../../server/db/migrations/index.js';
import { createTestDatabase } from '../support/postgres.js';

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
