import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { CreateTransactionRequest, GetTransactionRequest, GetWithdrawRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { createLogger } from '../../server/lib/logger.js';
import type { Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type CannedResponse, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { sandboxCharge as sandboxChargeAnswer } from '../support/sandboxCharges.js';

/** Provider answers that are errors, not statuses: each must leave a charge or payout as it is. */
const ERROR_ANSWERS: Record<string, CannedResponse> = {
  'HTTP 200 with an HTML page': { status: 200, body: '<html><body>Gateway maintenance</body></html>', headers: { 'content-type': 'text/html' } },
  'HTTP 200 with {"success":false,"error":"x"}': { status: 200, body: { success: false, error: 'x' } },
  'HTTP 200 with null': { status: 200, body: 'null', headers: { 'content-type': 'application/json' } },
  'HTTP 500': { status: 500, body: { message: 'internal error' } },
};

let stack: TestStack;
let client: Driver;
let fake: FakeProvider;
const logLines: string[] = [];

beforeAll(async () => {
  fake = await startFakeProvider();
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  // Nothing listens at the notification address: only polling can learn of a status.
  stack = await startTestStack({
    env: { WEBHOOK_PUBLIC_URL: 'http://127.0.0.1:9', RECONCILE_AFTER_MS: '200', RECONCILE_EVERY_MS: '150' },
    logger: createLogger('warn', destination),
  });
  client = stack.client;
});

afterAll(async () => {
  await stack?.close();
  await fake?.close();
});

const account = async (name: string) =>
  (await client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: `sk-${name}`, baseUrl: fake.url }))
    .providerAccount.id as string;

const sandboxCharge = (id: string, status: string) => sandboxChargeAnswer(id, status, 2500);

async function pendingCharge(accountId: string, chargeId: string) {
  fake.expect({ method: 'POST', path: '/v1/charges', reply: { status: 201, body: sandboxCharge(chargeId, 'pending') } });
  return (
    await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    )
  ).transaction;
}

const read = async (id: string) => (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction;

describe('an error answer never moves a status', () => {
  it.each(Object.entries(ERROR_ANSWERS))('GetTransaction(refresh) on %s fails and leaves the charge PENDING', async (_name, answer) => {
    const accountId = await account(`refresh-${Math.random().toString(36).slice(2, 8)}`);
    const charge = await pendingCharge(accountId, `ch_${Math.random().toString(36).slice(2, 10)}`);
    const asked = fake.expect({ method: 'GET', path: `/v1/charges/${charge.transactionId}`, reply: answer, times: Infinity });
    const failure: any = await client
      .call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: charge.id, refresh: true }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure.details).toMatch(/^Erro ao buscar transação: /);
    expect(asked.calls.length).toBeGreaterThan(0);
    const after = await read(charge.id);
    expect(after.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(after.statusHistory).toHaveLength(1);
  });

  it.each(Object.entries(ERROR_ANSWERS))('GetWithdraw(refresh) on %s fails and leaves the payout PENDING', async (_name, answer) => {
    const accountId = await account(`payout-${Math.random().toString(36).slice(2, 8)}`);
    const withdrawalId = `wd_${Math.random().toString(36).slice(2, 10)}`;
    fake.expect({
      method: 'POST',
      path: '/v1/withdrawals',
      reply: {
        status: 201,
        body: {
          id: withdrawalId,
          amount: 900,
          status: 'processing',
          pixKey: 'ana@example.com',
          pixKeyType: 'EMAIL',
          description: 'x',
          createdAt: '2027-01-15T08:00:00Z',
        },
      },
    });
    const { withdrawal } = await client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: accountId,
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 900, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    );
    expect(withdrawal.status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
    const asked = fake.expect({ method: 'GET', path: `/v1/withdrawals/${withdrawalId}`, reply: answer, times: Infinity });
    const failure: any = await client
      .call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: withdrawal.id, refresh: true }))
      .catch((error: unknown) => error);
    expect(failure.details).toMatch(/^Erro ao buscar saque: /);
    expect(asked.calls.length).toBeGreaterThan(0);
    const { withdrawal: after } = await client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: withdrawal.id }));
    expect(after.status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
  });

  it('the reconciliation poll logs each error answer, leaves that charge PENDING and goes on healing the others', async () => {
    const accountId = await account('reconcile');
    const broken = await pendingCharge(accountId, 'ch_broken');
    const healthy = await pendingCharge(accountId, 'ch_healthy');
    // The broken charge's answers come in turn: every kind of error, then 500s for good.
    const answers = Object.values(ERROR_ANSWERS);
    for (const answer of answers.slice(0, -1)) fake.expect({ method: 'GET', path: '/v1/charges/ch_broken', reply: answer });
    fake.expect({ method: 'GET', path: '/v1/charges/ch_broken', reply: answers.at(-1)!, times: Infinity });
    fake.expect({ method: 'GET', path: '/v1/charges/ch_healthy', reply: { body: sandboxCharge('ch_healthy', 'paid') }, times: Infinity });

    const healed = await eventually(
      async () => {
        const current = await read(healthy.id);
        return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
      },
      15_000,
      'the healthy charge to heal by polling',
    );
    expect(healed.statusHistory.at(-1)).toMatchObject({ source: StatusSource.STATUS_SOURCE_POLL });
    const warningsFor = (id: string) =>
      logLines.map((line) => JSON.parse(line)).filter((record) => record.msg === 'reconciliation could not ask the provider' && record.transactionId === id);
    const warnings = await eventually(
      async () => warningsFor(broken.id).length >= answers.length && warningsFor(broken.id),
      15_000,
      'a logged warning for every error answer',
    );
    expect(fake.received.filter((request) => request.path === '/v1/charges/ch_broken').length).toBeGreaterThanOrEqual(answers.length);
    expect((await read(broken.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect((await read(broken.id)).statusHistory).toHaveLength(1);
    expect(warnings.map((record) => record.err)).toEqual(expect.arrayContaining([expect.stringMatching(/^Erro ao buscar transação: /)]));
  });
});
