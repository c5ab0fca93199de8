/**
 * The processes a benchmark runs: the gateway (as `npm start` runs
 * server/main.ts, without rebuilding the back-office), the zero-latency fake
 * provider, and what is read of them from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { childPids, threadIds } from '../../tests/support/process.js';
import { buildServer, npmStartArgs, prepareTemplate, serverStaleBecause, templateStaleBecause } from '../../scripts/serverBuild.js';
import type { CpuProfileAnswer, CpuProfileMessage, ProbeReading } from './probe.js';

/** The project's root: the gateway runs from it, as `npm start` does. */
const ROOT = new URL('../..', import.meta.url).pathname;
/** The compiled probe, beside the compiled gateway (dist/ is built output, never committed). */
const PROBE = join(ROOT, 'dist/bench/probe.mjs');

/**
 * What `npm start` runs is the compiled gateway (dist/, built by its prestart when a source changed): builds it
 * when stale, as the prestart would, and compiles the probe beside it, so that the process under measurement
 * loads no TypeScript compiler. The probe's imports of packages stay imports, resolved from the project's
 * node_modules like the gateway's own, so it patches the very node-postgres the gateway uses.
 */
export async function buildGateway(log: (line: string) => void): Promise<void> {
  const reason = serverStaleBecause(ROOT);
  if (reason) {
    const started = performance.now();
    await buildServer(ROOT);
    log(`server compiled to dist/ in ${(performance.now() - started).toFixed(0)} ms (${reason})`);
  }
  // The embedded database's first start copies this template, as after npm start's prestart.
  const templateReason = templateStaleBecause(ROOT);
  if (templateReason) {
    const started = performance.now();
    await prepareTemplate(ROOT);
    log(`embedded database template prepared in ${(performance.now() - started).toFixed(0)} ms (${templateReason})`);
  }
  await compilePreload('bench/gateway/probe.ts', PROBE);
}

/** A preload of bench/gateway compiled to `outfile`, its packages left as imports resolved from the project's node_modules. */
export async function compilePreload(entry: string, outfile: string): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
}

/** `npm start`'s command less npm and node (its flags, the entry point, `all`), read from package.json: what is measured is what it runs. */
export const START = npmStartArgs(ROOT);

export const BENCH_TOKEN = 'bench-token-0123456789abcdef';
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Distinct free loopback ports, each bound at once and released (the gateway is told them up front). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** The process's CPU time (user + system) in milliseconds, from /proc/<pid>/stat. */
export function procCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** The CPU time in milliseconds of each PostgreSQL server process on the machine, by pid. */
function postgresCpuByPid(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(Number(entry), procCpuMs(Number(entry)));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return byPid;
}

/**
 * PostgreSQL's CPU from now on (its backends, WAL writer, checkpointer and the rest: the benches' databases are the
 * machine's cluster): the function returned gives the milliseconds spent since this call. Counted by process (each
 * one's time now less its time then, all the time of one started since), so a connection closed in between (a pool's
 * idle timeout) takes only its share of the window with it, not the time it had spent before the window began.
 */
export function postgresCpuSince(): () => number {
  const before = postgresCpuByPid();
  return () => {
    let total = 0;
    for (const [pid, ms] of postgresCpuByPid()) total += ms - (before.get(pid) ?? 0);
    return total;
  };
}

/** The CPU time in milliseconds of `pid`'s threads named `name` (a worker thread's name), from /proc/<pid>/task/<tid>/stat. */
export function threadCpuMs(pid: number, name: string): number {
  return threadIds(pid, name).reduce((total, tid) => total + statCpuMs(`/proc/${pid}/task/${tid}/stat`), 0);
}

/** User + system CPU time in milliseconds of a process's or a thread's stat file. */
function statCpuMs(file: string): number {
  const { user, system } = statCpuSplitMs(file);
  return user + system;
}

/** User and system CPU time in milliseconds of a process's or a thread's stat file, apart. */
function statCpuSplitMs(file: string): { user: number; system: number } {
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name (which may hold spaces) start at state: utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: (Number(fields[11]) * 1000) / TICKS_PER_SECOND, system: (Number(fields[12]) * 1000) / TICKS_PER_SECOND };
}

/** A process's user and system CPU time in milliseconds, apart (its own JavaScript and the kernel's work for it). */
export const procCpuSplitMs = (pid: number): { user: number; system: number } => statCpuSplitMs(`/proc/${pid}/stat`);

