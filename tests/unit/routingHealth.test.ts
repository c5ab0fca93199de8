import { expect, it } from '@jest/globals';
import type { ProviderHealthBucket } from '../../server/db/providerHealthRepository.js';
import { HEALTH_KEEP_MS, MemoryHealthStore, RoutingHealth, type HealthStore } from '../../server/gateway/routingHealth.js';

const SANDBOX = [{ id: 'a', provider: 'SANDBOX' }];
const report = async (health: RoutingHealth, accounts = SANDBOX) => health.of(accounts, await health.figures());

it("reports each account's approval rate over its answers, its error rate and mean time, over the window", async () => {
  const health = new RoutingHealth();
  health.recorded('a', 'APPROVED', 10);
  health.recorded('a', 'PENDING', 20);
  health.recorded('a', 'REJECTED', 30);
  health.recorded('a', 'error', 40);
  expect(await report(health)).toEqual([
    // Two of the three answers were not rejected; one of the four attempts was an error.
    {
      providerAccountId: 'a',
      provider: 'SANDBOX',
      operation: 'charge',
      circuitState: 'closed',
      attempts: 4,
      approvalRate: 2 / 3,
      errorRate: 0.25,
      meanLatencyMs: 25,
      // 10 | 20, 30, 40 ms: the 2nd (p50) in the ≤ 25 bucket, the 4th (p95) in the ≤ 50 one.
      p50LatencyMs: 25,
      p95LatencyMs: 50,
    },
  ]);
  // The report counts every call of the window; `best_approval` weighs the last 200 charges of this process only.
  for (let i = 0; i < 200; i += 1) health.recorded('a', 'APPROVED', 1);
  expect((await report(health))[0]).toMatchObject({ attempts: 204, errorRate: 1 / 204, p50LatencyMs: 10, p95LatencyMs: 10 });
  expect(health.targetHealth('a', new Set()).approvalRate).toBe(1);
});

it('answers zeros for an account no routed charge has tried yet, never a division by zero', async () => {
  expect(await report(new RoutingHealth(), [{ id: 'fresh', provider: 'PAGARME' }])).toEqual([
    {
      providerAccountId: 'fresh',
      provider: 'PAGARME',
      operation: 'charge',
      circuitState: 'closed',
      attempts: 0,
      approvalRate: 0,
      errorRate: 0,
      meanLatencyMs: 0,
      p50LatencyMs: 0,
      p95LatencyMs: 0,
    },
  ]);
});

it('p95 is the bound of the bucket the 95th percentile falls in; a call slower than the last bound counts in the last bucket', async () => {
  const health = new RoutingHealth();
  for (let i = 0; i < 94; i += 1) health.recorded('a', 'APPROVED', 30);
  for (let i = 0; i < 6; i += 1) health.recorded('a', 'APPROVED', 90_000);
  expect((await report(health))[0]).toMatchObject({ p50LatencyMs: 50, p95LatencyMs: 30_000 });
});

it('keeps payouts apart from charges: a payout row only for an account that made payouts, never weighed by routes', async () => {
  const health = new RoutingHealth();
  for (let i = 0; i < 10; i += 1) health.recorded('a', 'APPROVED', 5);
  for (let i = 0; i < 10; i += 1) health.recorded('a', 'REJECTED', 700, 'payout');
  expect((await report(health)).map((row) => [row.operation, row.attempts, row.approvalRate, row.p95LatencyMs])).toEqual([
    ['charge', 10, 1, 10],
    ['payout', 10, 0, 1000],
  ]);
  expect(health.targetHealth('a', new Set()).approvalRate).toBe(1);
  expect([...(await health.figures()).accounts.keys()]).toEqual(['a']);
});

