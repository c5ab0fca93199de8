import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetRoutingHealthRequest } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { capturedLogger } from '../support/logCapture.js';
import { createTestDatabase, onDatabase } from '../support/postgres.js';

/**
 * Provider health shared by the gateway processes of one database (back-office §7): each process adds its minute
 * counts to provider_health on its beats and on shutdown, and GetRoutingHealth answers the database's sums plus its
 * own unflushed calls, so two processes answer the same, a restart keeps the figures, and a failing flush fails no
 * charge. Two gateways in this test's process, on one database, beating every 200 ms (flushing with each beat).
 */
type Gateway = Awaited<ReturnType<typeof startTestGateway>>;
const SECRETS_KEY = randomBytes(32).toString('base64');
const FAST = { SECRETS_KEY, PROCESS_HEARTBEAT_MS: '200' };
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const running: { gateway: Gateway; client: Driver }[] = [];
let first: { gateway: Gateway; client: Driver };
let second: { gateway: Gateway; client: Driver };
const firstLog = capturedLogger('info');
let accountId: string;

async function start(env: Record<string, string>, logger?: typeof firstLog.logger) {
  const gateway = await startTestGateway({ databaseUrl: database.url, env, ...(logger ? { logger } : {}) });
  const started = { gateway, client: grpcDriver(gateway.grpcAddress!, TEST_TOKEN) };
  running.push(started);
  return started;
}

async function stop(which: { gateway: Gateway; client: Driver }) {
  running.splice(running.indexOf(which), 1);
  which.client.close();
  await which.gateway.close();
  removeDir(which.gateway.dataDir);
}

beforeAll(async () => {
  database = await createTestDatabase();
  first = await start(FAST, firstLog.logger);
  second = await start(FAST);
  ({
    providerAccount: { id: accountId },
  } = await first.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'compartilhada', publicKey: 'pk', secretKey: 'sk-shared' }));
}, 120_000);

afterAll(async () => {
  for (const which of [...running]) await stop(which);
  await database?.drop();
});

const charge = ({ client }: { client: Driver }, amount: number) =>
  client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );

/** The account's charge row as `at` answers it. */
async function chargeRow({ client }: { client: Driver }): Promise<{ attempts: number; approvalRate: number; p95LatencyMs: number; circuitState: string }> {
  const { accounts } = await client.call('routes', 'getRoutingHealth', GetRoutingHealthRequest.fromPartial({}));
  const row = (accounts as { providerAccountId: string; operation: string }[]).find((one) => one.providerAccountId === accountId && one.operation === 'charge');
  return (row ?? { attempts: 0 }) as never;
}

it('two gateway processes answer the same figures: the calls of both, summed', async () => {
  for (let n = 0; n < 3; n++) await charge(first, 1000 + n);
  for (let n = 0; n < 2; n++) await charge(second, 2000 + n);
  // Each answers its own calls at once; the other's arrive with that process's next beat.
  expect((await chargeRow(first)).attempts).toBeGreaterThanOrEqual(3);
  expect((await chargeRow(second)).attempts).toBeGreaterThanOrEqual(2);
  const [a, b] = await eventually(
    async () => {
      const both = [await chargeRow(first), await chargeRow(second)];
      return both.every((row) => row.attempts === 5) && both;
    },
    10_000,
    'both processes to count the 5 charges',
  );
  expect(a).toEqual(b);
  expect(a).toMatchObject({ attempts: 5, approvalRate: 1, circuitState: 'closed' });
});

it("a restart keeps the figures: a process's last calls are stored when it shuts down, before its first beat", async () => {
  // Beating every 5 s (the default): it stops before its first beat, so only the flush on shutdown stores its calls.
  const brief = await start({ SECRETS_KEY });
  await charge(brief, 3000);
  await charge(brief, 3001);
  await stop(brief);
  const restarted = await start({ SECRETS_KEY });
  expect((await chargeRow(restarted)).attempts).toBe(7);
  expect((await chargeRow(second)).attempts).toBe(7);
  await stop(restarted);
});

it('a flush that fails fails no charge: the calls wait in memory, the failure is logged once, and they are stored later', async () => {
  const warnings = () => firstLog.records().filter((record) => /could not store provider health/.test(String(record.msg)));
  await onDatabase(database.url, (sql) => sql.query('alter table provider_health rename to provider_health_away'));
  try {
    for (let n = 0; n < 3; n++) expect((await charge(first, 4000 + n)).transaction).toBeDefined();
    await eventually(async () => warnings().length > 0, 10_000, 'the failed flush to be logged');
    // Five more beats, each failing to flush: still one line.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(warnings()).toHaveLength(1);
  } finally {
    await onDatabase(database.url, (sql) => sql.query('alter table provider_health_away rename to provider_health'));
  }
  // The other process reads only the database: the 3 charges reach it once the first stores them again.
  await eventually(async () => (await chargeRow(second)).attempts === 10, 10_000, 'the charges counted during the failure to be stored');
  expect(firstLog.records().some((record) => record.msg === 'provider health is stored again')).toBe(true);
  expect((await chargeRow(first)).attempts).toBe(10);
});
