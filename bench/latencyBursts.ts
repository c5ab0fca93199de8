/**
 * The p99 bursts at 200/s (issue 31 §4): an open loop of PIX CreateTransaction at BURSTS_RATE (200) a second for
 * BURSTS_SECONDS (30) against the gateway and then against the bare baseline (bench/gateway/baselineServer.ts: the
 * two durable commits and the provider call, nothing else), each on a fresh database of the machine's PostgreSQL,
 * both with the zero-latency fake provider. Each call's due time and latency are kept; inside the server a preload
 * (bench/gateway/timelineProbe.ts) samples its event loop, CPU, GC pauses and pool queue, and outside it
 * (bench/gateway/hostTimeline.ts) the machine's CPU pressure and PostgreSQL's WAL and checkpoints are sampled. Printed
 * for each run: the load average before and after, p50/p99, the bursts of calls over 20 ms with their cadence and
 * what overlapped each, and for each signal the share of slow calls it overlapped against the share of all calls.
 * BURSTS_ROUNDS (1) alternates the servers that many times; BURSTS_GATEWAY_FLAGS (e.g. `--single-threaded-gc`) adds a
 * second gateway started with those Node flags, measured beside the first. Run with `npm run bench:bursts`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../tests/support/postgres.js';
import { analyse, type Call, type RunAnalysis } from './gateway/burstAnalysis.js';
import { classify, GatewayClient } from './gateway/clients.js';
import { startHostTimeline } from './gateway/hostTimeline.js';
import { openLoop } from './gateway/load.js';
import { buildGateway, compilePreload, startFakeProvider, startGatewayProcess, startListening } from './gateway/processes.js';
import type { ServerSample } from './gateway/timelineProbe.js';

const RATE = Number(process.env.BURSTS_RATE ?? 200);
const SECONDS = Number(process.env.BURSTS_SECONDS ?? 30);
const ROUNDS = Number(process.env.BURSTS_ROUNDS ?? 1);
const WARMUP_SECONDS = 3;
const TIMELINE_PROBE = new URL('../dist/bench/timelineProbe.mjs', import.meta.url).pathname;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const pct = (share: number) => (Number.isFinite(share) ? `${Math.round(share * 100)} %` : '–');

/** WAL timings for the run's backends only: a setting of the run's database, gone when it is dropped. */
async function timeWalIo(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`alter database "${new URL(databaseUrl).pathname.slice(1)}" set track_wal_io_timing = on`);
  await client.end();
}

function readTimeline(file: string, from: number, to: number): ServerSample[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ServerSample)
    .filter((sample) => sample.t >= from && sample.t - 100 <= to);
}

interface Target {
  name: string;
  client: GatewayClient;
  databaseUrl: string;
  timelineFile: string;
  idleFile: string;
}

async function measure(target: Target): Promise<RunAnalysis & { loadBefore: string; loadAfter: string; errors: Record<string, number>; started: number }> {
  const run = randomUUID().slice(0, 8);
  const charge = (i: number) => target.client.createTransaction(`bursts-${run}-${i}`, 'PIX');
  await openLoop(RATE, WARMUP_SECONDS, (i) => charge(-1 - i), classify);
  const loadBefore = load();
  const host = await startHostTimeline(target.databaseUrl);
  const calls: Call[] = [];
  const started = performance.timeOrigin + performance.now();
  const result = await openLoop(RATE, SECONDS, charge, classify, 1, (due, ms) => calls.push({ sent: performance.timeOrigin + due, ms }));
  const ended = performance.timeOrigin + performance.now();
  const hostSamples = await host.stop();
  // The preload appends its samples once a second.
  await new Promise((resolve) => setTimeout(resolve, 1_300));
  const analysis = analyse(calls, {
    server: readTimeline(target.timelineFile, started, ended),
    host: hostSamples,
    idle: readTimeline(target.idleFile, started, ended),
  });
  return { ...analysis, loadBefore, loadAfter: load(), errors: result.errors, started };
}

