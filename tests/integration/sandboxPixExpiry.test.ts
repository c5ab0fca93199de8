import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { StatusSource, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { builtInSandboxAccount, pixCharge, transactionReaching } from '../support/sandboxCharges.js';

// The sandbox's PIX charges can be paid for one second; notifications go where nothing listens, so only polling tells.
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    env: { SANDBOX_PIX_TTL_SECONDS: '1', WEBHOOK_PUBLIC_URL: 'http://127.0.0.1:9', RECONCILE_AFTER_MS: '3600000', RECONCILE_EVERY_MS: '200' },
  });
});
afterAll(async () => stack?.close());

it('a sandbox PIX charge left unpaid past its expiry is canceled there, and the gateway reads it CANCELED at once', async () => {
  const transaction = await pixCharge(stack.client, await builtInSandboxAccount(stack.client, 'expiring', 'sk-expiring'), 2500);
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

  // Reconciliation asks about an expired charge at once, not after RECONCILE_AFTER_MS (an hour here).
  const canceled = await transactionReaching(stack.client, transaction.id, TransactionStatus.TRANSACTION_STATUS_CANCELED, 'the expired charge read CANCELED');
  expect(canceled.statusHistory.at(-1)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_CANCELED, source: StatusSource.STATUS_SOURCE_POLL });

  // Paying it says why it cannot be paid, in the PSP's words.
  const paid = await failureOf(stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id })));
  expect(paid.code).toBe('FAILED_PRECONDITION');
  expect(paid.message).toMatch(/charge is canceled, only a pending charge can be paid: its PIX expired at \d{4}-\d\d-\d\dT/);
});
