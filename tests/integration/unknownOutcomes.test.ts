import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  ListUnconfirmedRequestsRequest,
  RefoundTransactionRequest,
  SettlementOutcome,
  SettleUnconfirmedRequestRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, TransactionStatus, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';

// A provider that acts but answers after the gateway gave up (or with a 500) must never be asked twice for one idempotency key.
// No workers: the resolver runs when the test says so.
let stack: TestStack;
let connect: Driver;
let accountId: string;
const SECRET = 'sk-unknown-outcomes';
// The provider calls' timeout: long enough that a call answered at once is never given up on, however loaded the
// machine (400 ms once was not); a slow answer comes three times as late.
const TIMEOUT_MS = 2_000;

/** The sandbox under another id, declaring (as a provider's documentation would) that it stores a create's reference with the request. */
class DeclaringSandbox extends SandboxAdapter {
  constructor() {
    super('http://127.0.0.1:1', { timeoutMs: TIMEOUT_MS });
    Object.assign(this.identity, { id: 'DECLARING_SANDBOX' });
    Object.assign(this.capabilities, { outcomeEvidence: { absentAfterSeconds: 1, source: 'this test' } });
  }
}
let declaredAccountId: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0', SANDBOX_TIMEOUT_MS: String(TIMEOUT_MS) }, extraProviders: [new DeclaringSandbox()] });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'unknown outcomes',
    publicKey: 'pk',
    secretKey: SECRET,
  });
  accountId = providerAccount.id;
  ({
    providerAccount: { id: declaredAccountId },
  } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'DECLARING_SANDBOX',
    name: 'declared evidence',
    publicKey: 'pk',
    secretKey: SECRET,
    baseUrl: stack.gateway.sandboxUrl,
  }));
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const psp = () => stack.gateway.sandboxPsp!;
const resolver = () => stack.gateway.useCases!.unknownOutcomes;
/** What the sandbox holds for a reference, asked over its own API. */
async function atSandbox(resource: 'charges' | 'withdrawals', reference: string): Promise<Array<{ id: string; status: string }>> {
  const response = await fetch(`${stack.gateway.sandboxUrl}/v1/${resource}?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${SECRET}` },
  });
  return ((await response.json()) as { data: Array<{ id: string; status: string }> }).data;
}
const later = () => new Date(Date.now() + 10 * 60_000);

async function cardCharge(idempotencyKey: string) {
  const cardId = await sandboxCardId(stack.client, accountId);
  const request = CreateTransactionRequest.fromPartial({
    providerAccountId: accountId,
    idempotencyKey,
    transaction: {
      amount: 15000,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      cardId,
      customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com' },
    },
  });
  return () => stack.client.call('gateway', 'createTransaction', request);
}
const payout = (idempotencyKey: string) => () =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    }),
  );

it('a card charge whose answer came after the timeout is charged once: the retry waits, the resolver records it, the retry then returns it', async () => {
  const charge = await cardCharge('card-timeout-1');
  psp().injectFault({ resource: 'charges', mode: 'slowAnswer', delayMs: 3 * TIMEOUT_MS });
  expect(await failureOf(charge())).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/^Erro ao criar transação: timeout/) });

  const retry = await failureOf(charge());
  expect(retry.code).toBe('UNAVAILABLE');
  expect(retry.message).toContain('still being confirmed');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(await atSandbox('charges', 'card-timeout-1')).toHaveLength(1);

  expect(await resolver().resolveDue(later())).toBeGreaterThanOrEqual(1);
  const { transaction } = await charge();
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect(transaction.transactionId).toBe((await atSandbox('charges', 'card-timeout-1'))[0]!.id);
  expect((await charge()).transaction.id).toBe(transaction.id);
  expect(await atSandbox('charges', 'card-timeout-1')).toHaveLength(1);
});

it('a payout answered 500 after it was made is paid once', async () => {
  psp().injectFault({ resource: 'withdrawals', mode: 'errorAfterActing' });
  const send = payout('payout-500-1');
  expect((await failureOf(send())).code).toBe('UNAVAILABLE');
  expect((await failureOf(send())).message).toContain('still being confirmed');
  expect(await atSandbox('withdrawals', 'payout-500-1')).toHaveLength(1);

  await resolver().resolveDue(later());
  const { withdrawal } = await send();
  expect(withdrawal.withdrawId).toBe((await atSandbox('withdrawals', 'payout-500-1'))[0]!.id);
  expect(await atSandbox('withdrawals', 'payout-500-1')).toHaveLength(1);
});

