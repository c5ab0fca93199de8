import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import type { RefundResult } from '../../server/domain/types.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import { failureOf } from '../support/clients.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The sandbox under another id whose refunds the provider accepts but carries
 * out later while `inProgress` is set (as Pagar.me answers a PIX refund
 * `pending_refund`), recording the idempotency key each refund reaches it with.
 */
class SlowRefundSandbox extends SandboxAdapter {
  inProgress = false;
  readonly keys: Array<string | undefined> = [];
  constructor() {
    super('http://127.0.0.1:1');
    Object.assign(this.identity, { id: 'SLOW_REFUND_SANDBOX' });
  }
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number, idempotencyKey?: string): Promise<RefundResult> {
    this.keys.push(idempotencyKey);
    const refund = await super.refoundTransaction(ctx, transactionId, amount);
    return this.inProgress ? { ...refund, pending: true } : refund;
  }
}

const provider = new SlowRefundSandbox();
let stack: TestStack;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack({ extraProviders: [provider], env: { WEBHOOK_WORKERS: '0' } });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SLOW_REFUND_SANDBOX',
    name: 'refunds in progress',
    publicKey: 'pk',
    secretKey: 'sk-refunds-in-progress',
    baseUrl: stack.gateway.sandboxUrl,
  });
  accountId = providerAccount.id;
});
afterAll(async () => {
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
const refund = (id: string, amount: number, idempotencyKey?: string) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));

async function refundColumns(id: string): Promise<{ refund_pending_amount: string; refunded_amount: string }> {
  const [row] = await stack.gateway
    .db!.em()
    .getConnection('write')
    .execute<Array<{ refund_pending_amount: string; refunded_amount: string }>>(
      'select refund_pending_amount, refunded_amount from transactions where id = ?',
      [id],
      'all',
    );
  return row!;
}

it('a refund the provider accepted but still carries out keeps its cents reserved: not refunded yet, never asked for again', async () => {
  const id = await paidCharge(1000);
  provider.inProgress = true;
  const calls = provider.keys.length;

  const accepted = await refund(id, 300, 'in-progress-1');
  // Accepted: never "nothing happened" (the provider is returning the money), yet not counted as refunded before it confirms.
  expect(accepted.refund.status).toBe(true);
  expect([accepted.transaction.status, Number(accepted.transaction.refundedAmount)]).toEqual([TransactionStatus.TRANSACTION_STATUS_APPROVED, 0]);
  expect(await refundColumns(id)).toEqual({ refund_pending_amount: '300', refunded_amount: '0' });

  // The reserved cents are not refundable again: the whole amount is refused before reaching the provider.
  expect(await failureOf(refund(id, 1000, 'in-progress-2'))).toEqual({
    code: 'FAILED_PRECONDITION',
    message: `only 700 cents of transaction ${id} can still be refunded (counting refunds in progress); 1000 asked`,
  });

  // The same refund retried with its key is answered as the first time, and the provider is not asked again.
  const retried = await refund(id, 300, 'in-progress-1');
  expect(retried.refund).toEqual(accepted.refund);
  expect(provider.keys.length).toBe(calls + 1);

  // What is left goes through, done at once: counted, and the 300 in progress stay reserved.
  provider.inProgress = false;
  const rest = await refund(id, 700, 'in-progress-3');
  expect([rest.refund.status, rest.transaction.status, Number(rest.transaction.refundedAmount)]).toEqual([
    true,
    TransactionStatus.TRANSACTION_STATUS_APPROVED,
    700,
  ]);
  expect(await refundColumns(id)).toEqual({ refund_pending_amount: '300', refunded_amount: '700' });
  const { transaction } = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
  expect(Number(transaction.refundedAmount)).toBe(700);
});

it("hands the adapter the key the refund runs under: the caller's, else the gateway's own", async () => {
  const id = await paidCharge(1000);
  provider.inProgress = false;
  const calls = provider.keys.length;
  await refund(id, 100, 'caller-refund-key');
  await refund(id, 100);
  expect(provider.keys.slice(calls)).toEqual(['caller-refund-key', expect.stringMatching(/^gateway-[0-9a-f-]{36}$/)]);
});
