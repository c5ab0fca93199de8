/**
 * The embedded PostgreSQL's own process, started by embedded.ts: PGlite (PostgreSQL compiled to WebAssembly) and its
 * socket server, so that the WASM engine works on this process's thread instead of the gateway's event loop.
 * Arguments: the data folder, the port (0: any), and the prepared data-folder template (may be absent).
 * It tells its parent where it listens over the IPC channel, stops when asked, and never outlives its parent.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** What this process tells its parent: once, after the start. */
export type EmbeddedServerReport = { type: 'listening'; url: string } | { type: 'failed'; message: string };
/** What the parent asks of it. */
export type EmbeddedServerRequest = { type: 'stop' };

/**
 * An empty or missing data folder starts as a copy of the template: a data folder initdb made at build time,
 * closed cleanly. Copying it takes a fraction of a second where initdb in WebAssembly takes 10-20 s. The copy is
 * made aside and renamed into place, so that a copy cut short is never taken for a database.
 */
function prepareDataDir(dataDir: string, template: string | undefined): void {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return;
  if (!template || !existsSync(template)) {
    // No template (sources run before any build): PGlite runs initdb itself.
    mkdirSync(dataDir, { recursive: true });
    return;
  }
  const aside = `${dataDir}.from-template`;
  rmSync(aside, { recursive: true, force: true });
  mkdirSync(dirname(dataDir), { recursive: true });
  cpSync(template, aside, { recursive: true });
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(aside, dataDir);
}

/**
 * The embedded PostgreSQL's memory settings (measured in bench/sandboxCharges.ts and bench/embeddedMemory.ts;
 * docs/decisions.md). 8 MB of shared buffers (1,024 pages) hold a laptop's working set; the files stay in the OS's cache.
 * A new WAL segment is not filled with zeroes first (`wal_init_zero`): while PostgreSQL zeroed each new 16 MB segment,
 * this process grew by about 16 MB for a few seconds (observed, not traced to its allocation), which set its peak.
 * PostgreSQL then writes only the segment's last byte, which gives the file its size; WAL records are written and
 * flushed at their commits as before.
 */
export const EMBEDDED_SETTINGS = ['shared_buffers=8MB', 'wal_buffers=1MB', 'temp_buffers=2MB', 'wal_init_zero=off'];

/** How long a start waits for another process to let go of the data folder (one closing it after its gateway ended). */
const LOCK_WAIT_MS = 30_000;

const lockFileOf = (dataDir: string) => `${dataDir}.lock`;

/** Whether `pid` is a live embedded database process (not a process that reused the number of one that ended). */
function holdsFolder(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('embeddedServer');
  } catch {
    // No /proc: a live process of that number is taken for the holder.
    return true;
  }
}

/**
 * Takes the data folder for this process. PGlite does not lock its folder, and two engines on one folder ruin it:
 * a gateway killed outright leaves its database process closing the folder on its own, in its own time, while a
 * restart may already open it again. A start therefore waits until the previous holder has gone (a lock file beside
 * the folder names it), and refuses to start past LOCK_WAIT_MS rather than share the folder.
 */
async function lockDataDir(dataDir: string): Promise<void> {
  const lockFile = lockFileOf(dataDir);
  mkdirSync(dirname(dataDir), { recursive: true });
  for (const deadline = Date.now() + LOCK_WAIT_MS; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    try {
      // Created only if absent: of two starts at once, one gets the folder.
      writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number;
    try {
      holder = Number(readFileSync(lockFile, 'utf8').trim());
    } catch {
      continue; // Let go of meanwhile: try again.
    }
    // No number yet: another start has just created it and is writing its own; a second on, it never will.
    if (!holder && Date.now() - (statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 1_000) continue;
    // A lock whose process has ended (or a number since reused by another program): taken over.
    if (!holder || !holdsFolder(holder)) rmSync(lockFile, { force: true });
    else if (Date.now() > deadline)
      throw new Error(`the embedded database's folder ${dataDir} is still in use by process ${holder}; stop it, or remove ${lockFile} if it is gone`);
  }
}

function unlockDataDir(dataDir: string): void {
  const lockFile = lockFileOf(dataDir);
  try {
    if (Number(readFileSync(lockFile, 'utf8').trim()) === process.pid) rmSync(lockFile);
  } catch {
    // Already gone.
  }
}

async function start(dataDir: string, port: number, template: string | undefined) {
  await lockDataDir(dataDir);
  prepareDataDir(dataDir, template);
  // pg_trgm for the charges' search by part (transactionSearch.ts): PGlite ships it, loaded only when named here.
  const db = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    // Sized for a newcomer's laptop rather than a server (PostgreSQL's 128 MB of shared buffers, all of it in this
    // process's WebAssembly memory, which never shrinks): the embedded database serves one gateway, one connection.
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
  // One connection at a time, as before: the gateway's pool for the embedded database holds one.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 1 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, server };
}

function report(message: EmbeddedServerReport): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

if (!process.send) {
  console.error('server/db/embeddedServer is started by the gateway (server/db/embedded.ts), with an IPC channel');
  process.exit(2);
}
const [dataDir, port, template] = process.argv.slice(2);
const started = start(dataDir!, Number(port ?? 0), template || undefined);
let stopping: Promise<void> | undefined;
/** Closes the socket server, then PGlite (which checkpoints its files), once; a start under way finishes first. */
function stop(): Promise<void> {
  stopping ??= started.then(
    async ({ db, server }) => {
      await server.stop();
      await db.close();
      unlockDataDir(dataDir!);
    },
    () => {},
  );
  return stopping;
}

process.on('message', (message: EmbeddedServerRequest) => {
  if (message.type === 'stop') {
    void stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('embedded PostgreSQL: stopping failed', error);
        process.exit(1);
      },
    );
  }
});
// The channel closes when the gateway exits, however it ends (SIGKILL included): close PGlite cleanly and go.
process.on('disconnect', () => void stop().finally(() => process.exit(0)));
// A terminal's Ctrl+C (or a supervisor's signal to the whole group) reaches this process too; the gateway stops it
// after its own shutdown, which still needs the database.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});

started.then(
  ({ server }) => report({ type: 'listening', url: `postgresql://postgres:postgres@${server.getServerConn()}/postgres` }),
  async (error: unknown) => {
    await report({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);