function print(name: string, run: Awaited<ReturnType<typeof measure>>): void {
  console.log(`\n### ${name}: ${run.calls} calls at ${RATE}/s for ${SECONDS} s; load average ${run.loadBefore} before, ${run.loadAfter} after`);
  const errors = Object.entries(run.errors);
  console.log(
    `p50 ${f(run.p50, 2)} ms, p99 ${f(run.p99)} ms, max ${f(run.max)} ms; ${run.slowCalls} calls over ${f(run.slowMs)} ms; ${run.bursts.length} bursts of calls over 20 ms` +
      (run.cadence ? `, one every ${f(run.cadence.min / 1000, 2)}–${f(run.cadence.max / 1000, 2)} s (median ${f(run.cadence.median / 1000, 2)} s)` : '') +
      (errors.length ? `; errors ${JSON.stringify(run.errors)}` : ''),
  );
  const kinds: Record<number, string> = { 1: 'minor', 4: 'major', 8: 'incremental', 16: 'weak callbacks' };
  console.log(
    `GC pauses in the server: ${run.gc.map((g) => `${kinds[g.kind] ?? g.kind} ${g.count} × (${f(g.totalMs, 0)} ms in all, longest ${f(g.maxMs)} ms)`).join(', ') || 'none'}`,
  );
  console.log(`\n| signal | share of slow calls it overlapped | share of all calls |\n|---|---|---|`);
  for (const c of run.correlations) console.log(`| ${c.signal} | ${pct(c.slow)} | ${pct(c.all)} |`);
  console.log(
    '\n| burst at s | lasted ms | calls > 20 ms | worst ms | longest GC ms | loop delay ms | pool waiting | checkpoint | WAL waiting | WAL sync ms | CPU stall | runnable | bench loop ms | idle loop ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const b of [...run.bursts].sort((x, y) => y.maxMs - x.maxMs).slice(0, 15)) {
    const o = b.overlap;
    console.log(
      `| ${f((b.start - run.started) / 1000, 2)} | ${f(b.end - b.start, 0)} | ${b.calls} | ${f(b.maxMs)} | ${f(o.gcMaxMs)} | ${f(o.loopMaxMs)} | ${o.poolWaiting} | ${o.checkpointing ? 'yes' : 'no'} | ${o.walWaiting} | ${f(o.walSyncMeanMs, 2)} | ${pct(o.cpuStallShare)} | ${o.running} | ${f(o.benchLoopMaxMs)} | ${f(o.idleLoopMaxMs)} |`,
    );
  }
}

console.log(`p99 bursts: ${RATE}/s for ${SECONDS} s, ${ROUNDS} round(s); load average ${load()}`);
await buildGateway((line) => console.log(line));
await compilePreload('bench/gateway/timelineProbe.ts', TIMELINE_PROBE);
const fake = await startFakeProvider();
const dataDir = mkdtempSync(join(tmpdir(), 'bursts-bench-'));
const idleFile = join(dataDir, 'idle.jsonl');
writeFileSync(idleFile, '');
// The machine's share: a process that only keeps a timer, sampled by the same preload. Its loop is late only when it waits for a core.
const idle = spawn(process.execPath, ['--import', TIMELINE_PROBE, '-e', 'setInterval(() => {}, 1000)'], {
  env: { ...process.env, BENCH_TIMELINE_FILE: idleFile },
  stdio: 'ignore',
});
const cleanups: (() => Promise<void>)[] = [];

/** A server on a fresh database of its own with the timeline preloaded, and a client of it. */
async function target(
  name: string,
  start: (databaseUrl: string, timelineFile: string) => Promise<{ address: string; stop(): Promise<void> }>,
): Promise<Target> {
  const database = await createTestDatabase(undefined, 'gw_bench');
  cleanups.unshift(() => database.drop());
  await timeWalIo(database.url);
  const timelineFile = join(dataDir, `${name.replace(/\W+/g, '-')}.jsonl`);
  writeFileSync(timelineFile, '');
  const server = await start(database.url, timelineFile);
  const client = new GatewayClient(server.address);
  cleanups.unshift(async () => {
    client.close();
    await server.stop();
  });
  return { name, client, databaseUrl: database.url, timelineFile, idleFile };
}

/** The gateway as `npm start` runs it, with `flags` for Node besides. */
const gatewayTarget = async (name: string, flags: string[]) => {
  const made = await target(name, async (databaseUrl, timelineFile) => {
    const gateway = await startGatewayProcess({
      databaseUrl,
      dataDir,
      env: { BENCH_TIMELINE_FILE: timelineFile },
      nodeOptions: [...flags, '--import', TIMELINE_PROBE],
    });
    return { address: gateway.grpcAddress, stop: () => gateway.stop() };
  });
  await made.client.createAccount(fake.url);
  return made;
};

try {
  const targets = [await gatewayTarget('gateway', [])];
  // BURSTS_GATEWAY_FLAGS: a second gateway with these Node flags (e.g. GC settings), measured beside the first.
  const flags = process.env.BURSTS_GATEWAY_FLAGS?.split(' ').filter(Boolean) ?? [];
  if (flags.length) targets.push(await gatewayTarget(`gateway with ${flags.join(' ')}`, flags));
  // The baseline serves the same service and ignores the account.
  targets.push(
    await target('bare baseline', async (databaseUrl, timelineFile) => {
      const baseline = await startListening(
        'baselineServer.ts',
        { ...process.env, DATABASE_URL: databaseUrl, PROVIDER_URL: fake.url, BENCH_TIMELINE_FILE: timelineFile },
        [TIMELINE_PROBE],
      );
      return { address: baseline.url, stop: () => baseline.stop() };
    }),
  );
  for (let round = 1; round <= ROUNDS; round += 1) for (const each of targets) print(`${each.name}, round ${round}`, await measure(each));
} finally {
  idle.kill();
  for (const cleanup of cleanups) await cleanup();
  await fake.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`\nload average at the end: ${load()}`);
