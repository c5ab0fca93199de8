import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { CreateTransactionRequest, ListUnconfirmedRequestsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
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
  // Beats often, so that a lost key no retry asks for is settled within the test.
  gateway = await startTestGateway({ databaseUrl: viaProxy.toString(), env: { DB_PREPARED_STATEMENTS: 'false', PROCESS_HEARTBEAT_MS: '500' } });
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

/** A charge on a new account whose first attempt fails UNAVAILABLE, the database connection cut by `cut` at `text`. */
async function chargeCut(name: string, cut: 'loseAnswerTo' | 'loseRequest', text: string) {
  const providerAccountId = await newSandboxAccount(client, fake, name, `sk-${name}`);
  const request = CreateTransactionRequest.fromPartial({
    providerAccountId,
    idempotencyKey: `${name}-1`,
    transaction: { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
  });
  const lost = proxy[cut](text);
  expect(await failureOf(client.call('gateway', 'createTransaction', request))).toMatchObject({ code: 'UNAVAILABLE' });
  await lost;
  return { providerAccountId, request };
}

describe('a claim whose answer was lost between commit and caller', () => {
  it('is settled by the retry: one charge, answered within seconds', async () => {
    const { request } = await chargeCut('lost-claim', 'loseAnswerTo', 'insert into idempotency_keys');
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
    const sent = charges.calls.length;
    const { providerAccountId, request } = await chargeCut('lost-store', 'loseRequest', 'insert into transactions');
    expect(charges.calls.length).toBe(sent + 1);

    // Not "still being processed" for as long as the process lives, and not free to charge again: unknown, confirmed with the provider.
    await sleep(2_500);
    const retry = await errorDetailsOf(client.call('gateway', 'createTransaction', request));
    expect(retry).toMatchObject({ reason: 'IDEMPOTENCY_OUTCOME_UNKNOWN' });
    expect(charges.calls.length).toBe(sent + 1);
    const { requests } = await client.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId }));
    expect(requests).toEqual([expect.objectContaining({ idempotencyKey: 'lost-store-1', failure: expect.stringContaining('could not be recorded') })]);
  }, 60_000);

  it('is settled without a retry: a caller that gave up leaves no key IN_PROGRESS under a live process', async () => {
    await chargeCut('lost-unasked', 'loseAnswerTo', 'insert into idempotency_keys');
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const state = async () =>
        (await admin.query<{ state: string }>(`select state from idempotency_keys where key = 'lost-unasked-1'`)).rows[0]?.state ?? 'none';
      expect(await state()).toBe('IN_PROGRESS');
      await eventually(async () => (await state()) === 'FAILED', 10_000, 'the lost key to be freed');
    } finally {
      await admin.end();
    }
  }, 60_000);
});
