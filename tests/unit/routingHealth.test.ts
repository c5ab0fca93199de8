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
    { providerAccountId: 'a', provider: 'SANDBOX', circuitState: 'closed', attempts: 4, approvalRate: 2 / 3, errorRate: 0.25, meanLatencyMs: 25 },
  ]);
  // The window keeps the last 200: the 4 above are pushed out by 200 approvals of 1 ms.
  for (let i = 0; i < 200; i += 1) health.recorded('a', 'APPROVED', 1);
  expect(health.of([{ id: 'a', provider: 'SANDBOX' }])[0]).toMatchObject({ attempts: 200, approvalRate: 1, errorRate: 0, meanLatencyMs: 1 });
});

it('answers zeros for an account no routed charge has tried yet, never a division by zero', () => {
  expect(new RoutingHealth().of([{ id: 'fresh', provider: 'PAGARME' }])).toEqual([
    { providerAccountId: 'fresh', provider: 'PAGARME', circuitState: 'closed', attempts: 0, approvalRate: 0, errorRate: 0, meanLatencyMs: 0 },
  ]);
});