/** Resident memory in MB now and at its peak (VmRSS, VmHWM), from /proc/<pid>/status. */
export function procRssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** One grpc.health.v1.Health/Check for the whole server: true when it answers SERVING. */
export function healthCheck(address: string, client: grpc.Client, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      () => Buffer.alloc(0), // HealthCheckRequest{service: ''}: every field at its default
      (bytes: Buffer) => bytes,
      {},
      new grpc.Metadata(),
      { deadline: Date.now() + timeoutMs },
      // HealthCheckResponse{status: SERVING}: field 1, varint 1.
      (error, response?: Buffer) => resolve(!error && response?.[0] === 0x08 && response[1] === 1),
    );
  });
}

export interface GatewayOptions {
  /** DATABASE_URL; none for the embedded PGlite in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** More settings, as environment variables. */
  env?: Record<string, string>;
  /** Node options for the gateway process (startGatewayProcess only), e.g. --cpu-prof. */
  nodeOptions?: string[];
  /**
   * The probe counts the SQL statements by their shape (startGatewayProcess only). Off by default: shaping every
   * statement's text costs the gateway about 2 % of its CPU, which the throughput runs would report as its own.
   */
  countStatements?: boolean;
}

/** Every setting the benchmarks give the gateway; the rest are the defaults `npm start` has. */
async function gatewayEnv(options: GatewayOptions): Promise<{ env: NodeJS.ProcessEnv; ports: Record<string, number> }> {
  const [grpcPort, http, webhook, sandbox, metrics, s3] = await freePorts(6);
  const ports = { grpc: grpcPort!, http: http!, webhook: webhook!, sandbox: sandbox!, metrics: metrics!, s3: s3! };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    GRPC_PORT: String(ports.grpc),
    HTTP_PORT: String(ports.http),
    WEBHOOK_PORT: String(ports.webhook),
    SANDBOX_PORT: String(ports.sandbox),
    METRICS_PORT: String(ports.metrics),
    S3_PORT: String(ports.s3),
    DATA_DIR: options.dataDir,
    API_TOKENS: BENCH_TOKEN,
    LOG_LEVEL: 'warn',
    // The fake provider listens on loopback.
    ALLOW_PRIVATE_PROVIDER_URLS: 'true',
    // One caller and one account carry all the load here: their rate limits would measure themselves.
    RATE_LIMIT_PER_SECOND: '0',
    WEBHOOK_RATE_PER_SECOND: '0',
    ...options.env,
  };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  return { env, ports };
}

