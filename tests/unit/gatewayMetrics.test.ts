import { describe, expect, it } from '@jest/globals';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../server/config.js';
import { createProviderHttp } from '../../server/lib/http/index.js';
import { createLogger } from '../../server/lib/logger.js';
import { recordCertificateExpiry } from '../../server/lib/http/certificateExpiry.js';
import { GatewayMetrics, type ScrapeSources } from '../../server/observability/metrics.js';
import { closedPort } from '../support/closedPort.js';
import { capturedLogger } from '../support/logCapture.js';
import { parseMetrics, samplesOf } from '../support/metrics.js';

const quiet = createLogger('silent');
const sources = (overrides: Partial<ScrapeSources> = {}): ScrapeSources => ({
  notificationQueue: async () => ({ received: 3, processing: 1, retrying: 2 }),
  outboundBacklog: async () => ({ due: 5, scheduled: 4 }),
  poolUsage: async () => [{ pool: 'primary', used: 2, idle: 3, pending: 1, max: 10 }],
  ...overrides,
});
const scraped = async (metrics: GatewayMetrics) => parseMetrics(await metrics.exposition());

describe('what is read from the database on each scrape', () => {
  it('shows the queue, the backlog and the pools', async () => {
    const metrics = new GatewayMetrics(quiet);
    metrics.readFrom(sources());
    const samples = await scraped(metrics);
    expect(samplesOf(samples, 'gateway_webhook_queue_depth').map(({ labels, value }) => [labels.state, value])).toEqual([
      ['received', 3],
      ['processing', 1],
      ['retrying', 2],
    ]);
    expect(samplesOf(samples, 'gateway_outbound_backlog').map(({ labels, value }) => [labels.state, value])).toEqual([
      ['due', 5],
      ['scheduled', 4],
    ]);
    expect(samplesOf(samples, 'gateway_db_pool_connections').map(({ labels, value }) => [labels.pool, labels.state, value])).toEqual([
      ['primary', 'used', 2],
      ['primary', 'idle', 3],
    ]);
    expect(samplesOf(samples, 'gateway_db_pool_pending_acquires', { pool: 'primary' })).toMatchObject([{ value: 1 }]);
  });

  it("shows how long the oldest notification, and the oldest unknown outcome, have waited, and each replica's lag", async () => {
    const metrics = new GatewayMetrics(quiet);
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
    metrics.readFrom(
      sources({
        notificationQueue: async () => ({ received: 3, processing: 1, retrying: 2, oldestReceivedAt: ago(90) }),
        unknownOutcomes: async () => ({ count: 2, oldestSince: ago(1200) }),
        replicaLag: async () => [
          { pool: 'replica-1', seconds: 0 },
          { pool: 'replica-2', seconds: 4.5 },
        ],
      }),
    );
    const samples = await scraped(metrics);
    const [oldest] = samplesOf(samples, 'gateway_webhook_queue_oldest_seconds');
    expect(oldest!.value).toBeGreaterThanOrEqual(90);
    expect(oldest!.value).toBeLessThan(120);
    expect(samplesOf(samples, 'gateway_unknown_outcomes')).toMatchObject([{ value: 2 }]);
    expect(samplesOf(samples, 'gateway_unknown_outcome_oldest_seconds')[0]!.value).toBeGreaterThanOrEqual(1200);
    expect(samplesOf(samples, 'gateway_db_replica_lag_seconds').map(({ labels, value }) => [labels.pool, value])).toEqual([
      ['replica-1', 0],
      ['replica-2', 4.5],
    ]);
  });

  it('answers 0 for the ages when nothing waits, and leaves them out when they cannot be read', async () => {
    const metrics = new GatewayMetrics(quiet);
    metrics.readFrom(sources({ unknownOutcomes: async () => ({ count: 0 }) }));
    const samples = await scraped(metrics);
    expect(samplesOf(samples, 'gateway_webhook_queue_oldest_seconds')).toMatchObject([{ value: 0 }]);
    expect(samplesOf(samples, 'gateway_unknown_outcome_oldest_seconds')).toMatchObject([{ value: 0 }]);
    metrics.readFrom(sources({ notificationQueue: () => Promise.reject(new Error('down')), unknownOutcomes: () => Promise.reject(new Error('down')) }));
    const failed = await scraped(metrics);
    for (const name of ['gateway_webhook_queue_oldest_seconds', 'gateway_unknown_outcomes', 'gateway_unknown_outcome_oldest_seconds'])
      expect(samplesOf(failed, name)).toEqual([]);
  });

  it('leaves a gauge out, and logs why, when its read fails; the rest of the scrape still answers', async () => {
    const { logger, records } = capturedLogger('warn');
    const metrics = new GatewayMetrics(logger);
    metrics.readFrom(sources({ outboundBacklog: () => Promise.reject(new Error('Unable to acquire a connection')) }));
    const samples = await scraped(metrics);
    expect(samplesOf(samples, 'gateway_outbound_backlog')).toEqual([]);
    expect(samplesOf(samples, 'gateway_webhook_queue_depth')).toHaveLength(3);
    expect(records()).toContainEqual(expect.objectContaining({ metric: 'gateway_outbound_backlog', msg: 'could not read a metric from the database' }));
  });

  it('asks nothing of the database once told to stop (it is about to close), and drops the values it had', async () => {
    const metrics = new GatewayMetrics(quiet);
    let reads = 0;
    const counted =
      <T>(value: T) =>
      async () => (reads++, value);
    metrics.readFrom({
      notificationQueue: counted({ received: 1, processing: 0, retrying: 0 }),
      outboundBacklog: counted({ due: 1, scheduled: 0 }),
      poolUsage: counted([]),
    });
    expect(samplesOf(await scraped(metrics), 'gateway_webhook_queue_depth')).toHaveLength(3);
    metrics.stopReading();
    const before = reads;
    const samples = await scraped(metrics);
    expect(reads).toBe(before);
    expect(samplesOf(samples, 'gateway_webhook_queue_depth')).toEqual([]);
    expect(samplesOf(samples, 'gateway_outbound_backlog')).toEqual([]);
    // Counters and the process's metrics still answer.
    expect(samplesOf(samples, 'process_resident_memory_bytes')).toHaveLength(1);
  });
});

