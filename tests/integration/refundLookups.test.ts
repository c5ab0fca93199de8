import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { failureOf } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { PODPAY2, PodPay2Adapter } from '../../server/providers/members/podpay2.js';

// Issue 32 §2: a partial refund whose outcome is unknown, at a provider whose read says how much of the charge was
// refunded (PODPAY2, the F1 platform's `refundedAmount`), is settled by that read; a read that does not show it yet is
// never taken as proof that nothing happened. No workers: the resolver runs when the test says so.
let stack: TestStack;
let fake: FakeProvider;
let accountId: string;
// The provider calls' timeout: long enough that a call answered at once is never given up on on a loaded machine; the
// refund's answer comes three times as late (after the provider acted).
const TIMEOUT_MS = 2_000;
const BASIC = `Basic ${Buffer.from('pk_refunds:sk_refunds').toString('base64')}`;

/** PODPAY2 itself (its declaration and adapter), under another id, with the test's timeout. */
class QuickPodPay2 extends PodPay2Adapter {
  constructor() {
    super({ ...PODPAY2, identity: { ...PODPAY2.identity, id: 'PODPAY2_QUICK' } }, { timeoutMs: TIMEOUT_MS, retry: false });
  }
}

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' }, extraProviders: [new QuickPodPay2()] });
  fake = await startFakeProvider();
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'PODPAY2_QUICK',
    name: 'refund lookups',
    publicKey: 'pk_refunds',
    secretKey: 'sk_refunds',
    baseUrl: fake.url,
  }));
});
afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

const resolver = () => stack.gateway.useCases!.unknownOutcomes;
const later = (hours = 0) => new Date(Date.now() + 10 * 60_000 + hours * 3600_000);

/** A card charge of R$ 150,00 the provider approved, as the gateway recorded it. */
async function paidCharge(providerId: string) {
  fake.expect({
    method: 'POST',
    path: '/transactions',
    headers: { authorization: BASIC },
    reply: { body: { id: providerId, status: 'paid', amount: 15000, paymentMethod: 'credit_card', refundedAmount: 0 } },
  });
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey: `charge-${providerId}`,
      transaction: { amount: 15000, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: `hash_${providerId}` },
    }),
  );
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  return transaction;
}

/** Its read at the provider, saying `refundedAmount` cents were refunded; answered as often as asked. */
const providerRead = (providerId: string, refundedAmount: number) =>
  fake.expect({
    method: 'GET',
    path: `/transactions/${providerId}`,
    headers: { authorization: BASIC },
    times: Infinity,
    reply: { body: { id: providerId, status: 'paid', amount: 15000, paymentMethod: 'credit_card', refundedAmount } },
  });

/** A refund of `amount` cents the provider makes, answering after the gateway gave up. */
function slowRefund(providerId: string, amount: number, refundedAmount: number) {
  return fake.expect({
    method: 'POST',
    path: `/transactions/${providerId}/refund`,
    body: { amount },
    reply: { delayMs: 3 * TIMEOUT_MS, body: { id: providerId, status: 'paid', amount: 15000, refundedAmount } },
  });
}

const refund = (id: string, amount: number, idempotencyKey: string) => () =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));

it('a partial refund that timed out after the provider made it is confirmed by the refunded total the charge read shows', async () => {
  const transaction = await paidCharge('pp_refund_1');
  const refunded = slowRefund('pp_refund_1', 4000, 4000);
  const send = refund(transaction.id, 4000, 'refund-timeout-1');
  expect(await failureOf(send())).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('timeout') });
  expect((await failureOf(send())).message).toContain('still being confirmed');
  expect(await resolver().list(accountId)).toEqual([expect.objectContaining({ key: 'refund-timeout-1', operation: 'refoundTransaction' })]);

  const read = providerRead('pp_refund_1', 4000);
  await resolver().resolveDue(later());
  expect(read.calls.length).toBeGreaterThanOrEqual(1);
  expect(await resolver().list(accountId)).toEqual([]);
  const answer = await send();
  expect(answer.refund.status).toBe(true);
  expect(answer.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect(answer.transaction.refundedAmount).toBe(4000);
  // The provider was asked for the refund once: the retry got the recorded answer.
  expect(refunded.calls).toHaveLength(1);
  expect(fake.received.filter((request) => request.method === 'POST' && request.path.endsWith('/refund'))).toHaveLength(1);
  expect(fake.unexpected).toEqual([]);
});

it('a read that does not show the refund yet keeps it unknown and its cents held: checked again on the schedule, then an operator', async () => {
  const transaction = await paidCharge('pp_refund_2');
  // An earlier refund, made and recorded: the provider's total counts it.
  fake.expect({
    method: 'POST',
    path: '/transactions/pp_refund_2/refund',
    body: { amount: 2000 },
    reply: { body: { id: 'pp_refund_2', status: 'paid', amount: 15000, refundedAmount: 2000 } },
  });
  expect((await refund(transaction.id, 2000, 'refund-first-2')()).transaction.refundedAmount).toBe(2000);

  const refunded = slowRefund('pp_refund_2', 4000, 6000);
  const send = refund(transaction.id, 4000, 'refund-timeout-2');
  expect((await failureOf(send())).code).toBe('UNAVAILABLE');
  // The provider's read still says only the first refund (it has not carried this one out yet).
  const read = providerRead('pp_refund_2', 2000);
  await resolver().resolveDue(later());
  expect(read.calls.length).toBeGreaterThanOrEqual(1);
  expect(await resolver().list(accountId)).toEqual([expect.objectContaining({ key: 'refund-timeout-2', resolveAttempts: 1, nextCheckAt: expect.any(Date) })]);
  expect((await failureOf(send())).message).toContain('still being confirmed');
  // Its cents are not released by one silence: what is left to refund excludes them.
  expect(await failureOf(refund(transaction.id, 9001, 'refund-too-much-2')())).toMatchObject({
    code: 'FAILED_PRECONDITION',
    message: expect.stringContaining('can still be refunded'),
  });

  for (let round = 1; round <= 5; round++) await resolver().resolveDue(later(round * 3));
  const [held] = await resolver().list(accountId);
  expect(held).toMatchObject({ key: 'refund-timeout-2', resolveAttempts: 4, nextCheckAt: null });
  expect((await failureOf(send())).message).toContain('still being confirmed');
  expect(refunded.calls).toHaveLength(1);
  expect(fake.unexpected).toEqual([]);
});
