import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startEmbeddedPostgres, TEMPLATE_FOLDER } from '../../server/db/embedded.js';
import { MIGRATIONS } from '../../server/db/migrations/index.js';
import { openDatabase } from '../../server/db/orm.js';
import { SEARCH_INDEX } from '../../server/db/transactionSearch.js';
import { prepareTemplate, templateStaleBecause } from '../../scripts/serverBuild.js';
import { removeDir } from '../support/gateway.js';
import { pgControl } from '../support/pgControl.js';
import { childPids } from '../support/process.js';

const root = mkdtempSync(join(tmpdir(), 'embedded-postgres-'));
beforeAll(async () => {
  // `npm start` and `npm test` prepare it; a targeted run may come before either.
  if (templateStaleBecause(process.cwd())) await prepareTemplate(process.cwd());
}, 120_000);
afterAll(() => removeDir(root));

it('opens an empty data folder as a copy of the template, migrates it, and on close leaves it shut down cleanly', async () => {
  const dataDir = join(root, 'fresh');
  const db = await openDatabase({ dataDir });
  try {
    const [row] = await db.em().getConnection().execute<{ id: string }[]>('select system_identifier::text as id from pg_control_system()');
    expect(row!.id).toBe(pgControl(join(process.cwd(), 'dist', TEMPLATE_FOLDER)).systemIdentifier);
    expect(await db.orm.migrator.getPending()).toEqual([]);
    expect(await db.orm.migrator.getExecuted()).toHaveLength(MIGRATIONS.length);
    expect(await db.em().getConnection().execute('select count(*)::int as n from transactions')).toEqual([{ n: 0 }]);
    // The charges' search by part runs here too: PGlite loads pg_trgm, so the migration's trigram index exists.
    const [index] = await db.em().getConnection().execute<{ indexdef: string }[]>('select indexdef from pg_indexes where indexname = ?', [SEARCH_INDEX]);
    expect(index?.indexdef).toContain('gin_trgm_ops');
  } finally {
    await db.close();
  }
  expect(pgControl(join(dataDir, 'pgdata')).shutDownCleanly).toBe(true);
}, 120_000);

it("is sized for a laptop: 8 MB of shared buffers, WAL segments not zero-filled, its WebAssembly on V8's baseline compiler only, a small young generation, an allocator that gives memory back", async () => {
  const db = await openDatabase({ dataDir: join(root, 'sized') });
  try {
    const settings = await db
      .em()
      .getConnection()
      .execute<{ name: string; setting: string; unit: string }[]>(
        `select name, setting, unit from pg_settings where name in ('shared_buffers', 'wal_buffers', 'temp_buffers', 'wal_init_zero') order by name`,
      );
    // In 8 kB pages: 8 MB, 1 MB and 2 MB; a new WAL segment not zero-filled (16 MB of the process's memory each).
    expect(settings.map(({ name, setting }) => [name, setting])).toEqual([
      ['shared_buffers', '1024'],
      ['temp_buffers', '256'],
      ['wal_buffers', '128'],
      ['wal_init_zero', 'off'],
    ]);
  } finally {
    await db.close();
  }
  const database = await startEmbeddedPostgres(join(root, 'flags'));
  try {
    const processes = childPids(process.pid).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('embeddedServer'));
    expect(processes).toHaveLength(1);
    expect(readFileSync(`/proc/${processes[0]}/cmdline`, 'utf8').split('\0')).toEqual(
      expect.arrayContaining(['--liftoff-only', '--max-semi-space-size=1', '--single-threaded']),
    );
    expect(readFileSync(`/proc/${processes[0]}/environ`, 'utf8').split('\0')).toEqual(
      expect.arrayContaining(['MALLOC_MMAP_THRESHOLD_=131072', 'MALLOC_TRIM_THRESHOLD_=131072']),
    );
  } finally {
    await database.stop();
  }
}, 120_000);

it('fails to start, with the reason, on a port already taken or a data folder PGlite cannot open', async () => {
  const taken = await new Promise<Server>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
  });
  try {
    const port = (taken.address() as { port: number }).port;
    await expect(startEmbeddedPostgres(join(root, 'port-taken'), port)).rejects.toThrow(/did not start: .*EADDRINUSE/);
  } finally {
    taken.close();
  }

  const unreadable = join(root, 'other-version');
  mkdirSync(unreadable);
  writeFileSync(join(unreadable, 'PG_VERSION'), '9.6\n');
  await expect(startEmbeddedPostgres(unreadable)).rejects.toThrow(`the embedded PostgreSQL in ${unreadable} did not start`);
}, 120_000);
