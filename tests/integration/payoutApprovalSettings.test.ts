import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { CreateOperatorRequest, ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The four-eyes limit set in the back-office (issue 33 §5): PAYOUT_APPROVAL_ABOVE_CENTS is its first value; an admin
 * changes it (UpdatePayoutApprovalSettings, accounts:admin), the change is audited with the value before and after,
 * and the next operator's payout obeys the new value (above it: held; at or below: sent). 0 turns the review off.
 * A viewer (and an operator) may read the limit but not change it.
 */
const ENV_LIMIT = 10_000;
const PAYOUT_PATH = '/api/withdrawals/withdraw';
const UPDATE = 'gateway.v1.AccessService/UpdatePayoutApprovalSettings';

let stack: TestStack;
let fake: FakeProvider;
let accountId: string;
let ana: Driver;
let vera: Driver;

async function signedIn(email: string, role: 'operator' | 'viewer'): Promise<Driver> {
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email, role, password: 'limite-de-aprovacao' }));
  const response = await fetch(`${stack.gateway.httpUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'limite-de-aprovacao' }),
  });
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return connectDriver(stack.gateway.httpUrl!, null, { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken });
}

beforeAll(async () => {
  stack = await startTestStack({ env: { PAYOUT_APPROVAL_ABOVE_CENTS: String(ENV_LIMIT), WEBHOOK_WORKERS: '0' } });
  fake = await startFakeProvider();
  accountId = (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'VELTRAX',
      name: 'Repasses',
      publicKey: 'vx-client',
      secretKey: 'vx-secret',
      baseUrl: fake.url,
    })
  ).providerAccount.id;
  ana = await signedIn('ana@example.com', 'operator');
  vera = await signedIn('vera@example.com', 'viewer');
});
afterAll(async () => {
  ana?.close();
  vera?.close();
  await fake?.close();
  await stack?.close();
});
beforeEach(() => {
  fake.reset();
  fake.expect({ method: 'POST', path: '/api/auth/login', times: Infinity, reply: { body: { token: 'vx-jwt' } } });
  fake.expect({
    method: 'POST',
    path: PAYOUT_PATH,
    times: Infinity,
    reply: { status: 201, body: { transactionId: 'vx-1', withdrawal: { transaction_id: 'vx-1', status: 'PENDING', amount: 250, fee: 0, total: 250 } } },
  });
});

const payoutsSent = () => fake.received.filter((request) => request.path === PAYOUT_PATH).length;

const withdraw = (amount: number, idempotencyKey: string) =>
  ana.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount, pixKey: 'maria@example.com', name: 'Maria Souza', description: 'Repasse' },
    }),
  );

const setLimit = (approvalAboveCents: number, driver?: Driver) =>
  (driver ?? stack.client).call('access', 'updatePayoutApprovalSettings', { approvalAboveCents });

it('starts from PAYOUT_APPROVAL_ABOVE_CENTS, and an operator and a viewer can read it', async () => {
  for (const driver of [stack.client, ana, vera])
    await expect(driver.call('access', 'getPayoutApprovalSettings', {})).resolves.toMatchObject({
      settings: { approvalAboveCents: ENV_LIMIT, fromEnvironment: true },
    });
});

it('an admin raises the limit: the next payout below it is sent, one above it waits; the change is audited', async () => {
  const { settings } = await setLimit(50_000);
  expect(settings).toMatchObject({ approvalAboveCents: 50_000, fromEnvironment: false });
  expect(settings!.updatedAt).toBeInstanceOf(Date);

  // 25 000 waited under the environment's 10 000: now it is sent.
  const below = await withdraw(25_000, 'below-new-limit');
  expect(below.withdrawal!.status).not.toBe(WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL);
  expect(payoutsSent()).toBe(1);
  const above = await withdraw(60_000, 'above-new-limit');
  expect(above.withdrawal!.status).toBe(WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL);
  expect(payoutsSent()).toBe(1);

  const { events } = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ action: UPDATE, pageSize: 50 }));
  const rows = (events as { outcome: string; detail: string }[]).filter((event) => event.outcome === 'OK');
  expect(rows.map((event) => JSON.parse(event.detail) as unknown)).toContainEqual({ before: ENV_LIMIT, after: 50_000 });
  // Its own row, written with the change: not a second one by the transport.
  expect(rows).toHaveLength(1);
});

it('0 turns the review off: a large payout is sent; the audit row says so', async () => {
  await setLimit(0);
  await expect(stack.client.call('access', 'getPayoutApprovalSettings', {})).resolves.toMatchObject({ settings: { fromEnvironment: false } });
  expect((await stack.client.call('access', 'getPayoutApprovalSettings', {})).settings?.approvalAboveCents).toBeUndefined();
  const large = await withdraw(5_000_000, 'no-review');
  expect(large.withdrawal!.status).not.toBe(WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL);
  expect(payoutsSent()).toBe(1);
  const { events } = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ action: UPDATE, pageSize: 50 }));
  expect((events as { detail: string; outcome: string }[]).filter((e) => e.outcome === 'OK').map((e) => JSON.parse(e.detail) as unknown)).toContainEqual({
    before: 50_000,
    after: null,
  });
});

it('refuses a viewer and an operator (accounts:admin), and a limit that is not whole cents from 0', async () => {
  for (const driver of [vera, ana]) {
    await expect(failureOf(setLimit(1, driver))).resolves.toMatchObject({ code: 'PERMISSION_DENIED' });
  }
  await expect(errorDetailsOf(setLimit(-1))).resolves.toMatchObject({ reason: 'INVALID_ARGUMENT', fields: ['approval_above_cents'] });
  await expect(failureOf(setLimit(-1))).resolves.toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/^approval_above_cents must be a whole number of cents from 0/),
  });
  // Nothing changed: still off from the test before.
  expect((await stack.client.call('access', 'getPayoutApprovalSettings', {})).settings?.approvalAboveCents).toBeUndefined();
});
