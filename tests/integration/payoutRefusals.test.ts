import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { GetWithdrawRequest, ListWithdrawalsRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PixKeyType, StatusSource, WebhookOutcome, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_FAILING_PIX_KEY, SANDBOX_FAILURE_REASON, SANDBOX_REFUSAL_MESSAGE, SANDBOX_REFUSED_PIX_KEY } from '../../server/sandbox/api.js';
import { errorDetailsOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { reprocessReceived } from '../support/webhookNotifications.js';

/**
 * A refused payout is a record with its reason (issue 33 §5): one its provider refuses when asked is kept REJECTED
 * with the provider's text (listed, readable, never paid out), and its idempotency key answers the same refusal
 * without asking the provider again; one the provider refuses later says why, from the notification or the read.
 */

let stack: TestStack;
beforeAll(async () => {
  // No notification workers: each stored notification is processed when the test reprocesses it.
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
});
afterAll(async () => {
  await stack?.close();
});

const psp = () => stack.gateway.sandboxPsp!;

async function account(name: string, webhookSecret?: string): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name,
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret,
  });
  return providerAccount.id;
}

const payout = (providerAccountId: string, pixKey: string, idempotencyKey = '') =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId,
      idempotencyKey,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, pixKey, pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    }),
  );
const read = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;
const listed = async (providerAccountId: string) =>
  (await stack.client.call('gateway', 'listWithdrawals', ListWithdrawalsRequest.fromPartial({ providerAccountId, pageSize: 10 }))).withdrawals;
const failureOf = async (call: Promise<unknown>) => {
  const error = (await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { code: number; details: string } | undefined;
  if (!error) throw new Error('the payout was accepted, a refusal was expected');
  return { code: error.code, message: error.details, ...(await errorDetailsOf(Promise.reject(error))) };
};
const sentPayouts = () => psp().received.get('POST /v1/withdrawals') ?? 0;

it('a payout refused when asked is a REJECTED record with the provider’s text, listed, and its key replays the refusal without a second call', async () => {
  const accountId = await account('refused at once');
  const before = sentPayouts();
  const first = await failureOf(payout(accountId, SANDBOX_REFUSED_PIX_KEY, 'refused-1'));
  expect(first.message).toContain(SANDBOX_REFUSAL_MESSAGE);
  const id = first.metadata?.withdrawal_id;
  expect(id).toBeTruthy();
  expect(sentPayouts()).toBe(before + 1);

  const withdrawal = await read(id!);
  expect(withdrawal).toMatchObject({
    providerAccountId: accountId,
    status: WithdrawStatus.WITHDRAW_STATUS_REJECTED,
    amount: 2500,
    withdrawId: '',
    refusalReason: first.message,
    request: expect.objectContaining({ pixKey: SANDBOX_REFUSED_PIX_KEY }),
  });
  expect(withdrawal.statusHistory.map((change: any) => [change.status, change.source])).toEqual([
    [WithdrawStatus.WITHDRAW_STATUS_REJECTED, StatusSource.STATUS_SOURCE_API],
  ]);
  expect((await listed(accountId)).map((listedOne: any) => [listedOne.id, listedOne.status, listedOne.refusalReason])).toEqual([
    [id, WithdrawStatus.WITHDRAW_STATUS_REJECTED, first.message],
  ]);

  // The same request with the same key: the same answer, from the key, not from the provider; still one record.
  const again = await failureOf(payout(accountId, SANDBOX_REFUSED_PIX_KEY, 'refused-1'));
  expect(again).toEqual(first);
  expect(sentPayouts()).toBe(before + 1);
  expect(await listed(accountId)).toHaveLength(1);
});

it('a payout refused when asked without a key is recorded too', async () => {
  const accountId = await account('refused without key');
  const refused = await failureOf(payout(accountId, SANDBOX_REFUSED_PIX_KEY));
  expect((await listed(accountId)).map((one: any) => [one.id, one.status, one.refusalReason])).toEqual([
    [refused.metadata?.withdrawal_id, WithdrawStatus.WITHDRAW_STATUS_REJECTED, refused.message],
  ]);
});

it('a payout whose outcome is unknown keeps no REJECTED record: its key waits for the outcome', async () => {
  const accountId = await account('unknown outcome');
  psp().injectFault({ resource: 'withdrawals', mode: 'errorAfterActing' });
  const unknown = await failureOf(payout(accountId, 'seller@example.com', 'unknown-1'));
  expect(unknown.metadata?.withdrawal_id).toBeUndefined();
  expect(await listed(accountId)).toEqual([]);
  const retried = await failureOf(payout(accountId, 'seller@example.com', 'unknown-1'));
  expect(retried.reason).toBe('IDEMPOTENCY_OUTCOME_UNKNOWN');
});

const processNotification = (providerAccountId: string) => reprocessReceived(stack.client, providerAccountId);

it('a payout refused later says why: from the signed notification', async () => {
  const accountId = await account('refused later, signed', 'whsec-refusals');
  const { withdrawal } = await payout(accountId, SANDBOX_FAILING_PIX_KEY, 'later-1');
  expect([withdrawal.status, withdrawal.refusalReason]).toEqual([WithdrawStatus.WITHDRAW_STATUS_PENDING, '']);
  const processed = await processNotification(accountId);
  expect([processed.outcome, processed.outcomeReason]).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, 'PENDING → REJECTED']);
  expect(await read(withdrawal.id)).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_REJECTED, refusalReason: SANDBOX_FAILURE_REASON });
});

it('a payout refused later says why: from the read that confirms an unsigned notification', async () => {
  const accountId = await account('refused later, unsigned');
  const { withdrawal } = await payout(accountId, SANDBOX_FAILING_PIX_KEY, 'later-2');
  const processed = await processNotification(accountId);
  expect([processed.outcome, processed.outcomeReason]).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, 'PENDING → REJECTED']);
  expect(await read(withdrawal.id)).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_REJECTED, refusalReason: SANDBOX_FAILURE_REASON });
});
