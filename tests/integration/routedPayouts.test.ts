import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateRouteRequest, type RouteRule } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { PixKeyType, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { closedPort } from '../support/closedPort.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { pixRule } from '../support/routes.js';

// PIX payouts that name a route (issue 29 §5): the same rules as charges, matched as a PIX payment of the payout's
// amount; the next target only where the provider certainly did not act. Payouts go over gRPC and Connect alike.
let stack: TestStack;
let connect: Driver;
let down: string;
let up: string;
let pixOnlyCharges: string;

const account = async (name: string, baseUrl?: string, provider = 'SANDBOX'): Promise<string> =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider, name, publicKey: 'pk', secretKey: 'sk-payroute', baseUrl })).providerAccount
    .id as string;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0', SANDBOX_TIMEOUT_MS: '1500' } });
  down = await account('refuses connections', `http://127.0.0.1:${await closedPort()}`);
  up = await account('pays out');
  // BRPIX Digital takes PIX charges and pays nothing out.
  pixOnlyCharges = await account('no payouts', undefined, 'BRPIXDIGITAL');
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const drivers: Array<[string, () => Driver]> = [
  ['gRPC', () => stack.client],
  ['Connect', () => connect],
];
const psp = () => stack.gateway.sandboxPsp!;
const payoutsAtSandbox = () => psp().received.get('POST /v1/withdrawals') ?? 0;
const createRoute = (name: string, rules: Partial<RouteRule>[]) => stack.client.call('routes', 'createRoute', CreateRouteRequest.fromPartial({ name, rules }));
const routedPayout = (route: string, idempotencyKey: string, amount = 1000, paymentMethod = WithdrawMethod.WITHDRAW_METHOD_PIX) =>
  WithdrawRequest.fromPartial({
    route,
    idempotencyKey,
    withdraw: { paymentMethod, amount, pixKey: 'maria@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL, name: 'Maria Souza', description: 'Repasse' },
  });

describe('PIX payouts that name a route', () => {
  beforeAll(async () => {
    await createRoute('payout-failover', [pixRule([down, up])]);
    await createRoute('payout-small', [pixRule([up], { maxAmount: 500 })]);
    await createRoute('payout-no-pix-out', [pixRule([pixOnlyCharges])]);
    await createRoute('payout-skips', [pixRule([pixOnlyCharges, up])]);
  });

  it.each(drivers)("with the first account's provider refusing connections: taken by the second, naming both attempts (%s)", async (name, driver) => {
    const before = payoutsAtSandbox();
    const { withdrawal } = await driver().call('gateway', 'withdraw', routedPayout('payout-failover', `failover-${name}`));
    expect(withdrawal).toMatchObject({ providerAccountId: up, amount: 1000 });
    expect(withdrawal.status).not.toBe(WithdrawStatus.WITHDRAW_STATUS_REJECTED);
    const attempts = [
      { providerAccountId: down, provider: 'SANDBOX', outcome: 'not_sent', reason: expect.stringMatching(/^priority 1; not sent: /) },
      { providerAccountId: up, provider: 'SANDBOX', outcome: 'charged', reason: 'priority 2' },
    ];
    expect(withdrawal.routing).toMatchObject({ routeName: 'payout-failover', ruleIndex: 0, strategy: 'priority', attempts });
    // The first provider saw nothing (its port is closed); the second, one payout.
    expect(payoutsAtSandbox() - before).toBe(1);
    // Read back, the payout still says how it was routed.
    const { withdrawal: read } = await driver().call('gateway', 'getWithdraw', { id: withdrawal.id });
    expect(read.routing).toMatchObject({ routeName: 'payout-failover', attempts });
    // A retry with the same key: the same payout, nothing sent again; the same key with another payout is refused.
    expect((await driver().call('gateway', 'withdraw', routedPayout('payout-failover', `failover-${name}`))).withdrawal.id).toBe(withdrawal.id);
    expect(payoutsAtSandbox() - before).toBe(1);
    expect(await failureOf(driver().call('gateway', 'withdraw', routedPayout('payout-failover', `failover-${name}`, 2000)))).toMatchObject({
      code: 'ALREADY_EXISTS',
    });
  });

  it.each(drivers)('skips the accounts whose provider pays out no PIX, as deleted ones (%s)', async (name, driver) => {
    const { withdrawal } = await driver().call('gateway', 'withdraw', routedPayout('payout-skips', `skips-${name}`));
    expect(withdrawal.providerAccountId).toBe(up);
    expect(withdrawal.routing.attempts).toEqual([{ providerAccountId: up, provider: 'SANDBOX', outcome: 'charged', reason: 'priority 2' }]);
  });

  it.each(drivers)(
    'with the first provider timing out after acting: no fallback, the outcome unknown as without a route, one provider call (%s)',
    async (name, driver) => {
      const second = await account(`second, never reached (${name})`);
      await createRoute(`payout-timeouts-${name}`, [pixRule([up, second])]);
      psp().injectFault({ resource: 'withdrawals', mode: 'slowAnswer', delayMs: 2500 });
      const before = payoutsAtSandbox();
      const key = `timeout-${name}`;
      expect(await failureOf(driver().call('gateway', 'withdraw', routedPayout(`payout-timeouts-${name}`, key)))).toMatchObject({ code: 'UNAVAILABLE' });
      expect(payoutsAtSandbox() - before).toBe(1);
      // The retry neither sends again nor tries the second account: the outcome is being confirmed.
      expect((await failureOf(driver().call('gateway', 'withdraw', routedPayout(`payout-timeouts-${name}`, key)))).message).toContain('still being confirmed');
      expect(payoutsAtSandbox() - before).toBe(1);
      const held = await stack.gateway.useCases!.unknownOutcomes.list();
      expect(held.filter((entry) => entry.providerAccountId === up && entry.key === `${key}:route-attempt-1`)).toHaveLength(1);
      expect(held.filter((entry) => entry.providerAccountId === second)).toHaveLength(0);
    },
  );

  it('are refused with both an account and a route, with neither, with an unknown route, no matching rule, no PIX-payout target or another method', async () => {
    const refused = (request: WithdrawRequest, driver: Driver = stack.client) => failureOf(driver.call('gateway', 'withdraw', request));
    expect(await refused(WithdrawRequest.fromPartial({ ...routedPayout('payout-failover', 'both'), providerAccountId: up }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('either provider_account_id or route'),
    });
    expect(await refused(routedPayout('', 'neither'), connect)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('provider_account_id or route is required'),
    });
    expect(await refused(routedPayout('nowhere', 'unknown'), connect)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('route nowhere not found'),
    });
    expect(await refused(routedPayout('payout-small', 'too-big', 1000))).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining('no rule matches this PIX payout'),
    });
    expect(await refused(routedPayout('payout-no-pix-out', 'no-pix-out'), connect)).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining('pays out by PIX'),
    });
    expect(await refused(routedPayout('payout-failover', 'bank', 1000, WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('withdraw.payment_method must be PIX'),
    });
  });
});
