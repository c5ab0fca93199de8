import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTransactionRequest, ListUnconfirmedRequestsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { SandboxPsp } from '../../server/sandbox/psp.js';
import { errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { removeDir } from '../support/gateway.js';
import { createTestDatabase } from '../support/postgres.js';
import { portFor, spawnGateway, type GatewayProcess } from '../support/process.js';

/**
 * The gateway killed -9 while a charge is at the provider: the provider, outside the gateway's process, acts
 * late, long after the gateway died. Nothing may be invisible, and nothing may be sent twice.
 */
const TOKEN = 'inflight-crash-token';
const SECRET = 'sk-inflight-crash';
/** The provider holds each charge this long (the test makes it act sooner, once the gateway has looked and found nothing). */
const ACTS_LATE_MS = 120_000;
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-inflight-'));
let psp: SandboxPsp;
let database: { url: string; drop(): Promise<void> };
let running: GatewayProcess | undefined;
let client: Driver | undefined;

const env = () => ({
  DATABASE_URL: database.url,
  DATA_DIR: dataDir,
  API_TOKENS: TOKEN,
  GRPC_PORT: portFor(31),
  HTTP_PORT: portFor(32),
  WEBHOOK_PORT: portFor(33),
  SANDBOX_PORT: portFor(34),
  WORKER_IDLE_MS: '100',
  // The call is still in flight when the process is killed.
  SANDBOX_TIMEOUT_MS: '30000',
  // Minutes of checks compressed into seconds; the last ones come after the provider acted.
  UNKNOWN_CHECK_SCHEDULE_MS: '300,1000,2000,4000,8000,16000',
});

beforeAll(async () => {
  psp = await new SandboxPsp().start();
  database = await createTestDatabase();
});

afterAll(async () => {
  client?.close();
  running?.child.kill('SIGKILL');
  await running?.exited;
  await psp?.stop();
  await database?.drop();
  removeDir(dataDir);
});

async function start(): Promise<Driver> {
  client?.close();
  if (running && running.child.exitCode === null && running.child.signalCode === null) {
    running.child.kill('SIGTERM');
    await running.exited;
  }
  running = await spawnGateway(env());
  client = grpcDriver(`127.0.0.1:${env().GRPC_PORT}`, TOKEN);
  return client;
}

async function listed(grpc: Driver, providerAccountId: string): Promise<Array<{ idempotencyKey: string; checks: number }>> {
  return (await grpc.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId }))).requests;
}

/** What the provider holds for a reference, asked over its own API. */
async function chargesAtProvider(reference: string): Promise<Array<{ id: string }>> {
  const response = await fetch(`${psp.url}/v1/charges?reference=${encodeURIComponent(reference)}`, { headers: { authorization: `Bearer ${SECRET}` } });
  return ((await response.json()) as { data: Array<{ id: string }> }).data;
}

describe.each([
  { header: 'honours', honourIdempotencyKeys: true },
  { header: 'ignores', honourIdempotencyKeys: false },
])('a provider that acts late and $header the idempotency header', ({ honourIdempotencyKeys }) => {
  it('kill -9 during its call: after the restart the retry is answered at once, the request is listed, the resolver settles it, and the provider was called once', async () => {
    psp.behaviour = { actLateMs: ACTS_LATE_MS, honourIdempotencyKeys };
    psp.received.clear();
    const key = `crash-in-flight-${honourIdempotencyKeys ? 'honoured' : 'ignored'}`;
    let grpc = await start();
    const { providerAccount } = await grpc.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: key,
      publicKey: 'pk',
      secretKey: SECRET,
      baseUrl: psp.url,
    });
    const request = CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      idempotencyKey: key,
      transaction: { amount: 4321, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    });
    const charge = () => grpc.call('gateway', 'createTransaction', request);
    const lost = charge().catch(() => undefined);
    await eventually(async () => psp.received.get('POST /v1/charges') === 1, 10_000, 'the charge to reach the provider');
    running!.child.kill('SIGKILL');
    await running!.exited;
    await lost;

    grpc = await start();
    const started = Date.now();
    const details = await errorDetailsOf(charge());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(details).toMatchObject({ reason: 'IDEMPOTENCY_OUTCOME_UNKNOWN', retryDelayMs: expect.any(Number) });
    expect(await failureOf(charge())).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('still being confirmed') });
    const { requests } = await grpc.call(
      'gateway',
      'listUnconfirmedRequests',
      ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: providerAccount.id }),
    );
    expect(requests).toEqual([
      expect.objectContaining({
        operation: 'createTransaction',
        idempotencyKey: key,
        failure: expect.stringContaining('stopped while its provider call was in flight'),
        ageSeconds: expect.any(Number),
      }),
    ]);
    // The provider has not acted yet: the lookups find nothing, which proves nothing.
    await eventually(async () => (await listed(grpc, providerAccount.id))[0]?.checks >= 2, 10_000, 'two lookups that find nothing');
    expect(await chargesAtProvider(key)).toEqual([]);
    expect(await failureOf(charge())).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('still being confirmed') });
    expect(psp.actOnQueued()).toBe(1);

    let transaction: { transactionId: string } | undefined;
    await eventually(
      async () => {
        transaction = await charge().then(
          (answer) => answer.transaction,
          () => undefined,
        );
        return transaction !== undefined;
      },
      20_000,
      'the resolver to find and record the charge',
    );
    const atProvider = await chargesAtProvider(key);
    expect(atProvider).toHaveLength(1);
    expect(transaction!.transactionId).toBe(atProvider[0]!.id);
    expect(psp.received.get('POST /v1/charges')).toBe(1);
    expect((await grpc.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({})))?.requests).toEqual([]);
  }, 120_000);
});
