/**
 * Everything measured on one database (the machine's PostgreSQL or the
 * embedded PGlite), in order: start-to-healthy, SQL statements per operation,
 * then on one gateway process: added latency (open loop), throughput (closed
 * loop), webhook intake and its backlog, and a soak; RSS throughout.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestDatabase } from '../../tests/support/postgres.js';
import { classify, directCharge, GatewayClient, metricBy, metricValue, type Charge, type Method } from './clients.js';
import { closedLoop, median, mergeErrors, openLoop, type LoadResult } from './load.js';
import { procCpuMs, startGatewayProcess, timeStartToHealthy, type FakeProviderProcess, type GatewayUnderTest } from './processes.js';
import type { ProbeReading } from './probe.js';
import type { Backend, Settings } from './settings.js';

/** The server the suite makes its own databases on. */
export const POSTGRES_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface StatementProfile {
  operations: number;
  perOperation: number;
  /** Statements per operation by their first word (select, insert, begin, …). */
  byKind: Record<string, number>;
  statements: { text: string; perOperation: number }[];
}

/** A figure measured once per repeat. */
export type Repeats = number[];

export interface RunFigures {
  rate: Repeats;
  p50: Repeats;
  p99: Repeats;
  /** Gateway CPU milliseconds per answered call. */
  cpuMsPerOp: Repeats;
  /** Cores the gateway kept busy (its CPU time over the run's wall time). */
  gatewayCores: Repeats;
  errors: Record<string, number>;
}

