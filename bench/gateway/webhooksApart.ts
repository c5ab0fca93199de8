/**
 * Webhook intake and processing in processes of their own, as the README scales them out: a sidecar that only
 * stores and acknowledges (`WEBHOOK_WORKERS=0`), and a gateway process whose notification worker processes the
 * backlog. The intake is measured alone (its backlog is not processed), then a backlog of postbacks, each about a
 * pending charge of its own, is processed by a worker process started for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { createTestDatabase, onDatabase } from '../../tests/support/postgres.js';
import { classify, GatewayClient, metricBy, metricValue, type Charge } from './clients.js';
import { closedLoop, mergeErrors } from './load.js';
import { startGatewayProcess, type FakeProviderProcess, type GatewayOptions, type GatewayUnderTest } from './processes.js';
import type { ProbeReading } from './probe.js';
import type { Repeats } from './scenario.js';
import type { Settings } from './settings.js';

export interface WebhooksApartResult {
  concurrency: number;
  intake: { rate: Repeats; p50: Repeats; p99: Repeats; cpuMsPerAck: Repeats; errors: Record<string, number> };
  processing: {
    notifications: number;
    /** From the worker process's spawn until every notification was processed: its start is counted in. */
    seconds: number;
    /** The worker process's CPU per notification, less what a start of the same process costs with nothing to process. */
    cpuMsPerNotification: number;
    outcomes: Record<string, number>;
    left: number;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuMs = (reading: ProbeReading) => (reading.cpu.user + reading.cpu.system) / 1000;
const scrape = async (gateway: GatewayUnderTest) => (await fetch(gateway.metricsUrl)).text();

export async function webhooksApart(
  postgresUrl: string,
  settings: Settings,
  fake: FakeProviderProcess,
  log: (line: string) => void,
): Promise<WebhooksApartResult> {
  const database = await createTestDatabase(postgresUrl, 'gw_bench3');
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-bench3-'));
    dirs.push(dir);
    return dir;
  };
  // Processes of one database share its keys (README).
  const env = { SECRETS_KEY: randomBytes(32).toString('base64'), OUTBOUND_WEBHOOK_SECRET: randomBytes(32).toString('base64url') };
  const options = (webhookWorkers: number): GatewayOptions => ({
    databaseUrl: database.url,
    dataDir: dataDir(),
    env: { ...env, WEBHOOK_WORKERS: String(webhookWorkers) },
  });
  const sidecar = await startGatewayProcess(options(0));
  const client = new GatewayClient(sidecar.grpcAddress);
  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  try {
    await client.createAccount(fake.url);
    const concurrency = settings.webhookConcurrency;
    log(`webhook intake and processing apart (PostgreSQL; the sidecar with WEBHOOK_WORKERS=0, x${concurrency} senders):`);

    // Intake alone: what the postbacks are about does not change what storing them costs; a few charges serve.
    const some: Charge[] = [];
    while (some.length < 100) some.push(await client.createTransaction(`apart-${run}-${sequence++}`, 'PIX'));
    const intake: WebhooksApartResult['intake'] = { rate: [], p50: [], p99: [], cpuMsPerAck: [], errors: {} };
    const post = () => client.postback(`pa-${run}-${sequence++}`, some[sequence % some.length]!.providerId);
    await closedLoop(concurrency, settings.warmupSeconds, post, classify);
    for (let r = 0; r < settings.webhookRepeats; r += 1) {
      const before = cpuMs(await sidecar.probe());
      const result = await closedLoop(concurrency, settings.webhookSeconds, post, classify);
      const cpu = cpuMs(await sidecar.probe()) - before;
      intake.rate.push(result.ok / result.seconds);
      intake.p50.push(result.p50);
      intake.p99.push(result.p99);
      intake.cpuMsPerAck.push(result.ok ? cpu / result.ok : NaN);
      intake.errors = mergeErrors([intake.errors, result.errors]);
    }
    log(
      `  intake alone: ${intake.rate.map((v) => v.toFixed(0)).join(', ')} ack/s, p50 ${intake.p50.map((v) => v.toFixed(2)).join(', ')} ms, p99 ${intake.p99.map((v) => v.toFixed(1)).join(', ')} ms, CPU ${intake.cpuMsPerAck.map((v) => v.toFixed(3)).join(', ')} ms/ack, errors ${JSON.stringify(intake.errors)}`,
    );
    // That backlog goes: processing is measured on postbacks each about a pending charge of its own. Truncated, not
    // deleted: the dead rows of a delete stay in the backlog's index until a vacuum, and every lease walked them
    // (21,036 notifications processed at 492/s after a delete, against about 780/s on a fresh table).
    await onDatabase(database.url, (db) => db.query('truncate webhook_notifications'));

    // A start of the worker process with nothing to process, for the CPU its start costs.
    const idle = await startGatewayProcess(options(1));
    const startCpu = cpuMs(await idle.probe());
    await idle.stop();

    const wanted = settings.webhookSeconds * 2000;
    const pending: Charge[] = [];
    while (pending.length < wanted)
      await closedLoop(32, 1, () => client.createTransaction(`apart-${run}-${sequence++}`, 'PIX').then((charge) => void pending.push(charge)), classify);
    // One postback for each, stored by the sidecar and left for the worker.
    let next = 0;
    let notifications = 0;
    const failures: Record<string, number> = {};
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let charge = pending[next++]; charge; charge = pending[next++]) {
          try {
            await client.postback(`pp-${run}-${charge.id}`, charge.providerId);
            notifications += 1;
          } catch (error) {
            const code = classify(error);
            failures[code] = (failures[code] ?? 0) + 1;
          }
        }
      }),
    );
    intake.errors = mergeErrors([intake.errors, failures]);
    const spawned = performance.now();
    const worker = await startGatewayProcess(options(1));
    let left = notifications;
    try {
      const deadline = performance.now() + settings.drainTimeoutSeconds * 1000;
      for (;;) {
        // Its metrics port may open a moment after its health check answers.
        const text = await scrape(worker).catch(() => undefined);
        if (text !== undefined) left = Math.max(0, notifications - metricValue(text, 'gateway_webhook_notifications_processed_total'));
        if (left === 0 || performance.now() > deadline) break;
        await sleep(100);
      }
      const seconds = (performance.now() - spawned) / 1000;
      const cpu = cpuMs(await worker.probe()) - startCpu;
      const outcomes = metricBy(await scrape(worker), 'gateway_webhook_notifications_processed_total', 'outcome');
      const processing = { notifications, seconds, cpuMsPerNotification: cpu / notifications, outcomes, left };
      log(
        `  processing apart: ${notifications} notifications in ${seconds.toFixed(1)} s from the worker process's spawn (${(notifications / seconds).toFixed(0)}/s), CPU ${processing.cpuMsPerNotification.toFixed(3)} ms/notification, outcomes ${JSON.stringify(outcomes)}${left ? `, ${left} left` : ''}`,
      );
      return { concurrency, intake, processing };
    } catch (error) {
      console.error(worker.output());
      throw error;
    } finally {
      await worker.stop();
    }
  } catch (error) {
    console.error(sidecar.output());
    throw error;
  } finally {
    client.close();
    await sidecar.stop();
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
