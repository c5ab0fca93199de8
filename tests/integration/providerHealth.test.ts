import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetRoutingHealthRequest } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { PaymentMethod, PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §7: provider health counts every provider call, where it is made: charges named by account (no route),
 * payouts, failures; per account and operation, with p50/p95 from a fixed-bucket histogram, over the last hour
 * (sharedProviderHealth.test.ts: summed over the processes, kept across restarts).
 */
let stack: TestStack;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'direta', publicKey: 'pk', secretKey: 'sk-saude' }));
});
afterAll(async () => {
  await stack?.close();
});

const charge = (amount: number) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );

const health = async () => {
  const answer = await stack.client.call('routes', 'getRoutingHealth', GetRoutingHealthRequest.fromPartial({}));
  return {
    since: answer.countingSince as Date,
    rows: (answer.accounts as { providerAccountId: string; operation: string }[]).filter((row) => row.providerAccountId === accountId),
  };
};

it('charges made directly at an account and its payouts appear, each with rates and p50/p95, over the last hour', async () => {
  expect((await health()).rows).toEqual([]);

  // 20 direct charges, two of them answered 600 ms late: the 95th percentile (the 19th of 20) falls in the 1000 ms bucket.
  for (let n = 0; n < 18; n++) await charge(100 + n);
  stack.gateway.sandboxPsp!.injectFault({ resource: 'charges', mode: 'slowAnswer', delayMs: 600 });
  stack.gateway.sandboxPsp!.injectFault({ resource: 'charges', mode: 'slowAnswer', delayMs: 600 });
  await charge(500);
  await charge(501);
  // A call lost on the way is an error at the provider call.
  stack.gateway.sandboxPsp!.injectFault({ resource: 'charges', mode: 'dropWithoutActing' });
  expect((await failureOf(charge(502))).code).toBe('UNAVAILABLE');

  await stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey: 'saude-saque-1',
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 777, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    }),
  );

  const { since, rows } = await health();
  // The first of the last 60 minutes, the current one included.
  expect(since.getTime() % 60_000).toBe(0);
  expect(Date.now() - since.getTime()).toBeGreaterThan(59 * 60_000);
  expect(Date.now() - since.getTime()).toBeLessThanOrEqual(60 * 60_000);
  const byOperation = Object.fromEntries(rows.map((row) => [row.operation, row]));
  expect(Object.keys(byOperation).sort()).toEqual(['charge', 'payout']);
  expect(byOperation.charge).toMatchObject({ provider: 'SANDBOX', attempts: 21, approvalRate: 1, errorRate: 1 / 21, p95LatencyMs: 1000 });
  expect((byOperation.charge as unknown as { p50LatencyMs: number }).p50LatencyMs).toBeLessThan(1000);
  expect(byOperation.payout).toMatchObject({ provider: 'SANDBOX', attempts: 1, approvalRate: 1, errorRate: 0 });
  expect((byOperation.payout as unknown as { p95LatencyMs: number }).p95LatencyMs).toBeGreaterThan(0);
});

it('a replayed charge (same idempotency key) does not count again: it never reached the provider', async () => {
  const request = CreateTransactionRequest.fromPartial({
    providerAccountId: accountId,
    idempotencyKey: 'saude-repetida',
    transaction: { amount: 4321, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
  });
  const before = (await health()).rows.find((row) => row.operation === 'charge') as unknown as { attempts: number };
  await stack.client.call('gateway', 'createTransaction', request);
  await stack.client.call('gateway', 'createTransaction', request);
  const after = (await health()).rows.find((row) => row.operation === 'charge') as unknown as { attempts: number };
  expect(after.attempts).toBe(before.attempts + 1);
});