it("shows when each mTLS account's client certificate expires, as Unix time", async () => {
  const accountId = `acc-${randomUUID()}`;
  const notAfter = new Date('2027-03-01T12:00:00Z');
  recordCertificateExpiry({ provider: 'ACME', accountId, certificate: 'cashIn', notAfter });
  const samples = await scraped(new GatewayMetrics(quiet));
  expect(samplesOf(samples, 'gateway_provider_certificate_expiry_timestamp_seconds', { provider_account_id: accountId })).toEqual([
    {
      name: 'gateway_provider_certificate_expiry_timestamp_seconds',
      labels: { provider: 'ACME', provider_account_id: accountId, certificate: 'cashIn' },
      value: notAfter.getTime() / 1000,
    },
  ]);
});

it("shows an account's circuit as the worst of its hosts' circuits", async () => {
  const ctx = { accountId: `acc-${randomUUID()}`, publicKey: 'pk', secretKey: 'sk', baseUrl: `http://127.0.0.1:${await closedPort()}` };
  const http = (baseUrl?: string) => createProviderHttp({ provider: 'ACME', ctx, baseUrl, retry: false, breaker: { consecutiveFailures: 1 }, logger: quiet });
  http('http://127.0.0.1:1');
  const metrics = new GatewayMetrics(quiet);
  const state = async () => samplesOf(await scraped(metrics), 'gateway_circuit_state', { provider_account_id: ctx.accountId });
  expect(await state()).toMatchObject([{ labels: { provider: 'ACME' }, value: 0 }]);
  await expect(http().post('/charges', {})).rejects.toThrow();
  expect(await state()).toMatchObject([{ labels: { provider: 'ACME' }, value: 2 }]);
});

it('keeps one registry per gateway: two instances count apart', async () => {
  const one = new GatewayMetrics(quiet);
  const two = new GatewayMetrics(quiet);
  one.rpcHandled('gateway.v1.PaymentGatewayService/GetTransaction', 'OK', 0.01);
  const count = async (metrics: GatewayMetrics) => samplesOf(await scraped(metrics), 'gateway_rpc_requests_total');
  expect(await count(one)).toMatchObject([{ labels: { code: 'OK' }, value: 1 }]);
  expect(await count(two)).toEqual([]);
});

describe('METRICS_PORT', () => {
  const config = (more: Record<string, string> = {}) =>
    loadConfig({
      DATA_DIR: join(tmpdir(), 'metrics-config'),
      API_TOKENS: 't',
      SECRETS_KEY: 'k',
      OUTBOUND_WEBHOOK_SECRET: 's',
      ADMIN_PASSWORD: 'p'.repeat(12),
      ...more,
    });

  it('defaults to 9464, takes a port, and `off` turns the listener off', () => {
    expect(config().metricsPort).toBe(9464);
    expect(config({ METRICS_PORT: '0' }).metricsPort).toBe(0);
    expect(config({ METRICS_PORT: 'off' }).metricsPort).toBeUndefined();
    expect(config({ METRICS_PORT: 'OFF' }).metricsPort).toBeUndefined();
    expect(() => config({ METRICS_PORT: 'no' })).toThrow('METRICS_PORT must be a port number, got "no"');
  });
});
