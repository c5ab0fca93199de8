import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTransactionRequest, ListUnconfirmedRequestsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { startCuttingProxy, type CuttingProxy } from '../support/cuttingProxy.js';
import { startFakeProvider, type ExpectationHandle, type FakeProvider } from '../support/fakeProvider.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { createTestDatabase } from '../support/postgres.js';
import { answerEveryCharge, newSandboxAccount } from '../support/sandboxCharges.js';

/**
 * Issue 30 §2: a pooler restarted or a primary failed over between the commit of an idempotency key's claim and its
 * answer. The claim is stored, IN_PROGRESS under this process (which lives on), and the caller got UNAVAILABLE. Its
 * retry with the same key must be answered, once, not told "still being processed" for as long as the process runs.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: CuttingProxy;
let fake: FakeProvider;
let charges: ExpectationHandle;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let client: Driver;

beforeAll(async () => {
  database = await createTestDatabase();
  const direct = new URL(database.url);
  proxy = await startCuttingProxy({ host: direct.hostname, port: Number(direct.port) });
  const viaProxy = new URL(database.url);
  viaProxy.port = String(proxy.port);
  fake = await startFakeProvider();
  charges = answerEveryCharge(fake);
  // Unnamed statements carry their text every time, so the proxy sees each claim.
  gateway = await startTestGateway({ databaseUrl: viaProxy.toString(), env: { DB_PREPARED_STATEMENTS: 'false' } });
  client = grpcDriver(gateway.grpcAddress!, TEST_TOKEN);
}, 120_000);

afterAll(async () => {
  client?.close();
  await gateway?.close();
  if (gateway) removeDir(gateway.dataDir);
  await fake?.close();
  await proxy?.close();
  await database?.drop();
});

/** Retries on UNAVAILABLE, as a caller does, for at most `withinMs`. */
async function chargeUntilAnswered(request: CreateTransactionRequest, withinMs: number) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await client.call('gateway', 'createTransaction', request);
    } catch (error) {
      if ((await failureOf(Promise.reject(error))).code !== 'UNAVAILABLE' || Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}

describe('a claim whose answer was lost between commit and caller', () => {
  it('is settled by the retry: one charge, answered within seconds', async () => {
    const providerAccountId = await newSandboxAccount(client, fake, 'lost-claim', 'sk-lost');
    const request = CreateTransactionRequest.fromPartial({
      providerAccountId,
      idempotencyKey: 'lost-claim-1',
      transaction: { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    });
    const lost = proxy.loseAnswerTo('insert into idempotency_keys');
    expect(await failureOf(client.call('gateway', 'createTransaction', request))).toMatchObject({ code: 'UNAVAILABLE' });
    await lost;
    expect(charges.calls.length).toBe(0);

    // Well within the 30 s a retry waits for a key another call holds.
    const { transaction } = await chargeUntilAnswered(request, 15_000);
    expect(transaction.id).toEqual(expect.any(String));
    expect(charges.calls.length).toBe(1);
    const again = await client.call('gateway', 'createTransaction', request);
    expect(again.transaction.id).toBe(transaction.id);
    expect(charges.calls.length).toBe(1);
  }, 60_000);

  it('whose charge the provider made but the gateway could not store, is held for confirmation, never sent again', async () => {
    const providerAccountId = await newSandboxAccount(client, fake, 'lost-store', 'sk-lost-store');
    const request = CreateTransactionRequest.fromPartial({
      providerAccountId,
      idempotencyKey: 'lost-store-1',
      transaction: { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    });
    const sent = charges.calls.length;
    const lost = proxy.loseRequest('insert into transactions');
    expect(await failureOf(client.call('gateway', 'createTransaction', request))).toMatchObject({ code: 'UNAVAILABLE' });
    await lost;
    expect(charges.calls.length).toBe(sent + 1);

    // Not "still being processed" for as long as the process lives, and not free to charge again: unknown, confirmed with the provider.
    await sleep(2_500);
    const retry = await errorDetailsOf(client.call('gateway', 'createTransaction', request));
    expect(retry).toMatchObject({ reason: 'IDEMPOTENCY_OUTCOME_UNKNOWN' });
    expect(charges.calls.length).toBe(sent + 1);
    const { requests } = await client.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId }));
    expect(requests).toEqual([expect.objectContaining({ idempotencyKey: 'lost-store-1', failure: expect.stringContaining('could not be recorded') })]);
  }, 60_000);
});