/** Resolves once the gRPC health check answers SERVING; the time it took from `since`. */
async function untilServing(address: string, child: ChildProcess, output: () => string, since: number, timeoutMs = 120_000): Promise<number> {
  // grpc-js waits 1 s, then 1.6 s, … before it tries a refused address again, and a new client shares the old one's
  // connection (and its wait) through the global pool: with its defaults the poll would time the back-off, not the
  // start (on an idle machine, restarts on PostgreSQL read 1.01 s or 2.5–2.9 s, steps of the back-off; with these
  // settings, 0.96–1.18 s).
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), {
    'grpc.initial_reconnect_backoff_ms': 5,
    'grpc.max_reconnect_backoff_ms': 5,
    'grpc.use_local_subchannel_pool': 1,
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    for (;;) {
      if (await healthCheck(address, client, 200)) return performance.now() - since;
      if (exited) throw new Error(`the gateway exited before it was healthy:\n${output()}`);
      if (performance.now() - since > timeoutMs) throw new Error(`the gateway was not healthy within ${timeoutMs} ms:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    client.close();
  }
}

function collectOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Start-to-healthy: spawns what `npm start` runs after its prestart builds
 * (`node` with START's arguments), times it until the gRPC
 * health check answers SERVING, and stops it.
 */
export async function timeStartToHealthy(options: GatewayOptions): Promise<number> {
  const { env } = await gatewayEnv(options);
  const since = performance.now();
  const child = spawn(process.execPath, START, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  try {
    return await untilServing(`127.0.0.1:${env.GRPC_PORT}`, child, output, since);
  } finally {
    await stop(child);
  }
}

/**
 * `npm start` to healthy, as a newcomer runs it: npm, the prestart's stale-build check, then the gateway, until the gRPC
 * health check answers SERVING; then the whole process group is stopped. The caller makes sure the build is current
 * first, so that what is timed is the check that finds nothing to do (issue 31 §5), not a build.
 */
export async function timeNpmStartToHealthy(options: GatewayOptions): Promise<number> {
  const { env } = await gatewayEnv(options);
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'start']] : ['npm', ['start']];
  const since = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output = collectOutput(child);
  try {
    return await untilServing(`127.0.0.1:${env.GRPC_PORT}`, child, output, since);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null && child.signalCode === null) {
      // npm, its shell and the gateway are one process group: the gateway shuts down on SIGTERM as under `npm start`.
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
      await exited;
      // npm may end before the gateway has closed its database: the next start must find the data folder free.
      while (groupAlive(child.pid!)) await new Promise((resolve) => setTimeout(resolve, 20));
      clearTimeout(timer);
    }
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

export interface GatewayUnderTest {
  pid: number;
  grpcAddress: string;
  webhookUrl: string;
  metricsUrl: string;
  /** CPU time, memory and SQL statements so far, as the process reports them. */
  probe(): Promise<ProbeReading>;
  /** V8's CPU profiler in the gateway's main thread, started and stopped on the bench's word. */
  cpuProfile: CpuProfiler;
  /** CPU milliseconds of the gateway's child processes (the embedded database's), which its own reading leaves out. */
  childrenCpuMs(): number;
  /** The gateway's resident memory with its children's (the embedded database's process). */
  rss(): { rss: number; peak: number };
  output(): string;
  stop(): Promise<void>;
}

/**
 * The gateway in a process of its own (its CPU and memory are its own), as
 * `npm start` runs it, with the probe preloaded (buildGateway first); resolves
 * once it is healthy.
 */
export async function startGatewayProcess(options: GatewayOptions): Promise<GatewayUnderTest> {
  const { env, ports } = await gatewayEnv(options);
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), '--import', pathToFileURL(PROBE).href, ...START], {
    cwd: ROOT,
    env: { ...env, ...(options.countStatements ? { BENCH_COUNT_STATEMENTS: '1' } : {}) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output = collectOutput(child);
  try {
    await untilServing(`127.0.0.1:${ports.grpc}`, child, output, performance.now());
  } catch (error) {
    await stop(child);
    throw error;
  }
  const pid = child.pid!;
  return {
    pid,
    grpcAddress: `127.0.0.1:${ports.grpc}`,
    webhookUrl: `http://127.0.0.1:${ports.webhook}`,
    metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics`,
    probe: () => ask(child, 'probe', (answer): answer is ProbeReading => typeof answer === 'object' && answer !== null && 'cpu' in answer),
    cpuProfile: cpuProfiler(child),
    childrenCpuMs: () => childPids(pid).reduce((sum, child) => sum + procCpuMs(child), 0),
    rss: () => [pid, ...childPids(pid)].map(procRssMb).reduce((sum, each) => ({ rss: sum.rss + each.rss, peak: sum.peak + each.peak }), { rss: 0, peak: 0 }),
    output,
    stop: () => stop(child),
  };
}

export interface FakeProviderProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
  /** Answers only in a process started with the probe among its preloads (probePreload()). */
  cpuProfile: CpuProfiler;
}

/** Starts and stops V8's CPU profiler in a process preloaded with the probe (probe.ts), whose channel is open. */
export interface CpuProfiler {
  start(): Promise<void>;
  /** Stops it and writes the profile (a `.cpuprofile`, as `--cpu-prof` writes) to `path`. */
  stop(path: string): Promise<void>;
}

/** Sends `message` over the child's channel and resolves with its first answer that `accepts` takes. */
function ask<T>(child: ChildProcess, message: 'probe' | CpuProfileMessage, accepts: (answer: unknown) => answer is T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`the process did not answer ${JSON.stringify(message)}`));
    }, 30_000);
    function onMessage(answer: unknown) {
      if (!accepts(answer)) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(answer);
    }
    child.on('message', onMessage);
    child.send(message);
  });
}

function cpuProfiler(child: ChildProcess): CpuProfiler {
  const isAnswer = (answer: unknown): answer is CpuProfileAnswer => typeof answer === 'object' && answer !== null && 'cpuProfile' in answer;
  const send = async (message: CpuProfileMessage) => {
    const answer = await ask(child, message, isAnswer);
    if (answer.cpuProfile === 'failed') throw new Error(`the CPU profiler failed: ${answer.error}`);
  };
  return { start: () => send({ cpuProfile: 'start' }), stop: (path) => send({ cpuProfile: 'stop', path }) };
}

/** A script of bench/gateway in a process of its own (run by tsx, after `preloads`), once it prints `listening <address>`. */
export async function startListening(name: string, env: NodeJS.ProcessEnv = process.env, preloads: string[] = []): Promise<FakeProviderProcess> {
  const script = new URL(`./${name}`, import.meta.url).pathname;
  const imports = [...preloads.flatMap((file) => ['--import', pathToFileURL(file).href]), '--import', 'tsx'];
  const child = spawn(process.execPath, [...imports, script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  child.channel?.unref();
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
  return { url, pid: child.pid!, stop: () => stop(child), cpuProfile: cpuProfiler(child) };
}

/** The probe's compiled file (buildGateway writes it), for a process other than the gateway to preload. */
export const probePreload = (): string => PROBE;

/** The zero-latency fake provider (fakeProvider.ts) in a process of its own. */
export const startFakeProvider = (): Promise<FakeProviderProcess> => startListening('fakeProvider.ts');
