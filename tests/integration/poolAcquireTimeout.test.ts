import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * DB_ACQUIRE_TIMEOUT_MS (issue "Fast and observable", overload): when every pooled database connection is busy,
 * a call waits that long for one, then fails with UNAVAILABLE (retry later) instead of queueing without end or
 * being reported as the gateway's own bug (INTERNAL).
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { DB_ACQUIRE_TIMEOUT_MS: '300' } });
});
afterAll(async () => {
  await stack?.close();
});

it('answers UNAVAILABLE, reason DATABASE_UNAVAILABLE, when no connection comes free in time, and serves again once one does', async () => {
  const db = stack.gateway.db!;
  const [{ max }] = (await db.poolUsage()).filter((pool) => pool.pool === 'primary');
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Every connection of the pool taken by a transaction that waits.
  let holding = 0;
  const holders = Array.from({ length: max }, () =>
    db.em().transactional(async (em) => {
      await em.execute('select 1');
      holding += 1;
      await held;
    }),
  );
  while (holding < max) await new Promise((resolve) => setTimeout(resolve, 20));
  const read = () => stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: '6f1c2b1e-0000-4000-8000-000000000001' }));
  const failure = await failureOf(read());
  expect(failure.code).toBe('UNAVAILABLE');
  expect(failure.message).toMatch(/^the database is unreachable or busy; retry later/);
  expect((await errorDetailsOf(read())).reason).toBe('DATABASE_UNAVAILABLE');
  release();
  await Promise.all(holders);
  expect((await failureOf(read())).code).toBe('NOT_FOUND');
});