it('a request lost on the way is not freed by lookups that find nothing: checked on the schedule, then left to an operator, whose FAILED frees it', async () => {
  psp().injectFault({ resource: 'withdrawals', mode: 'dropWithoutActing' });
  const send = payout('lost-1');
  expect((await failureOf(send())).code).toBe('UNAVAILABLE');
  expect(await atSandbox('withdrawals', 'lost-1')).toHaveLength(0);

  // The sandbox declares nothing about when its references are stored: finding nothing is never proof by itself.
  for (let round = 1; round <= 5; round++) await resolver().resolveDue(new Date(Date.now() + round * 3 * 3600_000));
  const [held] = await resolver().list(accountId);
  expect(held).toMatchObject({ key: 'lost-1', resolveAttempts: 4, nextCheckAt: null });
  const retry = await failureOf(send());
  expect(retry.message).toContain('still being confirmed');
  expect(await atSandbox('withdrawals', 'lost-1')).toHaveLength(0);

  await resolver().settle(held!.id, { outcome: 'FAILED', note: 'the sandbox lists no withdrawal for lost-1' });
  const { withdrawal } = await send();
  expect(await atSandbox('withdrawals', 'lost-1')).toEqual([expect.objectContaining({ id: withdrawal.withdrawId })]);
});

it('a provider that declares its references stored with the request has an empty lookup free the key, but only once its declared time has passed', async () => {
  const send = () =>
    stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: declaredAccountId,
        idempotencyKey: 'lost-declared-1',
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    );
  psp().injectFault({ resource: 'withdrawals', mode: 'dropWithoutActing' });
  expect((await failureOf(send())).code).toBe('UNAVAILABLE');
  await resolver().resolveDue(later());
  // Too soon after it was sent: a queued request could still land.
  expect((await failureOf(send())).message).toContain('still being confirmed');
  expect(await resolver().list(declaredAccountId)).toEqual([expect.objectContaining({ key: 'lost-declared-1', resolveAttempts: 1 })]);

  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await resolver().resolveDue(new Date(Date.now() + 3 * 3600_000));
  expect(await resolver().list(declaredAccountId)).toEqual([]);
  const { withdrawal } = await send();
  expect(await atSandbox('withdrawals', 'lost-declared-1')).toEqual([expect.objectContaining({ id: withdrawal.withdrawId })]);
});

it('a full refund answered 500 after it was made is confirmed by the charge it emptied, without an operator', async () => {
  const { transaction } = await (await cardCharge('refund-looked-up-base'))();
  const refund = () =>
    stack.client.call(
      'gateway',
      'refoundTransaction',
      RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, idempotencyKey: 'refund-looked-up-1' }),
    );
  psp().injectFault({ resource: 'refunds', mode: 'errorAfterActing' });
  expect((await failureOf(refund())).code).toBe('UNAVAILABLE');
  expect((await failureOf(refund())).message).toContain('still being confirmed');

  await resolver().resolveDue(later());
  expect(await resolver().list(accountId)).toEqual([]);
  const answer = await refund();
  expect(answer.refund.status).toBe(true);
  expect(answer.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  expect(answer.transaction.refundedAmount).toBe(transaction.amount);
  expect(psp().received.get(`POST /v1/charges/${transaction.transactionId}/refunds`)).toBe(1);
});