export interface BackendResult {
  backend: Backend;
  start: { cold: Repeats; warm: Repeats };
  sql: { createTransaction: StatementProfile; getTransaction: StatementProfile; webhook: StatementProfile };
  latency: {
    rate: number;
    direct: { p50: Repeats; p99: Repeats };
    /** `saturated`: runs whose schedule was abandoned, the gateway more than a second of calls behind. */
    grpc: Partial<Record<Method, { p50: Repeats; p99: Repeats; saturated: number }>>;
    errors: Record<string, number>;
  }[];
  create: (RunFigures & { method: Method; concurrency: number; pool: string })[];
  /**
   * Twice the capacity offered (open loop), each call with a deadline: goodput is the calls answered OK, per second.
   * Capacity is the best closed-loop rate above for the method.
   */
  overload?: { method: Method; capacity: number; offered: number; deadlineMs: number; goodput: Repeats; p99: Repeats; errors: Record<string, number> };
  get: (RunFigures & { concurrency: number })[];
  webhook: RunFigures & {
    concurrency: number;
    notifications: Repeats;
    /** From the last acknowledgement until every stored notification was processed. */
    drainMs: Repeats;
    /** From the first notification sent until every one was processed. */
    totalMs: Repeats;
    distinctCharges: number;
    outcomes: Record<string, number>;
    undrained: number;
  };
  rss: {
    idle: number;
    peakUnderLoad: number;
    /** VmHWM at the end: the peak since the process began, start-up included. */
    highWater: number;
    soak: {
      seconds: number;
      operations: Record<string, number>;
      errors: Record<string, number>;
      /** Mean RSS over the soak's second tenth and its last tenth. */
      rssEarly: number;
      rssLate: number;
      rssMax: number;
      heapEarly: number;
      heapLate: number;
      /** RSS 5 s after the soak's load stopped. */
      afterSoak: number;
    };
  };
  /** Context for the figures: what the load generator (this process) and the fake provider used, in cores. */
  loadGeneratorCores: number;
  fakeProviderCores: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a caller waits for a charge in the overload run before it gives up. */
export const OVERLOAD_DEADLINE_MS = 1000;
const cpuMs = (reading: ProbeReading) => (reading.cpu.user + reading.cpu.system) / 1000;

function statementDiff(after: ProbeReading, before: ProbeReading, subtract: Record<string, number> = {}, times = 0): Record<string, number> {
  const diff: Record<string, number> = {};
  for (const [text, count] of Object.entries(after.statements)) {
    const delta = count - (before.statements[text] ?? 0) - (subtract[text] ?? 0) * times;
    if (delta > 0) diff[text] = delta;
  }
  return diff;
}

function profile(diff: Record<string, number>, operations: number): StatementProfile {
  const byKind: Record<string, number> = {};
  let total = 0;
  for (const [text, count] of Object.entries(diff)) {
    const kind = text.split(/[\s(]/)[0]!.toLowerCase();
    byKind[kind] = (byKind[kind] ?? 0) + count / operations;
    total += count;
  }
  const statements = Object.entries(diff)
    .map(([text, count]) => ({ text, perOperation: count / operations }))
    .sort((a, b) => b.perOperation - a.perOperation);
  return { operations, perOperation: total / operations, byKind, statements };
}

async function scrape(gateway: GatewayUnderTest): Promise<string> {
  const response = await fetch(gateway.metricsUrl);
  return response.text();
}

const processedTotal = (text: string) => metricValue(text, 'gateway_webhook_notifications_processed_total');
const queued = (text: string) =>
  metricValue(text, 'gateway_webhook_queue_depth', { state: 'received' }) + metricValue(text, 'gateway_webhook_queue_depth', { state: 'processing' });

/** Waits until `expected` more notifications than `before` were processed and none waits; the number of scrapes it took, or undefined past the timeout. */
async function drain(
  gateway: GatewayUnderTest,
  before: number,
  expected: number,
  timeoutMs: number,
  everyMs = 100,
): Promise<{ scrapes: number; left: number }> {
  const deadline = performance.now() + timeoutMs;
  let scrapes = 0;
  for (;;) {
    const text = await scrape(gateway);
    scrapes += 1;
    const left = Math.max(0, before + expected - processedTotal(text));
    if ((left === 0 && queued(text) === 0) || performance.now() > deadline) return { scrapes, left: Math.max(left, queued(text)) };
    await sleep(everyMs);
  }
}

interface Database {
  url?: string;
  dataDir: string;
  drop(): Promise<void>;
}

async function freshDatabase(backend: Backend): Promise<Database> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (backend === 'embedded') return { dataDir, drop: async () => removeDir() };
  const database = await createTestDatabase(POSTGRES_URL, 'gw_bench');
  return {
    url: database.url,
    dataDir,
    async drop() {
      await database.drop();
      removeDir();
    },
  };
}

/** The figures of one database; none with --only overload or start, which print theirs and write nothing. */
export async function runBackend(
  backend: Backend,
  settings: Settings,
  fake: FakeProviderProcess,
  log: (line: string) => void,
): Promise<BackendResult | undefined> {
  const main = await freshDatabase(backend);
  try {
    // The gateway migrates the database when it starts: the other --only runs leave the start-up timings out.
    const start = settings.only && settings.only !== 'start' ? { cold: [], warm: [] } : await startToHealthy(backend, main, settings, log);
    if (settings.only === 'start') return undefined;
    const sql = settings.only === 'overload' ? undefined : await statementsPerOperation(main, settings, fake, log);
    const load = await underLoad(main, settings, fake, log);
    return sql && load && { backend, start, sql, ...load };
  } finally {
    await main.drop();
  }
}

async function startToHealthy(backend: Backend, main: Database, settings: Settings, log: (line: string) => void): Promise<BackendResult['start']> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < settings.startCold; i += 1) {
    // The first cold start migrates the database the rest of the suite uses.
    const database = i === 0 ? main : await freshDatabase(backend);
    try {
      cold.push(await timeStartToHealthy({ databaseUrl: database.url, dataDir: database.dataDir }));
    } finally {
      if (database !== main) await database.drop();
    }
  }
  for (let i = 0; i < settings.startWarm; i += 1) warm.push(await timeStartToHealthy({ databaseUrl: main.url, dataDir: main.dataDir }));
  log(`  start-to-healthy ms: first start ${cold.map((ms) => ms.toFixed(0)).join(', ')}; restart ${warm.map((ms) => ms.toFixed(0)).join(', ')}`);
  return { cold, warm };
}

