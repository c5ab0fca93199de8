import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { GetWithdrawRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PixKeyType, StatusSource, WebhookOutcome, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_FAILING_PIX_KEY } from '../../server/sandbox/api.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { reprocessReceived } from '../support/webhookNotifications.js';
import { eventually } from '../support/eventually.js';

// No notification workers: each stored notification is processed when the test reprocesses it, so nothing races the refresh.
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
});
afterAll(async () => {
  await stack?.close();
});

async function account(webhookSecret?: string): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'payouts',
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret,
  });
  return providerAccount.id;
}

const payout = async (providerAccountId: string, pixKey = 'seller@example.com') =>
  (
    await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId,
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, pixKey, pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    )
  ).withdrawal;
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;
const history = (withdrawal: any) => withdrawal.statusHistory.map((change: any) => [change.status, change.source]);

const processNotification = (providerAccountId: string) => reprocessReceived(stack.client, providerAccountId);

it('a signed payout notification approves the withdrawal', async () => {
  const accountId = await account('whsec-payouts');
  const withdrawal = await payout(accountId);
  expect(withdrawal.status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
  const processed = await processNotification(accountId);
  expect([processed.outcome, processed.outcomeReason, processed.subjectId]).toEqual([
    WebhookOutcome.WEBHOOK_OUTCOME_APPLIED,
    'PENDING → APPROVED',
    withdrawal.id,
  ]);
  expect(history(await read(withdrawal.id))).toEqual([
    [WithdrawStatus.WITHDRAW_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
    [WithdrawStatus.WITHDRAW_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
  ]);
});

it('an unsigned failed payout is confirmed with the provider before the withdrawal is rejected', async () => {
  const accountId = await account();
  const withdrawal = await payout(accountId, SANDBOX_FAILING_PIX_KEY);
  const processed = await processNotification(accountId);
  expect([processed.outcome, processed.outcomeReason]).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, 'PENDING → REJECTED']);
  expect((await read(withdrawal.id)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_REJECTED);
});

it('GetWithdraw with refresh asks the provider and records its answer as a poll; the late notification then changes nothing', async () => {
  const accountId = await account('whsec-refresh');
  const withdrawal = await payout(accountId);
  const refreshed = await eventually(
    async () => {
      const current = await read(withdrawal.id, true);
      return current.status === WithdrawStatus.WITHDRAW_STATUS_APPROVED && current;
    },
    15_000,
    'the provider to settle the payout',
  );
  expect(history(refreshed)).toEqual([
    [WithdrawStatus.WITHDRAW_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
    [WithdrawStatus.WITHDRAW_STATUS_APPROVED, StatusSource.STATUS_SOURCE_POLL],
  ]);
  const processed = await processNotification(accountId);
  expect([processed.outcome, processed.outcomeReason]).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_UNCHANGED, 'APPROVED → APPROVED is not a move forward']);
});

it('an unknown id is NOT_FOUND with the subject named', async () => {
  await expect(read('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
    message: expect.stringContaining('withdrawal 00000000-0000-4000-8000-000000000000 not found'),
  });
});
