import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateRouteRequest, RoutingStrategy, type RouteRule } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, type TestStack, TEST_TOKEN } from '../support/gateway.js';
import { sandboxCardId } from '../support/sandboxCard.js';

// Targets whose account was deleted after the route was saved, over gRPC and Connect. The sandbox accounts share one secret, so that a card saved at one is charged at any of them.
let stack: TestStack;
let connect: Driver;
let up: string;
let gone: string;
const SECRET = 'sk-route-preview';

const account = async (name: string, baseUrl?: string): Promise<string> =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: SECRET, baseUrl })).providerAccount
    .id as string;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  up = await account('works');
  gone = await account('deleted after the route was saved');
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const chargesAtSandbox = () => stack.gateway.sandboxPsp!.received.get('POST /v1/charges') ?? 0;
const targets = (ids: string[], weights: number[] = []) =>
  ids.map((providerAccountId, index) => ({ providerAccountId, weight: weights[index] ?? 0, fees: [] }));
const rule = (methods: PaymentMethod[], ids: string[], extra: Partial<RouteRule> = {}): Partial<RouteRule> => ({
  paymentMethods: methods,
  strategy: RoutingStrategy.ROUTING_STRATEGY_PRIORITY,
  targets: targets(ids),
  ...extra,
});
const CARD = PaymentMethod.PAYMENT_METHOD_CREDIT_CARD;
const createRoute = (name: string, rules: Partial<RouteRule>[], maxAttempts = 0) =>
  stack.client.call('routes', 'createRoute', CreateRouteRequest.fromPartial({ name, rules, maxAttempts }));
const cardCharge = (route: string, idempotencyKey: string, cardId: string, amount = 1000) =>
  CreateTransactionRequest.fromPartial({ route, idempotencyKey, transaction: { amount, paymentMethod: CARD, cardId } });

describe('a target whose account was deleted after the route was saved', () => {
  it('is skipped by charges, not counted as an attempt; a rule left with none refuses the charge', async () => {
    await createRoute('with-gone', [rule([CARD], [gone, up])]);
    await createRoute('only-gone', [rule([CARD], [gone])]);
    const cardId = await sandboxCardId(stack.client, up);
    await stack.client.call('accounts', 'deleteProviderAccount', { id: gone });
    for (const [index, driver] of [stack.client, connect].entries()) {
      const before = chargesAtSandbox();
      const { transaction } = await driver.call('gateway', 'createTransaction', cardCharge('with-gone', `gone-${index}`, cardId));
      expect(transaction.providerAccountId).toBe(up);
      expect(transaction.routing.attempts).toEqual([expect.objectContaining({ providerAccountId: up, outcome: 'charged', reason: 'priority 2' })]);
      expect(chargesAtSandbox() - before).toBe(1);
      expect(await failureOf(driver.call('gateway', 'createTransaction', cardCharge('only-gone', `only-gone-${index}`, cardId)))).toMatchObject({
        code: 'FAILED_PRECONDITION',
        message: expect.stringContaining('every account of rules[0] was deleted'),
      });
      expect(chargesAtSandbox() - before).toBe(1);
    }
  });
});