/**
 * Statements per operation, counted by the probe in the gateway process, one
 * operation at a time on a gateway whose idle loops sleep for minutes (so only
 * the operations speak); the statements of the metrics scrapes that watch the
 * webhook backlog are taken off.
 */
async function statementsPerOperation(
  main: Database,
  settings: Settings,
  fake: FakeProviderProcess,
  log: (line: string) => void,
): Promise<BackendResult['sql']> {
  const gateway = await startGatewayProcess({ databaseUrl: main.url, dataDir: main.dataDir, env: { WORKER_IDLE_MS: '600000' }, countStatements: true });
  const client = new GatewayClient(gateway.grpcAddress);
  try {
    await client.createAccount(fake.url);
    const n = settings.sqlOperations;
    const run = randomUUID().slice(0, 8);
    // Warm: the account's first use, prepared caches, the first notification.
    const warm: Charge[] = [];
    for (let i = 0; i < 10; i += 1) warm.push(await client.createTransaction(`sql-warm-${run}-${i}`, 'PIX'));
    for (const charge of warm) await client.getTransaction(charge.id);
    const baseline = processedTotal(await scrape(gateway));
    for (const [i, charge] of warm.entries()) await client.postback(`sql-warm-${run}-${i}`, charge.providerId);
    await drain(gateway, baseline, warm.length, 60_000);

    const charges: Charge[] = [];
    const beforeCreate = await gateway.probe();
    for (let i = 0; i < n; i += 1) charges.push(await client.createTransaction(`sql-${run}-${i}`, 'PIX'));
    const afterCreate = await gateway.probe();
    for (const charge of charges) await client.getTransaction(charge.id);
    const afterGet = await gateway.probe();
    const text = await scrape(gateway);
    const afterScrape = await gateway.probe();
    const oneScrape = statementDiff(afterScrape, afterGet);
    for (const [i, charge] of charges.entries()) await client.postback(`sql-${run}-${i}`, charge.providerId);
    const { scrapes, left } = await drain(gateway, processedTotal(text), n, 120_000);
    if (left > 0) throw new Error(`${left} notifications were not processed in time`);
    const afterWebhooks = await gateway.probe();
    const sql = {
      createTransaction: profile(statementDiff(afterCreate, beforeCreate), n),
      getTransaction: profile(statementDiff(afterGet, afterCreate), n),
      webhook: profile(statementDiff(afterWebhooks, afterScrape, oneScrape, scrapes), n),
    };
    log(
      `  SQL statements per operation: CreateTransaction ${sql.createTransaction.perOperation.toFixed(1)}, GetTransaction ${sql.getTransaction.perOperation.toFixed(1)}, webhook ${sql.webhook.perOperation.toFixed(1)}`,
    );
    return sql;
  } finally {
    client.close();
    await gateway.stop();
  }
}

/** Runs `load` `repeats` times, reading the gateway's CPU around each run. */
async function measured(gateway: GatewayUnderTest, repeats: number, load: () => Promise<LoadResult>): Promise<RunFigures & { results: LoadResult[] }> {
  const figures: RunFigures & { results: LoadResult[] } = { rate: [], p50: [], p99: [], cpuMsPerOp: [], gatewayCores: [], errors: {}, results: [] };
  for (let r = 0; r < repeats; r += 1) {
    const before = await gateway.probe();
    const childrenBefore = gateway.childrenCpuMs();
    const result = await load();
    const after = await gateway.probe();
    // The embedded database's process is the gateway's too (npm start runs it): its CPU is counted.
    const cpu = cpuMs(after) - cpuMs(before) + gateway.childrenCpuMs() - childrenBefore;
    figures.results.push(result);
    figures.rate.push(result.ok / result.seconds);
    figures.p50.push(result.p50);
    figures.p99.push(result.p99);
    figures.cpuMsPerOp.push(result.ok ? cpu / result.ok : NaN);
    figures.gatewayCores.push(cpu / (result.seconds * 1000));
    figures.errors = mergeErrors([figures.errors, result.errors]);
  }
  return figures;
}

