import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateCardIdRequest, CreateCardTokenRequest, CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateRouteRequest, RoutingStrategy, UpdateRouteRequest, type RouteRule } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { closedPort } from '../support/closedPort.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { pixRule } from '../support/routes.js';
import { SandboxPsp } from '../../server/sandbox/psp.js';
import { samplesOf, scrape, valueOf } from '../support/metrics.js';

// Two sandbox accounts behind routes: one whose provider refuses connections, one that works; and the sandbox made to
// answer after the gateway gave up. Charges go over gRPC and Connect alike.
let stack: TestStack;
let connect: Driver;
let down: string;
let up: string;
let deleted: string;
const SECRET = 'sk-routing';

const account = async (name: string, baseUrl?: string): Promise<string> =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: SECRET, baseUrl })).providerAccount
    .id as string;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0', SANDBOX_TIMEOUT_MS: '1500' } });
  down = await account('refuses connections', `http://127.0.0.1:${await closedPort()}`);
  up = await account('works');
  deleted = await account('deleted');
  await stack.client.call('accounts', 'deleteProviderAccount', { id: deleted });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const psp = () => stack.gateway.sandboxPsp!;
const chargesAtSandbox = () => psp().received.get('POST /v1/charges') ?? 0;
const createRoute = (name: string, rules: Partial<RouteRule>[], driver: Driver = stack.client) =>
  driver.call('routes', 'createRoute', CreateRouteRequest.fromPartial({ name, rules }));
const routedCharge = (route: string, idempotencyKey: string, amount = 1000) =>
  CreateTransactionRequest.fromPartial({ route, idempotencyKey, transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } });

describe('routes as data', () => {
  it('are created, read by name or id, listed, replaced and deleted', async () => {
    const { route } = await createRoute('crud', [pixRule([up])]);
    expect(route).toMatchObject({ name: 'crud', rules: [expect.objectContaining({ targets: [expect.objectContaining({ providerAccountId: up })] })] });
    expect((await connect.call('routes', 'getRoute', { id: 'crud' })).route.id).toBe(route.id);
    expect((await stack.client.call('routes', 'listRoutes', {})).routes.map((r: { name: string }) => r.name)).toContain('crud');
    const { route: updated } = await stack.client.call(
      'routes',
      'updateRoute',
      UpdateRouteRequest.fromPartial({ id: route.id, name: 'crud-2', rules: [pixRule([up, down])] }),
    );
    expect(updated.rules[0].targets).toHaveLength(2);
    await stack.client.call('routes', 'deleteRoute', { id: route.id });
    expect(await failureOf(stack.client.call('routes', 'getRoute', { id: route.id }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('are refused when saved with a deleted or unknown account, weights that do not add up, or an account whose provider lacks the method', async () => {
    const refusal = (rules: Partial<RouteRule>[], name = 'bad') => failureOf(createRoute(name, rules));
    expect(await refusal([pixRule([deleted])])).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining('rules[0].targets[0].provider_account_id'),
    });
    expect(await refusal([pixRule(['00000000-0000-4000-8000-000000000000'])])).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('rules[0].targets[0].provider_account_id'),
    });
    const weighted = pixRule([], {
      strategy: RoutingStrategy.ROUTING_STRATEGY_WEIGHTED,
      targets: [
        { providerAccountId: up, weight: 70, fees: [] },
        { providerAccountId: down, weight: 20, fees: [] },
      ],
    });
    expect(await refusal([weighted])).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('weights add up to 90, not 100') });
    // BRPIX Digital takes PIX only.
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'BRPIXDIGITAL',
      name: 'pix only',
      publicKey: 'pk',
      secretKey: 'sk',
    });
    expect(await refusal([pixRule([up, providerAccount.id], { paymentMethods: [PaymentMethod.PAYMENT_METHOD_CREDIT_CARD] })])).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringMatching(/rules\[0\]\.targets\[1\]\.provider_account_id: .*does not take CREDIT_CARD/),
    });
    expect(await refusal([])).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('rules') });
    await createRoute('taken', [pixRule([up])]);
    expect(await refusal([pixRule([up])], 'taken')).toMatchObject({ code: 'ALREADY_EXISTS' });
  });
});

