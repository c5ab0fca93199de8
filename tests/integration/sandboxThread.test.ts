import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_THREAD_NAME } from '../../server/sandbox/pspThread.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { capturedLogger } from '../support/logCapture.js';
import { threadIds } from '../support/process.js';

// The gateway as `npm start` runs it: the SANDBOX PSP in a worker thread (the other suites keep it on their loop).
const log = capturedLogger('info');
let stack: TestStack;
let closed = false;
beforeAll(async () => {
  stack = await startTestStack({ env: { SANDBOX_THREAD: 'true' }, logger: log.logger });
});
afterAll(async () => {
  if (!closed) await stack?.close();
});

const thread = () => stack.gateway.sandboxThread!;

async function pixCharge() {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: `thread-${Date.now()}`,
    publicKey: 'pk',
    secretKey: 'sk',
  });
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );
  return transaction;
}

it("answers in a thread of its own while the gateway's event loop is held", async () => {
  expect(stack.gateway.sandboxPsp).toBeUndefined();
  expect(thread().threadId).not.toBe(threadId);
  expect(threadIds(process.pid, SANDBOX_THREAD_NAME)).toHaveLength(1);
  expect((await pixCharge()).pixCode).toMatch(/^000201/);

  // spawnSync holds this thread, the gateway's, until the child ends: the child's request is answered only by a PSP
  // that runs elsewhere (on this loop it would wait out the child's 8 s and exit 2).
  const child = spawnSync(
    process.execPath,
    [
      '-e',
      "fetch(process.argv[1] + '/v1/installments?amount=10000', { headers: { authorization: 'Bearer k' }, signal: AbortSignal.timeout(8000) })" +
        '.then((response) => process.exit(response.status === 200 ? 0 : 1), () => process.exit(2))',
      stack.gateway.sandboxUrl!,
    ],
    { timeout: 20_000 },
  );
  expect(child.status).toBe(0);
});

it('a thread that dies is logged and started again on the same port, with the charges of its state file', async () => {
  const transaction = await pixCharge();
  const journal = join(stack.gateway.dataDir, 'sandbox-state.json.journal');
  await eventually(async () => readFileSync(journal, 'utf8').includes(transaction.transactionId), 5_000, 'the charge in the journal');
  const dead = thread().threadId;

  await thread().kill();
  await eventually(async () => thread().restarts === 1, 15_000, 'the thread started again');
  expect(log.records().filter((record) => record.msg === 'the sandbox PSP thread stopped unexpectedly: starting it again')).toHaveLength(1);
  expect(thread().threadId).not.toBe(dead);
  expect(thread().url).toBe(stack.gateway.sandboxUrl);
  expect(threadIds(process.pid, SANDBOX_THREAD_NAME)).toHaveLength(1);

  // The new thread read the charge back: paying it goes through.
  const paid = await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  expect(paid.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
}, 30_000);

it("closing the gateway ends the PSP's thread", async () => {
  const url = stack.gateway.sandboxUrl!;
  closed = true;
  await stack.close();
  expect(threadIds(process.pid, SANDBOX_THREAD_NAME)).toEqual([]);
  expect(thread().threadId).toBeUndefined();
  await expect(fetch(`${url}/v1/installments?amount=100`, { headers: { authorization: 'Bearer k' } })).rejects.toThrow();
  expect(log.records().filter((record) => record.msg === 'the sandbox PSP thread stopped unexpectedly: starting it again')).toHaveLength(1);
});