async function underLoad(
  main: Database,
  settings: Settings,
  fake: FakeProviderProcess,
  log: (line: string) => void,
): Promise<Omit<BackendResult, 'backend' | 'start' | 'sql'> | undefined> {
  const gateway = await startGatewayProcess({
    databaseUrl: main.url,
    dataDir: main.dataDir,
    nodeOptions: settings.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', settings.cpuProfileDir] : [],
  });
  const client = new GatewayClient(gateway.grpcAddress);
  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  const key = () => `bench-${run}-${sequence++}`;
  const charges: Charge[] = [];
  let peakUnderLoad = 0;
  let sampler: NodeJS.Timeout | undefined;
  const generatorBefore = process.cpuUsage();
  const fakeBefore = procCpuMs(fake.pid);
  const wallBefore = performance.now();
  try {
    await client.createAccount(fake.url);
    await sleep(3000);
    const idle = gateway.rss().rss;
    log(`  idle RSS ${idle.toFixed(0)} MB`);
    sampler = setInterval(() => (peakUnderLoad = Math.max(peakUnderLoad, gateway.rss().rss)), 250);
    const create = (method: Method) => () => client.createTransaction(key(), method).then((charge) => void charges.push(charge));

    if (settings.only === 'webhooks') {
      // Pending charges enough for every postback to be about a charge of its own (at up to 800 acknowledgements a second).
      const wanted = settings.webhookRepeats * settings.webhookSeconds * 800;
      while (charges.length < wanted) await closedLoop(32, 1, create('PIX'), classify);
      log(`  ${charges.length} pending PIX charges made for the postbacks`);
      const webhook = await webhookIntake(gateway, client, charges, settings, run, log);
      const rss = gateway.rss();
      const soak = { seconds: 0, operations: {}, errors: {}, rssEarly: NaN, rssLate: NaN, rssMax: NaN, heapEarly: NaN, heapLate: NaN, afterSoak: rss.rss };
      return {
        latency: [],
        create: [],
        get: [],
        webhook,
        rss: { idle, peakUnderLoad, highWater: rss.peak, soak },
        loadGeneratorCores: NaN,
        fakeProviderCores: NaN,
      };
    }

    // Added latency: the same charge through the gateway and straight to the fake, on a wall-clock schedule.
    const direct = directCharge(fake.url, client.notificationUrl, 'PIX');
    await closedLoop(4, settings.warmupSeconds, () => Promise.all([direct(), create('PIX')(), create('BILLET')()]), classify);
    const latency: BackendResult['latency'] = [];
    for (const rate of settings.only === 'overload' ? [] : settings.latencyRates) {
      const entry: BackendResult['latency'][number] = { rate, direct: { p50: [], p99: [] }, grpc: {}, errors: {} };
      for (let r = 0; r < settings.latencyRepeats; r += 1) {
        const baseline = await openLoop(rate, settings.latencySeconds, direct, classify);
        entry.direct.p50.push(baseline.p50);
        entry.direct.p99.push(baseline.p99);
        entry.errors = mergeErrors([entry.errors, baseline.errors]);
        for (const method of settings.methods) {
          const through = await openLoop(rate, settings.latencySeconds, create(method), classify);
          const figures = (entry.grpc[method] ??= { p50: [], p99: [], saturated: 0 });
          figures.p50.push(through.p50);
          figures.p99.push(through.p99);
          if (through.saturated) figures.saturated += 1;
          entry.errors = mergeErrors([entry.errors, through.errors]);
        }
      }
      latency.push(entry);
      log(
        `  ${rate}/s open loop, p50/p99 ms: direct ${entry.direct.p50.map((v) => v.toFixed(2)).join(',')}/${entry.direct.p99.map((v) => v.toFixed(2)).join(',')}; ` +
          settings.methods
            .map(
              (method) =>
                `${method} ${entry.grpc[method]!.p50.map((v) => v.toFixed(2)).join(',')}/${entry.grpc[method]!.p99.map((v) => v.toFixed(2)).join(',')}${entry.grpc[method]!.saturated ? ' (saturated)' : ''}`,
            )
            .join('; '),
      );
    }

    // Throughput: closed loops of CreateTransaction (a new idempotency key each) and GetTransaction.
    const createRuns: BackendResult['create'] = [];
    // --only overload: the PIX loops alone, for the capacity the overload run doubles.
    for (const method of settings.only === 'overload' ? (['PIX'] as const) : settings.methods) {
      for (const concurrency of settings.concurrencies) {
        await closedLoop(concurrency, settings.warmupSeconds, create(method), classify);
        let pool = '';
        const figures = await measured(gateway, settings.throughputRepeats, async () => {
          const poolReading = sleep(settings.throughputSeconds * 500).then(async () => {
            const text = await scrape(gateway);
            const used = metricValue(text, 'gateway_db_pool_connections', { state: 'used' });
            const most = metricValue(text, 'gateway_db_pool_max_connections');
            pool = `${used}/${most} connections in use, ${metricValue(text, 'gateway_db_pool_pending_acquires')} waiting`;
          });
          const result = await closedLoop(concurrency, settings.throughputSeconds, create(method), classify);
          await poolReading;
          return result;
        });
        const { results: _results, ...kept } = figures;
        createRuns.push({ ...kept, method, concurrency, pool });
        log(
          `  CreateTransaction ${method} x${concurrency}: ${figures.rate.map((v) => v.toFixed(0)).join(', ')}/s, CPU ${figures.cpuMsPerOp.map((v) => v.toFixed(2)).join(', ')} ms/op, pool mid-run: ${pool}`,
        );
      }
    }
    // Overload: twice the capacity just measured, each caller giving up after OVERLOAD_DEADLINE_MS.
    const overloadMethod: Method = 'PIX';
    const capacity = Math.max(...createRuns.filter((run) => run.method === overloadMethod).map((run) => median(run.rate)));
    const offered = Math.round(2 * capacity);
    const overload: NonNullable<BackendResult['overload']> = {
      method: overloadMethod,
      capacity,
      offered,
      deadlineMs: OVERLOAD_DEADLINE_MS,
      goodput: [],
      p99: [],
      errors: {},
    };
    for (let r = 0; r < settings.throughputRepeats; r += 1) {
      // Every call ends by its deadline, so the schedule is never more than the deadline behind: it is never abandoned.
      const run = await openLoop(
        offered,
        settings.throughputSeconds,
        () => client.createTransactionWithin(key(), overloadMethod, OVERLOAD_DEADLINE_MS),
        classify,
        (OVERLOAD_DEADLINE_MS / 1000) * 2 + 1,
      );
      overload.goodput.push(run.ok / settings.throughputSeconds);
      overload.p99.push(run.p99);
      overload.errors = mergeErrors([overload.errors, run.errors]);
    }
    log(
      `  overload: ${offered}/s offered (2 × ${capacity.toFixed(0)}/s), ${overloadMethod}, ${OVERLOAD_DEADLINE_MS} ms deadline: goodput ${overload.goodput.map((v) => v.toFixed(0)).join(', ')}/s, errors ${JSON.stringify(overload.errors)}`,
    );
    if (settings.only === 'overload') return undefined;
    // The calls refused or abandoned above may leave the pool busy for a moment.
    await sleep(2000);

    const getRuns: BackendResult['get'] = [];
    const someId = () => charges[Math.floor(Math.random() * charges.length)]!.id;
    for (const concurrency of settings.concurrencies) {
      await closedLoop(concurrency, settings.warmupSeconds, () => client.getTransaction(someId()), classify);
      const { results: _results, ...figures } = await measured(gateway, settings.throughputRepeats, () =>
        closedLoop(concurrency, settings.throughputSeconds, () => client.getTransaction(someId()), classify),
      );
      getRuns.push({ ...figures, concurrency });
      log(
        `  GetTransaction x${concurrency}: ${figures.rate.map((v) => v.toFixed(0)).join(', ')}/s, CPU ${figures.cpuMsPerOp.map((v) => v.toFixed(2)).join(', ')} ms/op`,
      );
    }

    const webhook = await webhookIntake(gateway, client, charges, settings, run, log);

    const soak = await soakRun(gateway, client, charges, settings, key, log);
    clearInterval(sampler);
    sampler = undefined;
    await sleep(5000);
    const rss = gateway.rss();
    const wall = performance.now() - wallBefore;
    const generator = process.cpuUsage(generatorBefore);
    return {
      latency,
      create: createRuns,
      overload,
      get: getRuns,
      webhook,
      rss: { idle, peakUnderLoad: Math.max(peakUnderLoad, soak.rssMax), highWater: rss.peak, soak: { ...soak, afterSoak: rss.rss } },
      loadGeneratorCores: (generator.user + generator.system) / 1000 / wall,
      fakeProviderCores: (procCpuMs(fake.pid) - fakeBefore) / wall,
    };
  } catch (error) {
    console.error(gateway.output());
    throw error;
  } finally {
    if (sampler) clearInterval(sampler);
    client.close();
    await gateway.stop();
  }
}

