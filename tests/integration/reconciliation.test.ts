import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetWithdrawRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { builtInSandboxAccount, pixCharge, transactionReaching } from '../support/sandboxCharges.js';

let stack: TestStack;
let gateway: TestStack['gateway'];
let client: Driver;

beforeAll(async () => {
  // Providers are told a notification address where nothing listens: every notification is lost. The sandbox keeps
  // its latest two charges whole, so the third test's oldest charge is canceled by it.
  stack = await startTestStack({
    env: { WEBHOOK_PUBLIC_URL: 'http://127.0.0.1:9', RECONCILE_AFTER_MS: '300', RECONCILE_EVERY_MS: '200', SANDBOX_WHOLE_RECORDS: '2' },
  });
  gateway = stack.gateway;
  client = stack.client;
});

afterAll(async () => {
  await stack?.close();
});

it('a charge paid at the provider whose notification was lost heals by polling', async () => {
  const { providerAccount } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'lossy',
    publicKey: 'pk',
    secretKey: 'sk-lossy',
  });
  const { transaction } = await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      transaction: { amount: 3100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );
  // Paid directly at the sandbox PSP; its notification goes nowhere.
  const paid = await fetch(`${gateway.sandboxUrl}/v1/charges/${transaction.transactionId}/pay`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-lossy' },
  });
  expect(paid.status).toBe(200);
  expect((await paid.json()).notification.responseStatus).toBe(0);

  const healed = await transactionReaching(client, transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED, 'reconciliation to find the payment');
  expect(healed.statusHistory.at(-1)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, source: StatusSource.STATUS_SOURCE_POLL });
});

it('a payout paid at the provider whose notification was lost heals by polling', async () => {
  const { providerAccount } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'lossy payouts',
    publicKey: 'pk',
    secretKey: 'sk-lossy-payouts',
  });
  // The sandbox settles the payout by itself and notifies once, into the void.
  const { withdrawal } = await client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: providerAccount.id,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 4200, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    }),
  );
  expect(withdrawal.status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);

  const healed = await eventually(
    async () => {
      const { withdrawal: current } = await client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: withdrawal.id }));
      return current.status === WithdrawStatus.WITHDRAW_STATUS_APPROVED && current;
    },
    15_000,
    'reconciliation to find the payout paid',
  );
  expect(healed.statusHistory.at(-1)).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_APPROVED, source: StatusSource.STATUS_SOURCE_POLL });
});

it('a pending charge the sandbox stops keeping whole is canceled there, and polling moves it to CANCELED', async () => {
  const accountId = await builtInSandboxAccount(client, 'load test', 'sk-load-test');
  const oldest = await pixCharge(client, accountId, 1500);
  await pixCharge(client, accountId, 1500);
  await pixCharge(client, accountId, 1500);

  const canceled = await transactionReaching(client, oldest.id, TransactionStatus.TRANSACTION_STATUS_CANCELED, 'reconciliation to find the charge canceled');
  expect(canceled.statusHistory.at(-1)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_CANCELED, source: StatusSource.STATUS_SOURCE_POLL });
});
