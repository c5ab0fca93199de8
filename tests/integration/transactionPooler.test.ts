import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type ExpectationHandle, type FakeProvider } from '../support/fakeProvider.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { answerEveryCharge, chargeSecret, newSandboxAccount } from '../support/sandboxCharges.js';
import { startPgBouncer, type PgBouncer } from '../support/pgBouncer.js';
import { createTestDatabase } from '../support/postgres.js';

/**
 * Issue 30 §1: a fleet's gateways reach PostgreSQL through PgBouncer in transaction mode (Debian bookworm's 1.18,
 * which keeps no prepared statement across transactions and delivers no notification). Two gateway processes go
 * through it with DB_PREPARED_STATEMENTS=false; their LISTEN for account changes goes straight to PostgreSQL
 * (DATABASE_LISTEN_URL), so a change made through one still reaches the other as it commits.
 */
const SECRETS_KEY = randomBytes(32).toString('base64');
const PROMPTLY_MS = 2_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let bouncer: PgBouncer;
let fake: FakeProvider;
let charges: ExpectationHandle;
let a: Awaited<ReturnType<typeof startTestGateway>>;
let b: Awaited<ReturnType<typeof startTestGateway>>;
let clientA: Driver;
let clientB: Driver;

beforeAll(async () => {
  database = await createTestDatabase();
  const direct = new URL(database.url);
  const name = direct.pathname.slice(1);
  bouncer = await startPgBouncer({ host: direct.hostname, port: Number(direct.port) });
  fake = await startFakeProvider();
  charges = answerEveryCharge(fake);
  const env = {
    ACCOUNT_CACHE_MS: '60000',
    SECRETS_KEY,
    DB_PREPARED_STATEMENTS: 'false',
    DATABASE_LISTEN_URL: database.url,
    // More connections than the pooler's server sessions, so that statements of one process meet many sessions.
    DB_POOL_MAX: '30',
  };
  a = await startTestGateway({ databaseUrl: bouncer.url(name), env });
  b = await startTestGateway({ databaseUrl: bouncer.url(name), env: { ...env, WEBHOOK_WORKERS: '0' } });
  clientA = grpcDriver(a.grpcAddress!, TEST_TOKEN);
  clientB = grpcDriver(b.grpcAddress!, TEST_TOKEN);
}, 120_000);

afterAll(async () => {
  clientA?.close();
  clientB?.close();
  for (const gateway of [a, b]) {
    await gateway?.close();
    if (gateway) removeDir(gateway.dataDir);
  }
  await fake?.close();
  await bouncer?.stop();
  await database?.drop();
});

const newAccount = (name: string, secretKey: string) => newSandboxAccount(clientA, fake, name, secretKey);
const chargeWith = (client: Driver, providerAccountId: string) => chargeSecret(client, charges, providerAccountId);

/** Forty keyed charges, alternating between the processes (`flip` swaps which one takes the even keys). */
const keyedCharges = (providerAccountId: string, flip: boolean) =>
  Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      (i % 2 === Number(flip) ? clientA : clientB).call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({
          providerAccountId,
          idempotencyKey: `pooled-${i}`,
          transaction: { amount: 1000 + i, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
        }),
      ),
    ),
  );

describe('behind PgBouncer in transaction mode', () => {
  it('charges with idempotency keys and reads them back, many at once from two processes', async () => {
    const id = await newAccount('pooled', 'sk-pooled');
    const charged = await keyedCharges(id, false);
    // The same keys again, through the other process: the first answers, nothing sent twice.
    const sent = charges.calls.length;
    const replayed = await keyedCharges(id, true);
    expect(charges.calls.length).toBe(sent);
    expect(replayed.map(({ transaction }) => transaction.id)).toEqual(charged.map(({ transaction }) => transaction.id));
    for (const [i, { transaction }] of charged.entries()) {
      const read = await (i % 2 ? clientB : clientA).call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
      expect(read.transaction).toMatchObject({ id: transaction.id, amount: transaction.amount });
    }
  });

  it('a secret rotated through A is the one B sends at once (its LISTEN goes to DATABASE_LISTEN_URL)', async () => {
    const id = await newAccount('rotated', 'sk-1');
    expect(await chargeWith(clientB, id)).toBe('sk-1');
    await clientA.call('accounts', 'updateProviderAccount', { id, secretKey: 'sk-2' });
    expect(await chargeWith(clientA, id)).toBe('sk-2');
    await eventually(async () => (await chargeWith(clientB, id)) === 'sk-2', PROMPTLY_MS, 'B to send the rotated secret');
  });
});