it('two processes on one store answer the same sums: what each flushed plus what it has not flushed yet', async () => {
  const store = new MemoryHealthStore();
  const first = new RoutingHealth({ store });
  const second = new RoutingHealth({ store });
  for (let i = 0; i < 3; i += 1) first.recorded('a', 'APPROVED', 20);
  second.recorded('a', 'REJECTED', 400);
  await first.flush();
  // The second process reads the first's flushed calls and its own unflushed one; the first does not see that one yet.
  expect((await report(second))[0]).toMatchObject({ attempts: 4, approvalRate: 3 / 4, p50LatencyMs: 25, p95LatencyMs: 500 });
  expect((await report(first))[0]).toMatchObject({ attempts: 3 });
  await second.flush();
  expect((await report(first))[0]).toEqual((await report(second))[0]);
  expect((await report(first))[0]).toMatchObject({ attempts: 4 });
  // A flush with nothing new adds nothing.
  await first.flush();
  expect((await report(second))[0]).toMatchObject({ attempts: 4 });
});

it('sums the last hour: a minute leaves the answer an hour after it began, and the store forgets it after a day', async () => {
  let now = Date.UTC(2026, 11, 4, 10, 0, 30);
  const store = new MemoryHealthStore();
  const health = new RoutingHealth({ store, now: () => now });
  health.recorded('a', 'APPROVED', 5);
  await health.flush();
  now += 30_000;
  health.recorded('a', 'APPROVED', 5);
  expect(health.since).toEqual(new Date(Date.UTC(2026, 11, 4, 9, 2)));
  expect((await report(health))[0]).toMatchObject({ attempts: 2 });
  // At 11:00:30 the window starts at 10:01: the 10:00 minute is out, the 10:01 one (unflushed) still in.
  now = Date.UTC(2026, 11, 4, 11, 0, 30);
  expect((await report(health))[0]).toMatchObject({ attempts: 1 });
  await health.flush();
  expect(await store.since(new Date(0))).toHaveLength(2);
  now += HEALTH_KEEP_MS;
  await health.flush();
  expect(await store.since(new Date(0))).toHaveLength(0);
});

it('a store that fails keeps the counts in memory, logs once, and takes them all once it works again', async () => {
  const kept = new MemoryHealthStore();
  let down = true;
  const store: HealthStore = {
    add: (buckets) => (down ? Promise.reject(new Error('connection refused')) : kept.add(buckets)),
    since: (from) => kept.since(from),
    prune: (before) => kept.prune(before),
  };
  const logged: string[] = [];
  const logger = { warn: (_: unknown, message: string) => void logged.push(`warn ${message}`), info: (message: string) => void logged.push(`info ${message}`) };
  const health = new RoutingHealth();
  health.storeIn(store, logger as never);
  health.recorded('a', 'APPROVED', 5);
  await health.flush();
  health.recorded('a', 'error', 5);
  await health.flush();
  await health.flush();
  expect(logged).toEqual([expect.stringMatching(/^warn could not store provider health/)]);
  // Nothing reached the store, yet the answer holds both calls (this process's memory).
  expect(await kept.since(new Date(0))).toEqual([]);
  expect((await report(health))[0]).toMatchObject({ attempts: 2, errorRate: 0.5 });
  down = false;
  await health.flush();
  expect(logged).toHaveLength(2);
  expect(logged[1]).toBe('info provider health is stored again');
  const stored = await kept.since(new Date(0));
  expect(stored.map((bucket) => bucket.calls)).toEqual([2]);
  expect((await report(health))[0]).toMatchObject({ attempts: 2 });
});

it('a read while a flush is under way counts each call once, neither twice nor not at all', async () => {
  const kept = new MemoryHealthStore();
  let release!: () => void;
  const store: HealthStore = {
    add: async (buckets: readonly ProviderHealthBucket[]) => {
      await new Promise<void>((resolve) => (release = resolve));
      await kept.add(buckets);
    },
    since: (from) => kept.since(from),
    prune: (before) => kept.prune(before),
  };
  const health = new RoutingHealth({ store });
  health.recorded('a', 'APPROVED', 5);
  const flushing = health.flush();
  const reading = report(health);
  health.recorded('a', 'APPROVED', 5);
  await new Promise((resolve) => setImmediate(resolve));
  release();
  await flushing;
  expect((await reading)[0]).toMatchObject({ attempts: 2 });
});