describe('charges that name a route', () => {
  it('are refused with both an account and a route, with neither, with an unknown route, or when no rule matches', async () => {
    await createRoute('small-pix', [pixRule([up], { maxAmount: 500 })]);
    const both = CreateTransactionRequest.fromPartial({ ...routedCharge('small-pix', 'both'), providerAccountId: up });
    expect(await failureOf(stack.client.call('gateway', 'createTransaction', both))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('either provider_account_id or route'),
    });
    const neither = CreateTransactionRequest.fromPartial({ ...routedCharge('', 'neither') });
    expect(await failureOf(stack.client.call('gateway', 'createTransaction', neither))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('provider_account_id or route is required'),
    });
    expect(await failureOf(connect.call('gateway', 'createTransaction', routedCharge('nowhere', 'unknown')))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('route nowhere not found'),
    });
    expect(await failureOf(stack.client.call('gateway', 'createTransaction', routedCharge('small-pix', 'too-big', 1000)))).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining('no rule matches'),
    });
  });

  it("with the first account's provider refusing connections: 100 charges all taken by the second, each naming both attempts", async () => {
    await createRoute('failover', [pixRule([down, up])]);
    const before = chargesAtSandbox();
    for (let i = 0; i < 100; i++) {
      const { transaction } = await (i % 2 ? connect : stack.client).call('gateway', 'createTransaction', routedCharge('failover', `failover-${i}`));
      expect(transaction.providerAccountId).toBe(up);
      expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
      expect(transaction.routing).toMatchObject({
        routeName: 'failover',
        ruleIndex: 0,
        strategy: 'priority',
        attempts: [
          { providerAccountId: down, provider: 'SANDBOX', outcome: 'not_sent', reason: expect.stringMatching(/^priority 1; not sent: /) },
          { providerAccountId: up, provider: 'SANDBOX', outcome: 'charged', reason: 'priority 2' },
        ],
      });
    }
    expect(chargesAtSandbox() - before).toBe(100);
    // Read back, the charge still says how it was routed.
    const { transaction: first } = await stack.client.call('gateway', 'createTransaction', routedCharge('failover', 'failover-0'));
    const { transaction: read } = await connect.call('gateway', 'getTransaction', { id: first.id });
    expect(read.routing.attempts.map((attempt: { outcome: string }) => attempt.outcome)).toEqual(['not_sent', 'charged']);
    expect(chargesAtSandbox() - before).toBe(100);
  });

  it('a retry with the same key answers the first charge, at whatever account took it, without a second provider call', async () => {
    await createRoute('replayed', [pixRule([down, up])]);
    const first = await stack.client.call('gateway', 'createTransaction', routedCharge('replayed', 'replay-1'));
    const before = chargesAtSandbox();
    const again = await connect.call('gateway', 'createTransaction', routedCharge('replayed', 'replay-1'));
    expect(again.transaction.id).toBe(first.transaction.id);
    expect(chargesAtSandbox()).toBe(before);
    expect(await failureOf(stack.client.call('gateway', 'createTransaction', routedCharge('replayed', 'replay-1', 2000)))).toMatchObject({
      code: 'ALREADY_EXISTS',
    });
  });

  it('with the first provider timing out after acting: no fallback, the charge unknown as without a route, one provider call each', async () => {
    const secondAccount = await account('second, never reached');
    await createRoute('timeouts', [pixRule([up, secondAccount])]);
    // Fewer than the five failures that open the circuit: an open circuit is a refusal before sending, and falls back.
    for (let i = 0; i < 3; i++) {
      psp().injectFault({ resource: 'charges', mode: 'slowAnswer', delayMs: 2500 });
      const before = chargesAtSandbox();
      const driver = i % 2 ? connect : stack.client;
      const failure = await failureOf(driver.call('gateway', 'createTransaction', routedCharge('timeouts', `timeout-${i}`)));
      expect(failure).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/^Erro ao criar transação: timeout/) });
      expect(chargesAtSandbox() - before).toBe(1);
      // The retry neither sends again nor tries the second account: the outcome is being confirmed.
      expect((await failureOf(driver.call('gateway', 'createTransaction', routedCharge('timeouts', `timeout-${i}`)))).message).toContain(
        'still being confirmed',
      );
      expect(chargesAtSandbox() - before).toBe(1);
    }
    const held = await stack.gateway.useCases!.unknownOutcomes.list();
    expect(held.filter((key) => key.providerAccountId === up && key.key.startsWith('timeout-'))).toHaveLength(3);
    expect(held.filter((key) => key.providerAccountId === secondAccount)).toHaveLength(0);
  });
});

