import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  ListTransactionsRequest,
  RefoundTransactionRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import type { RefundResult } from '../../server/domain/types.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/** The sandbox under another id, counting refund calls and holding each one a while, so that concurrent refunds overlap at the provider. */
class CountingSandbox extends SandboxAdapter {
  refundCalls = 0;
  /** The amounts the refunds asked the provider for, in order. */
  readonly refundAmounts: number[] = [];
  constructor() {
    super('http://127.0.0.1:1');
    Object.assign(this.identity, { id: 'COUNTING_SANDBOX' });
  }
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    this.refundCalls += 1;
    this.refundAmounts.push(amount);
    await sleep(200);
    return super.refoundTransaction(ctx, transactionId, amount);
  }
}

const provider = new CountingSandbox();
let stack: TestStack;
let connect: Driver;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack({ extraProviders: [provider], env: { WEBHOOK_WORKERS: '0' } });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'COUNTING_SANDBOX',
    name: 'refunds',
    publicKey: 'pk',
    secretKey: 'sk-refunds',
    baseUrl: stack.gateway.sandboxUrl,
  });
  accountId = providerAccount.id;
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

async function paidCharge(amount: number): Promise<string> {
  const cardId = await sandboxCardId(stack.client, accountId);
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId },
    }),
  );
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  return transaction.id;
}
const refund = (driver: Driver, id: string, amount: number, idempotencyKey: string) =>
  driver.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));

it('10 concurrent full refunds with different keys make one provider call: one succeeds, the rest are refused', async () => {
  const id = await paidCharge(5000);
  provider.refundCalls = 0;
  const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => refund(i % 2 ? connect : stack.client, id, 5000, `full-${i}`)));
  expect(provider.refundCalls).toBe(1);
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
    const failure = await failureOf(Promise.reject(result.reason));
    expect(failure.code).toBe('FAILED_PRECONDITION');
    expect(failure.message).toMatch(/can still be refunded|only an APPROVED transaction can be refunded/);
  }
  const { transaction } = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  // A reason of its own, for the back-office's text.
  for (const [driver, key] of [
    [stack.client, 'after-grpc'],
    [connect, 'after-connect'],
  ] as const)
    expect((await errorDetailsOf(refund(driver, id, 100, key))).reason).toBe('CHARGE_NOT_REFUNDABLE');
});

it('partial refunds never exceed the charge: the one that would is refused before reaching the provider', async () => {
  const id = await paidCharge(3000);
  provider.refundCalls = 0;
  const [first, second] = await Promise.allSettled([refund(stack.client, id, 2000, 'partial-a'), refund(connect, id, 2000, 'partial-b')]);
  expect([first.status, second.status].sort()).toEqual(['fulfilled', 'rejected']);
  expect(provider.refundCalls).toBe(1);
  // What is refunded so far is part of the charge, wherever it is read: the answer, a Get and a list.
  const done = [first, second].find((result) => result.status === 'fulfilled') as PromiseFulfilledResult<{ transaction: { refundedAmount: number } }>;
  expect(Number(done.value.transaction.refundedAmount)).toBe(2000);
  for (const driver of [stack.client, connect]) {
    const { transaction } = await driver.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
    expect([transaction.status, Number(transaction.refundedAmount)]).toEqual([TransactionStatus.TRANSACTION_STATUS_APPROVED, 2000]);
    const { transactions } = await driver.call('gateway', 'listTransactions', ListTransactionsRequest.fromPartial({ query: id }));
    expect(transactions.map((listed: { refundedAmount: number }) => Number(listed.refundedAmount))).toEqual([2000]);
  }
  const refused = await failureOf(refund(stack.client, id, 1001, 'partial-c'));
  expect(refused).toEqual({
    code: 'FAILED_PRECONDITION',
    message: `only 1000 cents of transaction ${id} can still be refunded (counting refunds in progress); 1001 asked`,
  });
  // What is left, as ErrorInfo metadata: the back-office's text for the reason quotes it, in the charge's currency.
  for (const [driver, key] of [
    [stack.client, 'partial-c-grpc'],
    [connect, 'partial-c-connect'],
  ] as const)
    expect(await errorDetailsOf(refund(driver, id, 1001, key))).toMatchObject({
      reason: 'REFUND_EXCEEDS_CHARGE',
      metadata: { field: 'amount', refundableCents: '1000', currency: 'BRL' },
    });
  const last = await refund(stack.client, id, 1000, 'partial-d');
  expect(last.refund.status).toBe(true);
  expect(last.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  expect(Number(last.transaction.refundedAmount)).toBe(3000);
  expect(provider.refundCalls).toBe(2);
});

it('a refund the provider refused frees its reservation', async () => {
  const id = await paidCharge(4000);
  // The sandbox refuses refunds of unpaid charges: make it disagree by refunding there first, behind the gateway's back.
  const charge = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
  const direct = await fetch(`${stack.gateway.sandboxUrl}/v1/charges/${charge.transaction.transactionId}/refunds`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-refunds', 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 4000 }),
  });
  expect(direct.status).toBe(201);
  expect((await failureOf(refund(stack.client, id, 4000, 'refused-1'))).message).toMatch(/^Erro ao estornar transação: charge is refunded/);
  const [row] = await stack.gateway
    .db!.em()
    .getConnection('write')
    .execute<Array<{ refund_pending_amount: string; refunded_amount: string }>>(
      'select refund_pending_amount, refunded_amount from transactions where id = ?',
      [id],
      'all',
    );
  expect(row).toEqual({ refund_pending_amount: '0', refunded_amount: '0' });
});

it('amount 0 after a partial refund refunds exactly what is left; a retry with its key answers the same refund', async () => {
  const id = await paidCharge(1000);
  provider.refundCalls = 0;
  provider.refundAmounts.length = 0;
  await refund(stack.client, id, 300, 'rest-partial');
  const rest = await refund(stack.client, id, 0, 'rest-all');
  expect(rest.refund.status).toBe(true);
  expect([rest.transaction.status, Number(rest.transaction.refundedAmount)]).toEqual([TransactionStatus.TRANSACTION_STATUS_REFUNDED, 1000]);
  expect(provider.refundAmounts).toEqual([300, 700]);
  const again = await refund(connect, id, 0, 'rest-all');
  expect([again.transaction.status, Number(again.transaction.refundedAmount)]).toEqual([TransactionStatus.TRANSACTION_STATUS_REFUNDED, 1000]);
  expect(provider.refundCalls).toBe(2);
  // Nothing left: refused before reaching the provider.
  expect(await failureOf(refund(stack.client, id, 0, 'rest-none'))).toMatchObject({ code: 'FAILED_PRECONDITION' });
  expect(provider.refundCalls).toBe(2);
});
