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