describe('card soft declines', () => {
  // Two accounts with one secret at one provider share its saved cards, so a card saved once can be charged at either.
  let first: string;
  let second: string;
  let cardId: string;
  beforeAll(async () => {
    first = await account('cards first');
    second = await account('cards second');
    const card = { cardNumber: '4111111111111111', holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' };
    const { cardToken } = await stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: first, card }));
    cardId = (await stack.client.call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId: first, cardToken }))).cardId;
    await createRoute('cards', [pixRule([first, second], { paymentMethods: [PaymentMethod.PAYMENT_METHOD_CREDIT_CARD] })]);
  });
  const cardCharge = (idempotencyKey: string) =>
    CreateTransactionRequest.fromPartial({
      route: 'cards',
      idempotencyKey,
      transaction: { amount: 5000, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, installments: 1, cardId },
    });

  it.each([
    ['gRPC', 0],
    ['Connect', 1],
  ])('a soft decline at the first account is approved at the second, the charge naming both attempts (%s)', async (_name, index) => {
    const driver = index ? connect : stack.client;
    psp().injectFault({ resource: 'charges', mode: 'decline', declineReason: 'do_not_honor' });
    const before = chargesAtSandbox();
    const { transaction } = await driver.call('gateway', 'createTransaction', cardCharge(`soft-${index}`));
    expect(transaction).toMatchObject({ providerAccountId: second, status: TransactionStatus.TRANSACTION_STATUS_APPROVED });
    expect(transaction.routing.attempts).toEqual([
      { providerAccountId: first, provider: 'SANDBOX', outcome: 'soft_declined', reason: 'priority 1; declined: do_not_honor' },
      { providerAccountId: second, provider: 'SANDBOX', outcome: 'charged', reason: 'priority 2' },
    ]);
    expect(chargesAtSandbox() - before).toBe(2);
    // Read back and retried with the same key: the same charge, nothing sent again.
    expect((await driver.call('gateway', 'getTransaction', { id: transaction.id })).transaction.routing.attempts).toHaveLength(2);
    expect((await driver.call('gateway', 'createTransaction', cardCharge(`soft-${index}`))).transaction.id).toBe(transaction.id);
    expect(chargesAtSandbox() - before).toBe(2);
  });

  it.each([
    ['gRPC', 'stolen_card', 0],
    ['Connect', 'insufficient_funds', 1],
  ])('a hard decline is answered as it is, after one provider call (%s, %s)', async (_name, declineReason, index) => {
    const driver = index ? connect : stack.client;
    psp().injectFault({ resource: 'charges', mode: 'decline', declineReason });
    const before = chargesAtSandbox();
    const { transaction } = await driver.call('gateway', 'createTransaction', cardCharge(`hard-${index}`));
    expect(transaction).toMatchObject({ providerAccountId: first, status: TransactionStatus.TRANSACTION_STATUS_REJECTED });
    expect(transaction.routing.attempts).toEqual([{ providerAccountId: first, provider: 'SANDBOX', outcome: 'charged', reason: 'priority 1' }]);
    expect(chargesAtSandbox() - before).toBe(1);
  });

  it('a route saved with a hard decline on its list is refused, naming the entry', async () => {
    const failure = await failureOf(
      stack.client.call(
        'routes',
        'createRoute',
        CreateRouteRequest.fromPartial({ name: 'fraud-retried', rules: [pixRule([first])], softDeclineCodes: ['do_not_honor', 'fraudulent'] }),
      ),
    );
    expect(failure).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('soft_decline_codes[1]') });
    const { route } = await connect.call(
      'routes',
      'createRoute',
      CreateRouteRequest.fromPartial({ name: 'own-list', rules: [pixRule([first])], softDeclineCodes: ['Generic_Decline'] }),
    );
    expect(route.softDeclineCodes).toEqual(['generic_decline']);
  });
});

