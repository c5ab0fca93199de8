/**
 * How fast the webhook sidecar acknowledges under load: N concurrent senders
 * POST signed notifications for a while; prints throughput and latency
 * percentiles of the 2xx answers, and how long the workers took to drain.
 * Usage: npm run bench [-- --seconds 10 --concurrency 32]   (DATABASE_URL to use a real PostgreSQL)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/config.js';
import { COMPONENTS, startGateway } from '../server/app.js';
import { createLogger } from '../server/lib/logger.js';
import { signSandboxPayload } from '../server/sandbox/api.js';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const seconds = arg('seconds', 10);
const concurrency = arg('concurrency', 32);

const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
// One account takes every notification here: the per-account rate limit would measure itself.
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  GRPC_PORT: '0',
  HTTP_PORT: '0',
  WEBHOOK_PORT: '0',
  SANDBOX_PORT: '0',
  API_TOKENS: 'bench',
  WORKER_IDLE_MS: '50',
  WEBHOOK_RATE_PER_SECOND: '0',
});
const gateway = await startGateway(config, COMPONENTS, createLogger('warn'));
const accounts = gateway.useCases!.accounts;
const account = await accounts.create({ provider: 'SANDBOX', name: 'bench', publicKey: 'pk', secretKey: 'sk', webhookSecret: 'whsec-bench' });

const latencies: number[] = [];
let failures = 0;
let sequence = 0;
const until = performance.now() + seconds * 1000;
async function sender(): Promise<void> {
  while (performance.now() < until) {
    const eventId = `evt_bench_${sequence++}`;
    const body = JSON.stringify({
      id: eventId,
      type: 'charge.paid',
      createdAt: new Date().toISOString(),
      data: { id: `ch_unknown_${eventId}`, status: 'paid', amount: 100 },
    });
    const started = performance.now();
    const response = await fetch(account.notificationUrl, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-sandbox-event-id': eventId,
        'x-sandbox-signature': signSandboxPayload('whsec-bench', Math.floor(Date.now() / 1000), body),
      },
    });
    await response.arrayBuffer();
    if (response.ok) latencies.push(performance.now() - started);
    else failures += 1;
  }
}
await Promise.all(Array.from({ length: concurrency }, sender));
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
console.log(`webhook intake, ${concurrency} concurrent senders for ${seconds}s on ${config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}`);
console.log(`  acknowledged ${latencies.length} (${(latencies.length / seconds).toFixed(0)}/s), failed ${failures}`);
console.log(`  latency ms: p50 ${pct(50)}  p95 ${pct(95)}  p99 ${pct(99)}  max ${latencies.at(-1)?.toFixed(1)}`);
await gateway.close();
rmSync(dataDir, { recursive: true, force: true });
