/**
 * Writes a migration for whatever the entities changed: it migrates a scratch
 * embedded database to the committed migrations, then diffs it with the entities.
 * Usage: npm run migration:create [-- name]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './orm.js';

const dataDir = mkdtempSync(join(tmpdir(), 'gateway-migration-'));
const db = await openDatabase({ dataDir });
try {
  const result = await db.orm.migrator.create('server/db/migrations', false, false, process.argv[2]);
  console.log(result.diff.up.length ? `wrote ${result.fileName}; add it to server/db/migrations/index.ts` : 'no schema changes');
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