describe('best_approval', () => {
  it('moves traffic away from an account whose approvals fall, within the window, over gRPC and Connect', async () => {
    // The first account's provider is a sandbox of its own, so that only it can be made to decline.
    const other = await new SandboxPsp().start();
    try {
      const declining = await account('starts declining', other.url);
      const steady = await account('steady');
      await createRoute('best', [pixRule([declining, steady], { strategy: RoutingStrategy.ROUTING_STRATEGY_BEST_APPROVAL })]);
      const charge = async (i: number) =>
        (await (i % 2 ? connect : stack.client).call('gateway', 'createTransaction', routedCharge('best', `best-${i}`))).transaction;
      // Both approve (a PIX charge PENDING is not a decline): ties keep the listed order, bar the exploring share.
      const before = { declining: 0, steady: 0 };
      for (let i = 0; i < 40; i++) before[(await charge(i)).providerAccountId === declining ? 'declining' : 'steady'] += 1;
      expect(before.declining).toBeGreaterThanOrEqual(34);
      // From now on every charge at the first account is declined.
      for (let i = 0; i < 100; i++) other.injectFault({ resource: 'charges', mode: 'decline', declineReason: 'do_not_honor' });
      const after = { declining: 0, steady: 0, rejected: 0 };
      for (let i = 40; i < 100; i++) {
        const transaction = await charge(i);
        after[transaction.providerAccountId === declining ? 'declining' : 'steady'] += 1;
        if (transaction.status === TransactionStatus.TRANSACTION_STATUS_REJECTED) after.rejected += 1;
      }
      // The first decline puts it behind; it then gets only the exploring share, each of which it declines.
      expect(after.declining).toBeLessThanOrEqual(8);
      expect(after.steady).toBeGreaterThanOrEqual(52);
      expect(after.rejected).toBe(after.declining);
      expect(other.received.get('POST /v1/charges')).toBe(before.declining + after.declining);
      const { accounts } = await connect.call('routes', 'getRoutingHealth', {});
      const rate = accounts.find((health: { providerAccountId: string }) => health.providerAccountId === declining).approvalRate;
      expect(rate).toBeCloseTo(before.declining / (before.declining + after.declining), 5);
    } finally {
      await other.stop();
    }
  });
});

describe('routing health', () => {
  it("shows the refusing account's circuit open and its attempts all errors, and the working one's charges accepted", async () => {
    const { accounts } = await connect.call('routes', 'getRoutingHealth', {});
    const of = (id: string) => accounts.find((account: { providerAccountId: string }) => account.providerAccountId === id);
    expect(of(down)).toMatchObject({ provider: 'SANDBOX', circuitState: 'open', errorRate: 1 });
    expect(of(down).attempts).toBeGreaterThanOrEqual(100);
    expect(of(up)).toMatchObject({ circuitState: 'closed', approvalRate: 1 });
    expect(of(up).attempts).toBeGreaterThanOrEqual(100);
  });

  it('is on /metrics: circuit state, attempts, approval and error rates, mean attempt time, per account', async () => {
    const samples = await scrape(stack.gateway.metricsUrl!);
    const at = (name: string, id: string) => valueOf(samples, name, { provider: 'SANDBOX', provider_account_id: id });
    const { accounts } = await stack.client.call('routes', 'getRoutingHealth', {});
    for (const health of accounts as { providerAccountId: string; attempts: number; approvalRate: number; errorRate: number; meanLatencyMs: number }[]) {
      expect(at('gateway_routing_attempts', health.providerAccountId)).toBe(health.attempts);
      expect(at('gateway_routing_approval_rate', health.providerAccountId)).toBeCloseTo(health.approvalRate, 6);
      expect(at('gateway_routing_error_rate', health.providerAccountId)).toBeCloseTo(health.errorRate, 6);
    }
    expect(at('gateway_circuit_state', down)).toBe(2);
    expect(at('gateway_routing_error_rate', down)).toBe(1);
    expect(at('gateway_routing_approval_rate', up)).toBe(1);
    expect(at('gateway_routing_attempts', up)).toBeGreaterThanOrEqual(100);
    expect(at('gateway_routing_attempt_mean_seconds', up)).toBeGreaterThan(0);
    // An account whose charges were declined shows it (the best_approval test's first account).
    const rates = samplesOf(samples, 'gateway_routing_approval_rate').map((sample) => sample.value);
    expect(Math.min(...rates)).toBeLessThan(1);
  });
});
