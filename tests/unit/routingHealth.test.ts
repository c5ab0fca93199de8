import { expect, it } from '@jest/globals';
import { RoutingHealth } from '../../server/gateway/routingHealth.js';

it("reports each account's approval rate over its answers, its error rate and mean time, over its last 200 attempts", () => {
  const health = new RoutingHealth();
  health.recorded('a', 'APPROVED', 10);
  health.recorded('a', 'PENDING', 20);
  health.recorded('a', 'REJECTED', 30);
  health.recorded('a', 'error', 40);
  expect(health.of([{ id: 'a', provider: 'SANDBOX' }])).toEqual([
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
  // The window keeps the last 200: the 4 above are pushed out by 200 approvals of 1 ms.
  for (let i = 0; i < 200; i += 1) health.recorded('a', 'APPROVED', 1);
  expect(health.of([{ id: 'a', provider: 'SANDBOX' }])[0]).toMatchObject({
    attempts: 200,
    approvalRate: 1,
    errorRate: 0,
    meanLatencyMs: 1,
    // The histogram forgets what left the window too.
    p50LatencyMs: 10,
    p95LatencyMs: 10,
  });
});

it('answers zeros for an account no routed charge has tried yet, never a division by zero', () => {
  expect(new RoutingHealth().of([{ id: 'fresh', provider: 'PAGARME' }])).toEqual([
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

it('p95 is the bound of the bucket the 95th percentile falls in; a call slower than the last bound counts in the last bucket', () => {
  const health = new RoutingHealth();
  for (let i = 0; i < 94; i += 1) health.recorded('a', 'APPROVED', 30);
  for (let i = 0; i < 6; i += 1) health.recorded('a', 'APPROVED', 90_000);
  expect(health.of([{ id: 'a', provider: 'SANDBOX' }])[0]).toMatchObject({ p50LatencyMs: 50, p95LatencyMs: 30_000 });
});

it('keeps payouts apart from charges: a payout row only for an account that made payouts, never weighed by routes', () => {
  const health = new RoutingHealth();
  for (let i = 0; i < 10; i += 1) health.recorded('a', 'APPROVED', 5);
  for (let i = 0; i < 10; i += 1) health.recorded('a', 'REJECTED', 700, 'payout');
  expect(health.of([{ id: 'a', provider: 'SANDBOX' }]).map((row) => [row.operation, row.attempts, row.approvalRate, row.p95LatencyMs])).toEqual([
    ['charge', 10, 1, 10],
    ['payout', 10, 0, 1000],
  ]);
  expect(health.targetHealth('a', new Set()).approvalRate).toBe(1);
  expect(health.accountIds()).toEqual(['a']);
});
