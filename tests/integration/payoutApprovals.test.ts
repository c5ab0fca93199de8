import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { CreateOperatorRequest, CreateServiceTokenRequest, ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { ListWithdrawalsRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PayoutReviewOutcome, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Four-eyes payouts (issue 33 §5): with PAYOUT_APPROVAL_ABOVE_CENTS set, a
 * payout an operator asks for above it is held and never reaches the
 * provider until a second operator approves it; the one who asked cannot;
 * concurrent approvals send it once, under the request's idempotency key;
 * a rejection cancels it; every step is in the audit trail. Operators call
 * as the back-office does (Connect, session cookie and CSRF token); service
 * tokens over gRPC are not held.
 */

const THRESHOLD = 10_000;
const PAYOUT_PATH = '/api/withdrawals/withdraw';

let stack: TestStack;
let fake: FakeProvider;
let accountId: string;
let ana: Driver;
let bruno: Driver;
let service: Driver;
const ids: Record<'ana' | 'bruno', string> = { ana: '', bruno: '' };

async function signedIn(email: string): Promise<Driver> {
  const { operator } = await stack.client.call(
    'access',
    'createOperator',
    CreateOperatorRequest.fromPartial({ email, role: 'operator', password: 'four-eyes-payouts' }),
  );
  const response = await fetch(`${stack.gateway.httpUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'four-eyes-payouts' }),
  });
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  ids[email.split('@')[0] as 'ana' | 'bruno'] = operator.id;
  return connectDriver(stack.gateway.httpUrl!, null, { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken });
}

beforeAll(async () => {
  stack = await startTestStack({ env: { PAYOUT_APPROVAL_ABOVE_CENTS: String(THRESHOLD), WEBHOOK_WORKERS: '0' } });
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
  ana = await signedIn('ana@example.com');
  bruno = await signedIn('bruno@example.com');
  const { secret } = await stack.client.call(
    'access',
    'createServiceToken',
    CreateServiceTokenRequest.fromPartial({ name: 'payouts service', scopes: ['payouts:write'] }),
  );
  service = grpcDriver(stack.gateway.grpcAddress!, secret);
});
afterAll(async () => {
  ana?.close();
  bruno?.close();
  service?.close();
  await fake?.close();
  await stack?.close();
});
beforeEach(() => {
  fake.reset();
  fake.expect({ method: 'POST', path: '/api/auth/login', times: Infinity, reply: { body: { token: 'vx-jwt' } } });
});

const payoutsSent = () => fake.received.filter((request) => request.path === PAYOUT_PATH);

/** VELTRAX accepts the payout (PENDING); `until` holds its answer. */
function providerAccepts(id: string, until?: Promise<unknown>) {
  return fake.expect({
    method: 'POST',
    path: PAYOUT_PATH,
    reply: { status: 201, until, body: { transactionId: id, withdrawal: { transaction_id: id, status: 'PENDING', amount: 250, fee: 0, total: 250 } } },
  });
}

const withdraw = (driver: Driver, amount: number, idempotencyKey: string, token?: string) =>
  driver.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount, pixKey: 'maria@example.com', name: 'Maria Souza', description: 'Repasse' },
    }),
    token,
  );

it("holds an operator's payout above the threshold: AWAITING_APPROVAL, nothing sent, a retry answers it, a refresh asks nobody", async () => {
  const { withdrawal } = await withdraw(ana, 25_000, 'held-1');
  expect(withdrawal).toMatchObject({
    status: WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL,
    withdrawId: '',
    amount: 25_000,
    requestedBy: 'ana@example.com',
    requestedById: ids.ana,
    request: { pixKey: 'maria@example.com', name: 'Maria Souza', description: 'Repasse' },
  });
  const again = await withdraw(ana, 25_000, 'held-1');
  expect(again.withdrawal.id).toBe(withdrawal.id);
  expect(await failureOf(withdraw(ana, 26_000, 'held-1'))).toMatchObject({ code: 'ALREADY_EXISTS' });
  const refreshed = await ana.call('gateway', 'getWithdraw', { id: withdrawal.id, refresh: true });
  expect(refreshed.withdrawal.status).toBe(WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL);
  const listed = await bruno.call(
    'gateway',
    'listWithdrawals',
    ListWithdrawalsRequest.fromPartial({ statuses: [WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL], pageSize: 10 }),
  );
  expect(listed.withdrawals.map((w: { id: string }) => w.id)).toEqual([withdrawal.id]);
  expect(payoutsSent()).toHaveLength(0);
});

it('refuses self-approval (PERMISSION_DENIED, PAYOUT_SELF_APPROVAL) and approval by a service token; neither sends anything', async () => {
  const { withdrawal } = await withdraw(ana, 30_000, 'self-1');
  const self = ana.call('gateway', 'approveWithdraw', { id: withdrawal.id });
  expect(await failureOf(self)).toEqual({
    code: 'PERMISSION_DENIED',
    message: 'permission denied: a payout is approved by another operator than the one who asked for it',
  });
  expect((await errorDetailsOf(ana.call('gateway', 'approveWithdraw', { id: withdrawal.id }))).reason).toBe('PAYOUT_SELF_APPROVAL');
  expect((await errorDetailsOf(service.call('gateway', 'approveWithdraw', { id: withdrawal.id }))).reason).toBe('PAYOUT_REVIEW_BY_OPERATOR');
  const { withdrawal: still } = await bruno.call('gateway', 'getWithdraw', { id: withdrawal.id });
  expect(still.status).toBe(WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL);
  expect(payoutsSent()).toHaveLength(0);
});

it('a second operator approves: concurrent approvals send it once, under the original key, and a retry of the request answers the same payout', async () => {
  const { withdrawal } = await withdraw(ana, 25_000, 'approved-1');
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const payout = providerAccepts('wd-approved', held);
  // Three approvals at once: one moves it out of AWAITING_APPROVAL and sends it (its answer held); the others answer it as it stands.
  const approvals = Promise.all([1, 2, 3].map(() => bruno.call('gateway', 'approveWithdraw', { id: withdrawal.id })));
  await eventually(async () => payoutsSent().length === 1, 10_000, 'the winning approval at the provider');
  release();
  const answers = (await approvals).map((answer) => answer.withdrawal);
  for (const answered of answers) expect(answered).toMatchObject({ id: withdrawal.id, status: WithdrawStatus.WITHDRAW_STATUS_PENDING });
  const sent = answers.find((answered) => answered.withdrawId === 'wd-approved');
  expect(sent).toMatchObject({
    id: withdrawal.id,
    status: WithdrawStatus.WITHDRAW_STATUS_PENDING,
    withdrawId: 'wd-approved',
    requestedBy: 'ana@example.com',
    review: { outcome: PayoutReviewOutcome.PAYOUT_REVIEW_OUTCOME_APPROVED, reviewedBy: 'bruno@example.com', reviewedById: ids.bruno },
  });
  expect(payout.calls).toHaveLength(1);
  expect(payout.calls[0]!.body).toMatchObject({ amount: 250, pix_key: 'maria@example.com', description: 'Repasse' });
  // Approved again, or asked again with its key: the same payout, nothing more sent.
  expect((await bruno.call('gateway', 'approveWithdraw', { id: withdrawal.id })).withdrawal.withdrawId).toBe('wd-approved');
  expect((await withdraw(ana, 25_000, 'approved-1')).withdrawal.id).toBe(withdrawal.id);
  expect(payoutsSent()).toHaveLength(1);
  expect(sent.statusHistory.map((change: { status: WithdrawStatus }) => change.status)).toEqual([
    WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL,
    WithdrawStatus.WITHDRAW_STATUS_PENDING,
  ]);

  const { events } = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ resource: withdrawal.id, pageSize: 50 }));
  const steps = (events as { actorName: string; action: string; outcome: string }[]).map((e) => `${e.actorName} ${e.action.split('/')[1]} ${e.outcome}`);
  expect(steps).toEqual(expect.arrayContaining(['ana@example.com Withdraw OK', 'bruno@example.com ApproveWithdraw OK']));
});

it('a second operator rejects: CANCELED with the reason, never sent; it cannot be approved afterwards (FAILED_PRECONDITION)', async () => {
  const { withdrawal } = await withdraw(ana, 40_000, 'rejected-1');
  const { withdrawal: rejected } = await bruno.call('gateway', 'rejectWithdraw', { id: withdrawal.id, reason: 'Chave não confere com o cadastro' });
  expect(rejected).toMatchObject({
    status: WithdrawStatus.WITHDRAW_STATUS_CANCELED,
    refusalReason: 'Chave não confere com o cadastro',
    review: { outcome: PayoutReviewOutcome.PAYOUT_REVIEW_OUTCOME_REJECTED, reviewedBy: 'bruno@example.com' },
  });
  expect(await failureOf(bruno.call('gateway', 'approveWithdraw', { id: withdrawal.id }))).toEqual({
    code: 'FAILED_PRECONDITION',
    message: `withdrawal ${withdrawal.id} is not awaiting approval (it is CANCELED)`,
  });
  expect(payoutsSent()).toHaveLength(0);
});

it("the provider's refusal of an approved payout leaves it REJECTED with the provider's text as the refusal reason", async () => {
  const { withdrawal } = await withdraw(ana, 25_000, 'refused-1');
  fake.expect({ method: 'POST', path: PAYOUT_PATH, reply: { status: 400, body: { message: 'Saldo insuficiente' } } });
  const failure = await failureOf(bruno.call('gateway', 'approveWithdraw', { id: withdrawal.id }));
  const { withdrawal: refused } = await ana.call('gateway', 'getWithdraw', { id: withdrawal.id });
  expect(refused.status).toBe(WithdrawStatus.WITHDRAW_STATUS_REJECTED);
  expect(refused.refusalReason).toBe(failure.message);
  expect(refused.refusalReason).toContain('Saldo insuficiente');
  expect(payoutsSent()).toHaveLength(1);
});

it('sends at once: an operator at or below the threshold, and a service token above it (API callers are not held)', async () => {
  providerAccepts('wd-small');
  const small = await withdraw(ana, THRESHOLD, 'small-1');
  expect(small.withdrawal).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, withdrawId: 'wd-small', requestedBy: 'ana@example.com' });
  providerAccepts('wd-service');
  const big = await withdraw(service, 50_000, 'service-1');
  expect(big.withdrawal).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, withdrawId: 'wd-service', requestedBy: 'payouts service' });
  expect(payoutsSent()).toHaveLength(2);
});

it('refuses a route on a payout that would wait for approval: FAILED_PRECONDITION on route, nothing held or sent', async () => {
  const routed = WithdrawRequest.fromPartial({
    route: 'any-route',
    idempotencyKey: 'routed-held',
    withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 25_000, pixKey: 'maria@example.com', name: 'Maria Souza' },
  });
  const stored = async () => (await bruno.call('gateway', 'listWithdrawals', ListWithdrawalsRequest.fromPartial({ pageSize: 100 }))).withdrawals.length;
  const before = await stored();
  expect(await failureOf(ana.call('gateway', 'withdraw', routed))).toMatchObject({
    code: 'FAILED_PRECONDITION',
    message: expect.stringContaining('waits for a second operator and cannot take a route'),
  });
  const details = await errorDetailsOf(ana.call('gateway', 'withdraw', routed));
  expect(details.reason).toBe('ROUTED_PAYOUT_NEEDS_APPROVAL');
  expect(await stored()).toBe(before);
  expect(payoutsSent()).toHaveLength(0);
});
