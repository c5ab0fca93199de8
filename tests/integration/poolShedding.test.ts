import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { PoolWaits } from '../../server/db/poolWaits.js';
import { loadConfig } from '../../server/config.js';
import { closedPort } from '../support/closedPort.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { ADMIN_URL } from '../support/postgres.js';

/**
 * SHED_POOL_WAIT_MS: load shedding at the database judges how long the primary pool's queries wait for a connection,
 * not how many wait. Many short waits are a busy gateway and take every call; a queue that stands refuses new calls
 * with RESOURCE_EXHAUSTED, saying how long the queries wait, and takes them again once it drains.
 */
let stack: TestStack;
let accountId: string;
beforeAll(async () => {
  // Two connections and the loop's own rule off: the pool's wait is the only signal.
  stack = await startTestStack({ env: { DB_POOL_MAX: '2', SHED_POOL_WAIT_MS: '100', SHED_EVENT_LOOP_DELAY_MS: '0' } });
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'pool', publicKey: 'pk', secretKey: 'sk' }));
});
afterAll(async () => stack?.close());

const charge = (idempotencyKey: string) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey,
      transaction: { amount: 700, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );

it("reads a window's wait as the median of the connections handed out in it, or the age of the oldest still waiting", async () => {
  const pool = new pg.Pool({ connectionString: ADMIN_URL, max: 1 });
  try {
    const waits = PoolWaits.of(pool);
    expect(waits.windowMs()).toBe(0);
    const held = await pool.connect();
    // Waiting behind the held connection: one through pool.query (pg-pool's callback form), one through connect().
    const queued = [pool.query('select 1'), pool.connect()] as const;
    waits.windowMs();
    await sleep(300);
    expect(waits.windowMs()).toBeGreaterThanOrEqual(290);
    held.release();
    const [, second] = await Promise.all(queued);
    second.release();
    expect(waits.windowMs()).toBeGreaterThanOrEqual(290);
    expect(waits.windowMs()).toBe(0);
    // Thirty queries queued on the one connection, each held briefly: a long queue, a short wait.
    await Promise.all(Array.from({ length: 30 }, () => pool.query('select 1')));
    expect(waits.windowMs()).toBeLessThan(100);
  } finally {
    await pool.end();
  }
});

it('counts a connection that could not be had as no wait', async () => {
  const pool = new pg.Pool({ connectionString: `postgresql://postgres@127.0.0.1:${await closedPort()}/postgres`, max: 1 });
  const waits = PoolWaits.of(pool);
  await expect(pool.connect()).rejects.toThrow(/ECONNREFUSED/);
  expect(waits.windowMs()).toBe(0);
  await pool.end();
});

it("refuses new calls while the primary pool's queries stand in line for a connection, and takes them again once it drains", async () => {
  await charge('pool-warm');
  // A lock that every charge's first statement waits for: the pool's two connections are held, the rest queue.
  const locker = new pg.Client({ connectionString: stack.database.url });
  await locker.connect();
  try {
    await locker.query('begin');
    await locker.query('lock table idempotency_keys in access exclusive mode');
    const blocked = Array.from({ length: 6 }, (_, i) => charge(`pool-blocked-${i}`));
    // The calls already taken wait; a new one is refused once a window has seen the queue stand.
    await eventually(async () => stack.gateway.pressure!.currentLimit < blocked.length, 5_000);
    const probe = charge('pool-probe');
    const refused = await failureOf(probe);
    expect(refused.code).toBe('RESOURCE_EXHAUSTED');
    await expect(errorDetailsOf(probe)).resolves.toMatchObject({ reason: 'OVERLOADED', retryDelayMs: 200 });
    expect(refused.message).toMatch(/^the gateway's database is busy \(its queries wait \d+ ms for a connection\); try again shortly$/);
    await locker.query('rollback');
    await Promise.all(blocked);
  } finally {
    await locker.end();
  }
  await eventually(async () => stack.gateway.pressure?.currentLimit === Infinity, 5_000);
  await expect(charge('pool-after')).resolves.toMatchObject({ transaction: { amount: 700 } });
});

it('tells a deployment that still sets the retired SHED_POOL_WAITING what to set instead', () => {
  expect(() => loadConfig({ SHED_POOL_WAITING: '20' })).toThrow(
    'SHED_POOL_WAITING is no longer read: load shedding at the database now judges how long queries wait for a connection; set SHED_POOL_WAIT_MS (milliseconds, default 100; 0: off) and remove SHED_POOL_WAITING',
  );
  expect(loadConfig({}).shedPoolWaitMs).toBe(100);
  expect(loadConfig({ SHED_POOL_WAIT_MS: '0' }).shedPoolWaitMs).toBe(0);
});
