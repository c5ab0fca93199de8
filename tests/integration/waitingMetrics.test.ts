import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { samplesOf, scrape } from '../support/metrics.js';
import { postSignedSandboxEvent } from '../support/sandboxEvents.js';

/**
 * What the alerts on waiting work read (deploy/prometheus/alerts.yml): the age of the oldest notification no worker
 * has taken, and the requests whose outcome is unknown, read from PostgreSQL on each scrape. No workers run here, so
 * what is stored stays waiting.
 */
let stack: TestStack;
let db: pg.Client;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'waiting',
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret: 'whsec-w',
  }));
});

afterAll(async () => {
  await db?.end();
  await stack?.close();
});

const gauge = async (name: string) => samplesOf(await scrape(stack.gateway.metricsUrl!), name).map((sample) => sample.value);

it('shows 0 while nothing waits', async () => {
  expect(await gauge('gateway_webhook_queue_oldest_seconds')).toEqual([0]);
  expect(await gauge('gateway_unknown_outcomes')).toEqual([0]);
  expect(await gauge('gateway_unknown_outcome_oldest_seconds')).toEqual([0]);
});

it('shows how long the oldest notification no worker has taken has waited', async () => {
  const event = { id: `evt_${randomUUID()}`, type: 'transaction.updated', data: { id: randomUUID(), status: 'APPROVED', amount: 1990 } };
  expect((await postSignedSandboxEvent(`${stack.gateway.webhookUrl}/webhooks/SANDBOX/${accountId}`, 'whsec-w', event)).status).toBe(200);
  await db.query(`update webhook_notifications set received_at = now() - interval '90 seconds' where outcome = 'RECEIVED'`);
  const [oldest] = await gauge('gateway_webhook_queue_oldest_seconds');
  expect(oldest).toBeGreaterThanOrEqual(90);
  expect(oldest).toBeLessThan(150);
});

it('counts the unknown outcomes and shows how long the oldest has waited since it became unknown', async () => {
  for (const minutes of [20, 3])
    await db.query(
      `insert into idempotency_keys (id, provider_account_id, operation, key, request_hash, state, failure, created_at, updated_at, expires_at)
       values ($1, $2, 'createTransaction', $3, $4, 'UNKNOWN', 'timeout', now() - interval '1 hour', now() - $5 * interval '1 minute', 'infinity')`,
      [randomUUID(), accountId, randomUUID(), '0'.repeat(64), minutes],
    );
  expect(await gauge('gateway_unknown_outcomes')).toEqual([2]);
  const [oldest] = await gauge('gateway_unknown_outcome_oldest_seconds');
  expect(oldest).toBeGreaterThanOrEqual(20 * 60);
  expect(oldest).toBeLessThan(21 * 60);
});
