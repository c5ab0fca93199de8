/**
 * Two gateway processes on one PostgreSQL database, as a scaled-out
 * deployment runs them: callers and the provider's postbacks are spread over
 * both, each process processes the notifications it can lease, and the
 * figures are the two added up. Afterwards the database is checked for what
 * scaling out must not do: lose a charge or a notification, or apply a
 * notification twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../tests/support/postgres.js';
import { classify, GatewayClient, metricValue, type Charge, type Method } from './clients.js';
import { closedLoop, mergeErrors, type LoadResult } from './load.js';
import { startGatewayProcess, type FakeProviderProcess, type GatewayUnderTest } from './processes.js';
import type { ProbeReading } from './probe.js';
import type { Repeats } from './scenario.js';
import type { Settings } from './settings.js';

export interface CombinedRun {
  rate: Repeats;
  p50: Repeats;
  p99: Repeats;
  /** Both processes' CPU milliseconds per answered call. */
  cpuMsPerOp: Repeats;
  /** The calls each process answered, per repeat ("a / b"). */
  split: string[];
  errors: Record<string, number>;
}

export interface TwoProcessResult {
  concurrency: number;
  create: Partial<Record<Method, CombinedRun>>;
  get: CombinedRun;
  webhook: CombinedRun & { drainMs: Repeats; processedBy: string[] };
  checks: {
    chargesAnswered: number;
    chargesStored: number;
    notificationsAcknowledged: number;
    notificationsStored: number;
    notificationsUnprocessed: number;
    /** Charges with more than one APPROVED event: a notification applied twice. */
    approvedTwice: number;
    /** Notifications by outcome. */
    outcomes: Record<string, number>;
    /** Notifications whose outcome says it was applied, against the charges approved by a webhook. */
    applied: number;
    approvedByWebhook: number;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuMs = (reading: ProbeReading) => (reading.cpu.user + reading.cpu.system) / 1000;
const scrape = async (gateway: GatewayUnderTest) => (await fetch(gateway.metricsUrl)).text();
const processed = async (gateway: GatewayUnderTest) => metricValue(await scrape(gateway), 'gateway_webhook_notifications_processed_total');

/** Runs `load` `repeats` times over both processes, adding up their CPU and counting each one's share of the calls. */
async function combined(
  gateways: GatewayUnderTest[],
  repeats: number,
  load: (counts: number[]) => Promise<LoadResult>,
): Promise<CombinedRun & { results: LoadResult[] }> {
  const run: CombinedRun & { results: LoadResult[] } = { rate: [], p50: [], p99: [], cpuMsPerOp: [], split: [], errors: {}, results: [] };
  for (let r = 0; r < repeats; r += 1) {
    const counts = gateways.map(() => 0);
    const before = await Promise.all(gateways.map((gateway) => gateway.probe()));
    const result = await load(counts);
    const after = await Promise.all(gateways.map((gateway) => gateway.probe()));
    const cpu = after.reduce((sum, reading, i) => sum + cpuMs(reading) - cpuMs(before[i]!), 0);
    run.results.push(result);
    run.rate.push(result.ok / result.seconds);
    run.p50.push(result.p50);
    run.p99.push(result.p99);
    run.cpuMsPerOp.push(result.ok ? cpu / result.ok : NaN);
    run.split.push(counts.join(' / '));
    run.errors = mergeErrors([run.errors, result.errors]);
  }
  return run;
}

export async function twoProcesses(postgresUrl: string, settings: Settings, fake: FakeProviderProcess, log: (line: string) => void): Promise<TwoProcessResult> {
  const database = await createTestDatabase(postgresUrl, 'gw_bench2');
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'gateway-bench2-')));
  const gateways: GatewayUnderTest[] = [];
  const clients: GatewayClient[] = [];
  try {
    // One after the other: the first migrates the database, the second finds it migrated.
    // Processes of one database share its keys (README): the provider secrets' key and the outbound signing secret.
    const env = { SECRETS_KEY: randomBytes(32).toString('base64'), OUTBOUND_WEBHOOK_SECRET: randomBytes(32).toString('base64url') };
    for (const dataDir of dirs) gateways.push(await startGatewayProcess({ databaseUrl: database.url, dataDir, env }));
    for (const gateway of gateways) clients.push(new GatewayClient(gateway.grpcAddress));
    await clients[0]!.createAccount(fake.url);
    clients[1]!.useAccountOf(clients[0]!);
    // Each process's own webhook sidecar, at the account's notification path.
    const path = new URL(clients[0]!.notificationUrl).pathname;
    const postbackUrls = gateways.map((gateway) => `${gateway.webhookUrl}${path}`);
    const concurrency = Math.max(...settings.concurrencies);
    const run = randomUUID().slice(0, 8);
    let sequence = 0;
    const charges: Charge[] = [];
    let answered = 0;
    // Callers alternate between the processes: caller i always uses process i % 2.
    const create = (method: Method, counts: number[]) => async (i: number) => {
      const which = i % 2;
      const charge = await clients[which]!.createTransaction(`bench2-${run}-${sequence++}`, method);
      counts[which]! += 1;
      answered += 1;
      charges.push(charge);
    };
    log(`two gateway processes on one PostgreSQL database (x${concurrency} callers, half on each):`);
    const result: TwoProcessResult = { concurrency, create: {}, get: undefined!, webhook: undefined!, checks: undefined! };
    for (const method of settings.methods) {
      await closedLoop(concurrency, settings.warmupSeconds, create(method, [0, 0]), classify);
      const { results: _results, ...figures } = await combined(gateways, settings.throughputRepeats, (counts) =>
        closedLoop(concurrency, settings.throughputSeconds, create(method, counts), classify),
      );
      result.create[method] = figures;
      log(
        `  CreateTransaction ${method}: ${figures.rate.map((v) => v.toFixed(0)).join(', ')}/s combined (${figures.split.join('; ')}), CPU ${figures.cpuMsPerOp.map((v) => v.toFixed(2)).join(', ')} ms/op, errors ${JSON.stringify(figures.errors)}`,
      );
    }
    const someId = () => charges[Math.floor(Math.random() * charges.length)]!.id;
    const read = (counts: number[]) => async (i: number) => {
      await clients[i % 2]!.getTransaction(someId());
      counts[i % 2]! += 1;
    };
    await closedLoop(concurrency, settings.warmupSeconds, read([0, 0]), classify);
    const { results: _reads, ...get } = await combined(gateways, settings.throughputRepeats, (counts) =>
      closedLoop(concurrency, settings.throughputSeconds, read(counts), classify),
    );
    result.get = get;
    log(
      `  GetTransaction: ${get.rate.map((v) => v.toFixed(0)).join(', ')}/s combined (${get.split.join('; ')}), CPU ${get.cpuMsPerOp.map((v) => v.toFixed(2)).join(', ')} ms/op, errors ${JSON.stringify(get.errors)}`,
    );

    // Postbacks for the charges made above (each once while there are enough, as in the one-process run), spread
    // over both sidecars; then both processes drain the one backlog.
    let cursor = 0;
    let acknowledged = 0;
    const drainMs: number[] = [];
    const processedBy: string[] = [];
    const postback = (counts: number[]) => async (i: number) => {
      const which = i % 2;
      const charge = charges[cursor++ % charges.length]!;
      await clients[which]!.postbackTo(postbackUrls[which]!, `pb2-${run}-${cursor}`, charge.providerId);
      counts[which]! += 1;
      acknowledged += 1;
    };
    const { results: _acks, ...webhookFigures } = await combined(gateways, settings.webhookRepeats, async (counts) => {
      const before = await Promise.all(gateways.map(processed));
      const result = await closedLoop(settings.webhookConcurrency, settings.webhookSeconds, postback(counts), classify);
      const lastAck = performance.now();
      const deadline = lastAck + settings.drainTimeoutSeconds * 1000;
      for (;;) {
        const now = await Promise.all(gateways.map(processed));
        const done = now.reduce((sum, value, i) => sum + value - before[i]!, 0);
        if (done >= result.ok || performance.now() > deadline) {
          processedBy.push(now.map((value, i) => value - before[i]!).join(' / '));
          break;
        }
        await sleep(100);
      }
      drainMs.push(performance.now() - lastAck);
      return result;
    });
    result.webhook = { ...webhookFigures, drainMs, processedBy };
    log(
      `  webhook intake: ${webhookFigures.rate.map((v) => v.toFixed(0)).join(', ')} ack/s combined, drained ${drainMs.map((v) => (v / 1000).toFixed(1)).join(', ')} s after the last ack, processed by each: ${processedBy.join('; ')}`,
    );

    result.checks = await check(database.url, answered, acknowledged);
    log(`  checks: ${JSON.stringify(result.checks)}`);
    return result;
  } catch (error) {
    for (const gateway of gateways) console.error(gateway.output());
    throw error;
  } finally {
    for (const client of clients) client.close();
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** What the database holds after the run, against what the callers were answered. */
async function check(url: string, chargesAnswered: number, notificationsAcknowledged: number): Promise<TwoProcessResult['checks']> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const one = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
    return {
      chargesAnswered,
      chargesStored: await one('SELECT count(*) AS n FROM transactions'),
      notificationsAcknowledged,
      notificationsStored: await one('SELECT count(*) AS n FROM webhook_notifications'),
      notificationsUnprocessed: await one("SELECT count(*) AS n FROM webhook_notifications WHERE outcome IN ('RECEIVED', 'PROCESSING')"),
      approvedTwice: await one(
        "SELECT count(*) AS n FROM (SELECT subject_id FROM status_events WHERE subject = 'TRANSACTION' AND status = 'APPROVED' GROUP BY subject_id HAVING count(*) > 1) twice",
      ),
      outcomes: Object.fromEntries(
        (
          await client.query<{ outcome: string; n: string }>('SELECT outcome, count(*) AS n FROM webhook_notifications GROUP BY outcome ORDER BY outcome')
        ).rows.map((row) => [row.outcome, Number(row.n)]),
      ),
      applied: await one("SELECT count(*) AS n FROM webhook_notifications WHERE outcome = 'APPLIED'"),
      approvedByWebhook: await one("SELECT count(*) AS n FROM status_events WHERE subject = 'TRANSACTION' AND status = 'APPROVED' AND source = 'webhook'"),
    };
  } finally {
    await client.end();
  }
}
