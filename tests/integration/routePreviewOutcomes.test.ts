import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateRouteRequest, PreviewRouteRequest, RoutingStrategy, type RouteRule } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { closedPort } from '../support/closedPort.js';
import { startTestStack, type TestStack, TEST_TOKEN } from '../support/gateway.js';
import { sandboxCardId } from '../support/sandboxCard.js';

// PreviewRoute, GetRouteOutcomes and targets whose account was deleted after the route was saved, over gRPC and
// Connect. The sandbox accounts share one secret, so that a card saved at one is charged at any of them.
let stack: TestStack;
let connect: Driver;
let down: string;
let up: string;
let spare: string;
let gone: string;
const SECRET = 'sk-route-preview';

const account = async (name: string, baseUrl?: string): Promise<string> =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: SECRET, baseUrl })).providerAccount
    .id as string;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  down = await account('refuses connections', `http://127.0.0.1:${await closedPort()}`);
  up = await account('works');
  spare = await account('spare');
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
const PIX = PaymentMethod.PAYMENT_METHOD_PIX;
const CARD = PaymentMethod.PAYMENT_METHOD_CREDIT_CARD;
const createRoute = (name: string, rules: Partial<RouteRule>[], maxAttempts = 0) =>
  stack.client.call('routes', 'createRoute', CreateRouteRequest.fromPartial({ name, rules, maxAttempts }));
const preview = (driver: Driver, request: Partial<PreviewRouteRequest>) => driver.call('routes', 'previewRoute', PreviewRouteRequest.fromPartial(request));
const cardCharge = (route: string, idempotencyKey: string, cardId: string, amount = 1000) =>
  CreateTransactionRequest.fromPartial({ route, idempotencyKey, transaction: { amount, paymentMethod: CARD, cardId } });