it('an operator lists the held requests and settles one over the API: SUCCEEDED with the provider id records it once', async () => {
  const charge = await cardCharge('operator-1');
  psp().injectFault({ resource: 'charges', mode: 'errorAfterActing' });
  expect((await failureOf(charge())).code).toBe('UNAVAILABLE');
  const { requests } = await connect.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: accountId }));
  expect(requests).toEqual([
    expect.objectContaining({ operation: 'createTransaction', idempotencyKey: 'operator-1', failure: expect.stringContaining('Erro ao criar transação') }),
  ]);
  const providerId = (await atSandbox('charges', 'operator-1'))[0]!.id;

  const settle = (extra: Partial<SettleUnconfirmedRequestRequest>) => SettleUnconfirmedRequestRequest.fromPartial({ id: requests[0]!.id, ...extra });
  expect(await failureOf(stack.client.call('gateway', 'settleUnconfirmedRequest', settle({})))).toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringContaining('outcome'),
  });
  expect(
    await failureOf(stack.client.call('gateway', 'settleUnconfirmedRequest', settle({ outcome: SettlementOutcome.SETTLEMENT_OUTCOME_SUCCEEDED }))),
  ).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('provider_id') });
  const { subjectId } = await stack.client.call(
    'gateway',
    'settleUnconfirmedRequest',
    settle({ outcome: SettlementOutcome.SETTLEMENT_OUTCOME_SUCCEEDED, providerId }),
  );
  const { transaction } = await charge();
  expect(transaction.id).toBe(subjectId);
  expect(transaction.transactionId).toBe(providerId);
  expect(
    await failureOf(stack.client.call('gateway', 'settleUnconfirmedRequest', settle({ outcome: SettlementOutcome.SETTLEMENT_OUTCOME_FAILED, note: 'late' }))),
  ).toMatchObject({ code: 'NOT_FOUND' });
  expect(
    (await stack.client.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: accountId }))).requests,
  ).toEqual([]);
});

it('an operator settles a refund whose request was lost as FAILED with a note: the key is freed and the retry refunds', async () => {
  const { transaction } = await (await cardCharge('refund-base-1'))();
  const refund = () =>
    stack.client.call(
      'gateway',
      'refoundTransaction',
      RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 1000, idempotencyKey: 'refund-held-1' }),
    );
  // The connection is cut before the sandbox refunds anything; nobody can look a refund up by reference, so an operator decides.
  psp().injectFault({ resource: 'refunds', mode: 'dropWithoutActing' });
  expect((await failureOf(refund())).code).toBe('UNAVAILABLE');
  expect((await failureOf(refund())).message).toContain('still being confirmed');
  const { requests } = await stack.client.call(
    'gateway',
    'listUnconfirmedRequests',
    ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: accountId }),
  );
  expect(requests.map((request: { operation: string }) => request.operation)).toEqual(['refoundTransaction']);
  expect(
    await failureOf(
      stack.client.call(
        'gateway',
        'settleUnconfirmedRequest',
        SettleUnconfirmedRequestRequest.fromPartial({ id: requests[0]!.id, outcome: SettlementOutcome.SETTLEMENT_OUTCOME_FAILED }),
      ),
    ),
  ).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('note') });
  await stack.client.call(
    'gateway',
    'settleUnconfirmedRequest',
    SettleUnconfirmedRequestRequest.fromPartial({
      id: requests[0]!.id,
      outcome: SettlementOutcome.SETTLEMENT_OUTCOME_FAILED,
      note: 'checked in the sandbox dashboard',
    }),
  );
  expect((await refund()).refund.status).toBe(true);
});

it('a refund sent without an idempotency key whose outcome is unknown is still listed for an operator, its cents held until settled', async () => {
  const cardId = await sandboxCardId(stack.client, accountId);
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: { amount: 3000, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId },
    }),
  );
  const refund = () =>
    stack.client.call(
      'gateway',
      'refoundTransaction',
      RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 3000 }),
    );
  psp().injectFault({ resource: 'refunds', mode: 'dropWithoutActing' });
  expect((await failureOf(refund())).code).toBe('UNAVAILABLE');
  // The cents stay reserved: a second full refund cannot go out while the first one's fate is unknown.
  expect(await failureOf(refund())).toMatchObject({ code: 'FAILED_PRECONDITION', message: expect.stringContaining('can still be refunded') });
  const { requests } = await stack.client.call(
    'gateway',
    'listUnconfirmedRequests',
    ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: accountId }),
  );
  const held = requests.filter((request: { operation: string }) => request.operation === 'refoundTransaction');
  expect(held).toHaveLength(1);
  await stack.client.call(
    'gateway',
    'settleUnconfirmedRequest',
    SettleUnconfirmedRequestRequest.fromPartial({ id: held[0]!.id, outcome: SettlementOutcome.SETTLEMENT_OUTCOME_FAILED, note: 'the sandbox shows no refund' }),
  );
  expect((await refund()).transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
});