/** Webhook intake: postbacks for pending charges (each charge once while there are enough), then the backlog drained. */
async function webhookIntake(
  gateway: GatewayUnderTest,
  client: GatewayClient,
  charges: readonly Charge[],
  settings: Settings,
  run: string,
  log: (line: string) => void,
): Promise<BackendResult['webhook']> {
  const pending = [...charges];
  let cursor = 0;
  const nextCharge = () => pending[cursor++ % pending.length]!;
  const outcomesBefore = metricBy(await scrape(gateway), 'gateway_webhook_notifications_processed_total', 'outcome');
  const drainMs: number[] = [];
  const totalMs: number[] = [];
  const notifications: number[] = [];
  let undrained = 0;
  const webhookFigures = await measured(gateway, settings.webhookRepeats, async () => {
    const before = processedTotal(await scrape(gateway));
    const began = performance.now();
    const result = await closedLoop(
      settings.webhookConcurrency,
      settings.webhookSeconds,
      (i) => client.postback(`pb-${run}-${cursor}-${i}`, nextCharge().providerId),
      classify,
    );
    const lastAck = performance.now();
    const { left } = await drain(gateway, before, result.ok, settings.drainTimeoutSeconds * 1000);
    undrained += left;
    drainMs.push(performance.now() - lastAck);
    totalMs.push(performance.now() - began);
    notifications.push(result.ok);
    // The CPU read after the drain covers intake and processing: per notification, both.
    return result;
  });
  const { results: _results, ...webhookKept } = webhookFigures;
  const outcomesAfter = metricBy(await scrape(gateway), 'gateway_webhook_notifications_processed_total', 'outcome');
  const outcomes = Object.fromEntries(
    Object.entries(outcomesAfter)
      .map(([outcome, count]) => [outcome, count - (outcomesBefore[outcome] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
  const webhook: BackendResult['webhook'] = {
    ...webhookKept,
    concurrency: settings.webhookConcurrency,
    notifications,
    drainMs,
    totalMs,
    distinctCharges: Math.min(cursor, pending.length),
    outcomes,
    undrained,
  };
  log(
    `  webhook intake x${settings.webhookConcurrency}: ${webhook.rate.map((v) => v.toFixed(0)).join(', ')} ack/s, p99 ${webhook.p99.map((v) => v.toFixed(1)).join(', ')} ms, drained ${drainMs.map((v) => (v / 1000).toFixed(1)).join(', ')} s after the last ack (${notifications.map((n, r) => ((n * 1000) / totalMs[r]!).toFixed(0)).join(', ')} processed/s from the first sent), CPU ${webhook.cpuMsPerOp.map((v) => v.toFixed(2)).join(', ')} ms/notification; outcomes ${JSON.stringify(outcomes)}`,
  );
  return webhook;
}

/** Steady load for the soak: 4 callers creating PIX charges, 4 reading, 2 sending postbacks for the new charges; RSS every second. */
async function soakRun(
  gateway: GatewayUnderTest,
  client: GatewayClient,
  charges: Charge[],
  settings: Settings,
  key: () => string,
  log: (line: string) => void,
): Promise<Omit<BackendResult['rss']['soak'], 'afterSoak'>> {
  const seconds = settings.soakSeconds;
  const fresh: Charge[] = [];
  const rssSamples: { at: number; mb: number }[] = [];
  const heapSamples: { at: number; mb: number }[] = [];
  const began = performance.now();
  const at = () => (performance.now() - began) / 1000 / seconds;
  // About 50 samples however short the soak, one a second at most.
  const rssTimer = setInterval(() => rssSamples.push({ at: at(), mb: gateway.rss().rss }), Math.max(100, Math.min(1000, seconds * 20)));
  const heapTimer = setInterval(
    () =>
      void gateway.probe().then(
        (reading) => heapSamples.push({ at: at(), mb: reading.memory.heapUsed / 1_048_576 }),
        () => undefined,
      ),
    Math.max(250, (seconds * 1000) / 20),
  );
  let postbacks = 0;
  const [created, read, posted] = await Promise.all([
    closedLoop(
      4,
      seconds,
      () =>
        client.createTransaction(key(), 'PIX').then((charge) => {
          charges.push(charge);
          fresh.push(charge);
        }),
      classify,
    ),
    closedLoop(4, seconds, () => client.getTransaction(charges[Math.floor(Math.random() * charges.length)]!.id), classify),
    closedLoop(
      2,
      seconds,
      async () => {
        const charge = fresh.shift();
        if (!charge) return sleep(5);
        postbacks += 1;
        return client.postback(`soak-${charge.providerId}`, charge.providerId);
      },
      classify,
    ),
  ]);
  clearInterval(rssTimer);
  clearInterval(heapTimer);
  const mean = (samples: { at: number; mb: number }[], from: number, to: number) => {
    const inside = samples.filter((sample) => sample.at >= from && sample.at <= to);
    return inside.length ? inside.reduce((sum, sample) => sum + sample.mb, 0) / inside.length : NaN;
  };
  const soak = {
    seconds,
    operations: { CreateTransaction: created.ok, GetTransaction: read.ok, postbacks },
    errors: mergeErrors([created.errors, read.errors, posted.errors]),
    rssEarly: mean(rssSamples, 0.1, 0.2),
    rssLate: mean(rssSamples, 0.9, 1.01),
    rssMax: Math.max(...rssSamples.map((sample) => sample.mb)),
    heapEarly: mean(heapSamples, 0.1, 0.25),
    heapLate: mean(heapSamples, 0.85, 1.01),
  };
  log(
    `  soak ${seconds}s: ${created.ok} charges, ${read.ok} reads, ${postbacks} postbacks; RSS ${soak.rssEarly.toFixed(0)} → ${soak.rssLate.toFixed(0)} MB (max ${soak.rssMax.toFixed(0)}), heap ${soak.heapEarly.toFixed(0)} → ${soak.heapLate.toFixed(0)} MB`,
  );
  return soak;
}
