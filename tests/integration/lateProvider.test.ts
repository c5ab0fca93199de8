import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTransactionRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, TransactionStatus, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import { failureOf, type RpcFailure } from '../support/clients.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * A provider that queues what it is sent and acts seconds later, answering after the gateway gave up. The gateway's
 * workers run, with the minutes of its check schedule compressed into seconds.
 */
const SECRET = 'sk-late-provider';
// Long enough that an answer the provider gives at once is never given up on, however loaded the machine; the late
// provider acts well after it.
const TIMEOUT_MS = 2_000;

/** The sandbox under another id, declaring (as a provider's documentation would) that a repeated Idempotency-Key gets the first resource for a minute. */
class ResendingSandbox extends SandboxAdapter {
  constructor() {
    super('http://127.0.0.1:1', { timeoutMs: TIMEOUT_MS });
    Object.assign(this.identity, { id: 'RESENDING_SANDBOX' });
    Object.assign(this.capabilities, { outcomeEvidence: { idempotentResendSeconds: 60, source: 'this test' } });
  }
}

let stack: TestStack;
let accountId: string;
let resendingAccountId: string;

beforeAll(async () => {
  stack = await startTestStack({
    env: { SANDBOX_TIMEOUT_MS: String(TIMEOUT_MS), UNKNOWN_CHECK_SCHEDULE_MS: '300,2000,5000,9000,13000,18000,25000' },
    extraProviders: [new ResendingSandbox()],
  });
  const create = async (provider: string) =>
    (
      await stack.client.call('accounts', 'createProviderAccount', {
        provider,
        name: provider,
        publicKey: 'pk',
        secretKey: SECRET,
        baseUrl: stack.gateway.sandboxUrl,
      })
    ).providerAccount.id as string;
  accountId = await create('SANDBOX');
  resendingAccountId = await create('RESENDING_SANDBOX');
});
afterAll(async () => stack?.close());

const psp = () => stack.gateway.sandboxPsp!;
beforeEach(() => {
  psp().received.clear();
  psp().acted.clear();
});

async function atProvider(resource: 'charges' | 'withdrawals', reference: string): Promise<Array<{ id: string }>> {
  const response = await fetch(`${stack.gateway.sandboxUrl}/v1/${resource}?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${SECRET}` },
  });
  return ((await response.json()) as { data: Array<{ id: string }> }).data;
}

const charge = (account: string, idempotencyKey: string, transaction: Partial<CreateTransactionRequest['transaction']>) => () =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: account, idempotencyKey, transaction: { amount: 2590, ...transaction } }),
  );

/** A caller that retries every `everyMs` until it gets an answer or `forMs` pass; every refusal on the way is kept. */
async function retried<T>(call: () => Promise<T>, forMs: number, everyMs: number): Promise<{ answer?: T; refusals: RpcFailure[] }> {
  const refusals: RpcFailure[] = [];
  const deadline = Date.now() + forMs;
  while (Date.now() < deadline) {
    try {
      return { answer: await call(), refusals };
    } catch (error) {
      refusals.push(await failureOf(Promise.reject(error)));
    }
    await sleep(everyMs);
  }
  return { refusals };
}

it('a provider that acts 11 s late and ignores the idempotency header, retried every second: one PIX charge, one card charge and one payout', async () => {
  psp().behaviour = { actLateMs: 11_000, honourIdempotencyKeys: false };
  const cardId = await sandboxCardId(stack.client, accountId);
  const pix = charge(accountId, 'late-pix-1', { paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX });
  const card = charge(accountId, 'late-card-1', {
    paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
    cardId,
    customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com', phone: '11999998888' },
  });
  const payout = () =>
    stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: accountId,
        idempotencyKey: 'late-payout-1',
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2590, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    );

  const [pixRun, cardRun, payoutRun] = await Promise.all([retried(pix, 22_000, 1_000), retried(card, 22_000, 1_000), retried(payout, 22_000, 1_000)]);

  // Every retry before the provider acted was told to wait; none reached the provider.
  for (const run of [pixRun, cardRun, payoutRun]) {
    expect(run.refusals.length).toBeGreaterThan(5);
    expect(run.refusals.every((refusal) => refusal.code === 'UNAVAILABLE')).toBe(true);
  }
  expect(psp().received.get('POST /v1/charges')).toBe(2);
  expect(psp().received.get('POST /v1/withdrawals')).toBe(1);
  const [pixCharges, cardCharges, payouts] = await Promise.all([
    atProvider('charges', 'late-pix-1'),
    atProvider('charges', 'late-card-1'),
    atProvider('withdrawals', 'late-payout-1'),
  ]);
  expect(pixCharges).toHaveLength(1);
  expect(cardCharges).toHaveLength(1);
  expect(payouts).toHaveLength(1);
  // Recorded from the provider's own word, and answered to the retry.
  expect(pixRun.answer?.transaction.transactionId).toBe(pixCharges[0]!.id);
  expect(cardRun.answer?.transaction).toMatchObject({ transactionId: cardCharges[0]!.id, status: TransactionStatus.TRANSACTION_STATUS_APPROVED });
  expect(payoutRun.answer?.withdrawal.withdrawId).toBe(payouts[0]!.id);
}, 60_000);

it('where the provider declares that a repeated idempotency key gets the first resource, the retry is sent again with the key, and still one charge is made', async () => {
  psp().behaviour = { actLateMs: 3 * TIMEOUT_MS, honourIdempotencyKeys: true };
  const pix = charge(resendingAccountId, 'resent-pix-1', { paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX });
  expect((await failureOf(pix())).code).toBe('UNAVAILABLE');

  psp().behaviour = { honourIdempotencyKeys: true };
  const { transaction } = await pix();
  expect(psp().received.get('POST /v1/charges')).toBe(2);
  // The first request, still queued, lands on the same key: the provider answers it with the charge already made.
  await eventually(async () => psp().acted.get('POST /v1/charges') === 2, 10 * TIMEOUT_MS);
  const charges = await atProvider('charges', 'resent-pix-1');
  expect(charges).toEqual([expect.objectContaining({ id: transaction.transactionId })]);
  expect((await pix()).transaction.id).toBe(transaction.id);
  expect(psp().received.get('POST /v1/charges')).toBe(2);
});