describe('PreviewRoute', () => {
  it('names the matching rule and the targets in the order they would be tried, and why, of a saved route', async () => {
    await createRoute('preview-saved', [rule([PIX], [up], { maxAmount: 500 }), rule([CARD], [down, up, spare])]);
    for (const driver of [stack.client, connect]) {
      const answer = await preview(driver, { id: 'preview-saved', paymentMethod: CARD, amount: 1000 });
      expect(answer).toMatchObject({
        matched: true,
        ruleIndex: 1,
        strategy: RoutingStrategy.ROUTING_STRATEGY_PRIORITY,
        maxAttempts: 2,
        targets: [
          { providerAccountId: down, provider: 'SANDBOX', reason: 'priority 1', tried: true, skippedBecause: '' },
          { providerAccountId: up, provider: 'SANDBOX', reason: 'priority 2', tried: true, skippedBecause: '' },
          { providerAccountId: spare, provider: 'SANDBOX', reason: 'priority 3', tried: false, skippedBecause: 'beyond max_attempts (2)' },
        ],
      });
      expect(await preview(driver, { id: 'preview-saved', paymentMethod: PIX, amount: 400 })).toMatchObject({ matched: true, ruleIndex: 0 });
      // PIX above 500 cents: no rule, which a charge is refused for.
      expect(await preview(driver, { id: 'preview-saved', paymentMethod: PIX, amount: 501 })).toMatchObject({ matched: false, targets: [] });
    }
  });

  it('decides an unsaved weighted rule as the charge with the same idempotency key is then routed', async () => {
    const weighted = rule([CARD], [up, spare], { strategy: RoutingStrategy.ROUTING_STRATEGY_WEIGHTED, targets: targets([up, spare], [50, 50]) });
    await createRoute('preview-weighted', [weighted]);
    const cardId = await sandboxCardId(stack.client, up);
    const firsts = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const key = `weighted-preview-${i}`;
      const driver = i % 2 ? connect : stack.client;
      const answer = await preview(driver, { rules: [weighted as RouteRule], paymentMethod: CARD, amount: 1000, idempotencyKey: key });
      expect(answer.targets.map((target: { reason: string }) => target.reason)).toEqual(['weighted draw (weight 50)', 'weighted draw (weight 50)']);
      const { transaction } = await driver.call('gateway', 'createTransaction', cardCharge('preview-weighted', key, cardId));
      expect(transaction.providerAccountId).toBe(answer.targets[0].providerAccountId);
      firsts.add(transaction.providerAccountId);
    }
    // Twelve draws at 50/50 landing all on one side would be 1 in 2,048: the key, not a constant, decides.
    expect(firsts.size).toBe(2);
  });

  it('refuses a bad sample charge or unsaved route naming the field, and an unknown route', async () => {
    expect(await failureOf(preview(connect, { id: 'preview-saved', paymentMethod: CARD, amount: 0 }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('amount'),
    });
    expect(await failureOf(preview(stack.client, { id: 'preview-saved', amount: 100 }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('payment_method'),
    });
    expect(await failureOf(preview(stack.client, { id: 'preview-saved', paymentMethod: CARD, amount: 100, cardBin: '12' }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('card_bin'),
    });
    const unknownAccount = rule([CARD], ['00000000-0000-4000-8000-000000000000']) as RouteRule;
    expect(await failureOf(preview(connect, { rules: [unknownAccount], paymentMethod: CARD, amount: 100 }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('rules[0].targets[0].provider_account_id'),
    });
    expect(await failureOf(preview(stack.client, { id: 'nowhere', paymentMethod: CARD, amount: 100 }))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('a target whose account was deleted after the route was saved', () => {
  it('is skipped by charges and shown skipped by the preview; a rule left with none refuses the charge', async () => {
    await createRoute('with-gone', [rule([CARD], [gone, up])]);
    await createRoute('only-gone', [rule([CARD], [gone])]);
    const cardId = await sandboxCardId(stack.client, up);
    await stack.client.call('accounts', 'deleteProviderAccount', { id: gone });

    expect(await preview(connect, { id: 'with-gone', paymentMethod: CARD, amount: 1000 })).toMatchObject({
      matched: true,
      targets: [
        { providerAccountId: gone, tried: false, skippedBecause: 'the account is deleted' },
        { providerAccountId: up, tried: true, reason: 'priority 2' },
      ],
    });
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

describe('GetRouteOutcomes', () => {
  it("counts each route's charges of the last 24 hours, approved, declined and fallbacks, per route and per account", async () => {
    await createRoute('outcomes', [rule([CARD], [down, up])]);
    const approvedCard = await sandboxCardId(stack.client, up);
    const declinedCard = await sandboxCardId(stack.client, up, '4000000000000002');
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await stack.client.call('gateway', 'createTransaction', cardCharge('outcomes', `outcome-ok-${i}`, approvedCard))).transaction.status);
    statuses.push((await connect.call('gateway', 'createTransaction', cardCharge('outcomes', 'outcome-declined', declinedCard))).transaction.status);
    expect(statuses).toEqual([
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      TransactionStatus.TRANSACTION_STATUS_REJECTED,
    ]);
    for (const driver of [stack.client, connect]) {
      const { since, routes } = await driver.call('routes', 'getRouteOutcomes', {});
      expect(Date.now() - new Date(since).getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
      const outcomes = routes.find((route: { routeName: string }) => route.routeName === 'outcomes');
      expect(outcomes).toMatchObject({
        counts: { charges: 4, approved: 3, declined: 1, fallbacks: 4 },
        accounts: [
          { providerAccountId: up, provider: 'SANDBOX', counts: { charges: 4, approved: 3, declined: 1, fallbacks: 0 } },
          { providerAccountId: down, provider: 'SANDBOX', counts: { charges: 0, approved: 0, declined: 0, fallbacks: 4 } },
        ],
      });
      // The route with a deleted target: two charges, both at `up`, no fallback (a deleted account is not an attempt).
      expect(routes.find((route: { routeName: string }) => route.routeName === 'with-gone')).toMatchObject({
        counts: { charges: 2, approved: 2, declined: 0, fallbacks: 0 },
        accounts: [{ providerAccountId: up, counts: { charges: 2 } }],
      });
      expect(routes.find((route: { routeName: string }) => route.routeName === 'only-gone')).toBeUndefined();
    }
  });
});
