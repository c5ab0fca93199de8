/**
 * Preloaded into the gateway process under measurement (`node --import`), so
 * that server/ needs no hook: it counts the SQL statements the gateway sends
 * (every `query` of node-postgres' Client, the driver under MikroORM for
 * PostgreSQL and for the embedded PGlite, which is served over the same wire
 * protocol) by their text, and answers the bench's `probe` message over the
 * IPC channel with those counts, the process's CPU time and its memory. It counts only with BENCH_COUNT_STATEMENTS=1
 * (the bench's SQL count): shaping each statement's text costs about 2 % of the gateway's CPU under load.
 *
 * It also starts and stops V8's CPU profiler on the bench's word (`{ cpuProfile: 'start' }`, then
 * `{ cpuProfile: 'stop', path }`, each answered once done), so that a profile covers a measured window and not the
 * process's start. Only the main thread's: a worker thread (the SANDBOX PSP's) runs this preload too, with no channel.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import pg from 'pg';
import { statementShape } from './statementShape.js';

export interface ProbeReading {
  /** process.cpuUsage(): microseconds of user and system time since the process began. */
  cpu: { user: number; system: number };
  memory: NodeJS.MemoryUsage;
  /** Statements sent so far, by their text (whitespace collapsed). */
  statements: Record<string, number>;
}

const statements = new Map<string, number>();

function count(Client: typeof pg.Client): void {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    if (text) {
      const key = statementShape(text);
      statements.set(key, (statements.get(key) ?? 0) + 1);
    }
    return query.apply(this, args);
  } as typeof Client.prototype.query;
}

// MikroORM may bring a node-postgres of its own (a nested node_modules): the one it resolves is the one to count.
// Only when the bench asks (its SQL count): the throughput runs would otherwise measure the counting too.
if (process.env.BENCH_COUNT_STATEMENTS === '1') {
  const ormPg = createRequire(import.meta.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
  for (const Client of new Set([pg.Client, ormPg.Client])) count(Client);
}

/** The bench's word to the profiler, and the probe's answer once it is done. */
export type CpuProfileMessage = { cpuProfile: 'start' } | { cpuProfile: 'stop'; path: string };
export type CpuProfileAnswer = { cpuProfile: 'started' } | { cpuProfile: 'written'; path: string } | { cpuProfile: 'failed'; error: string };

const isCpuProfileMessage = (message: unknown): message is CpuProfileMessage => typeof message === 'object' && message !== null && 'cpuProfile' in message;

let profiler: Session | undefined;

async function profile(message: CpuProfileMessage): Promise<CpuProfileAnswer> {
  if (message.cpuProfile === 'start') {
    if (profiler) throw new Error('a CPU profile is already running');
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    return { cpuProfile: 'started' };
  }
  if (!profiler) throw new Error('no CPU profile was started');
  const { profile: written } = await profiler.post('Profiler.stop');
  profiler.disconnect();
  profiler = undefined;
  writeFileSync(message.path, JSON.stringify(written));
  return { cpuProfile: 'written', path: message.path };
}

process.on('message', (message) => {
  if (isCpuProfileMessage(message)) {
    if (!isMainThread) return;
    void profile(message).then(
      (answer) => process.send?.(answer),
      (error: unknown) => process.send?.({ cpuProfile: 'failed', error: String(error) } satisfies CpuProfileAnswer),
    );
    return;
  }
  if (message !== 'probe') return;
  const reading: ProbeReading = { cpu: process.cpuUsage(), memory: process.memoryUsage(), statements: Object.fromEntries(statements) };
  process.send?.(reading);
});
// The channel must not keep the gateway alive once it has shut down.
process.channel?.unref();
