import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ACCOUNT_CHANGES_APPLICATION_NAME, ACCOUNT_CHANGES_CHANNEL } from '../../server/db/accountChanges.js';
import { AccountsRepository } from '../../server/db/accountsRepository.js';
import { openDatabase, type Database } from '../../server/db/orm.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type ExpectationHandle, type FakeProvider } from '../support/fakeProvider.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { answerEveryCharge, chargeSecret, newSandboxAccount } from '../support/sandboxCharges.js';
import { capturedLogger } from '../support/logCapture.js';
import { createTestDatabase } from '../support/postgres.js';

/**
 * Two gateway processes on one PostgreSQL database, each keeping accounts in memory for a minute (ACCOUNT_CACHE_MS):
 * a change or deletion made through one must reach the other as soon as it commits (LISTEN/NOTIFY), not a minute later.
 */
const SECRETS_KEY = randomBytes(32).toString('base64');
/** What "at once" means here: far below the minute of ACCOUNT_CACHE_MS. */
const PROMPTLY_MS = 2_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: FakeProvider;
let charges: ExpectationHandle;
let a: Awaited<ReturnType<typeof startTestGateway>>;
let b: Awaited<ReturnType<typeof startTestGateway>>;
let clientA: Driver;
let clientB: Driver;
let admin: pg.Client;
const logB = capturedLogger('warn');

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeProvider();
  // Every charge of every account reaches the fake, which records the credentials it was sent.
  charges = answerEveryCharge(fake);
  const env = { ACCOUNT_CACHE_MS: '60000', SECRETS_KEY, WEBHOOK_WORKERS: '0' };
  a = await startTestGateway({ databaseUrl: database.url, env });
  b = await startTestGateway({ databaseUrl: database.url, env, logger: logB.logger });
  clientA = grpcDriver(a.grpcAddress!, TEST_TOKEN);
  clientB = grpcDriver(b.grpcAddress!, TEST_TOKEN);
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
}, 120_000);

afterAll(async () => {
  clientA?.close();
  clientB?.close();
  await admin?.end();
  for (const gateway of [a, b]) {
    await gateway?.close();
    if (gateway) removeDir(gateway.dataDir);
  }
  await fake?.close();
  await database?.drop();
});

const newAccount = (name: string, secretKey: string) => newSandboxAccount(clientA, fake, name, secretKey);
const chargeWith = (client: Driver, providerAccountId: string) => chargeSecret(client, charges, providerAccountId);

/** Waits at most PROMPTLY_MS for `probe`; how long it took. */
async function promptly(probe: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  await eventually(probe, PROMPTLY_MS, what);
  return Date.now() - started;
}

/** The listeners' connections to this database (one per gateway), as PostgreSQL sees them. */
const listeners = async () =>
  (
    await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and application_name = $1 and query ilike 'listen%'`,
      [ACCOUNT_CHANGES_APPLICATION_NAME],
    )
  ).rows;

describe('a change of an account made through another process', () => {
  it('a secret rotated through A is the one B sends from its next charge on', async () => {
    const id = await newAccount('rotated', 'sk-1');
    expect(await chargeWith(clientB, id)).toBe('sk-1');
    expect(await chargeWith(clientA, id)).toBe('sk-1');
    await clientA.call('accounts', 'updateProviderAccount', { id, secretKey: 'sk-2' });
    expect(await chargeWith(clientA, id)).toBe('sk-2');
    await promptly(async () => (await chargeWith(clientB, id)) === 'sk-2', 'B to send the rotated secret');
  });

  it('an account deleted through A is refused by B', async () => {
    const id = await newAccount('deleted', 'sk-deleted');
    expect(await chargeWith(clientB, id)).toBe('sk-deleted');
    await clientA.call('accounts', 'deleteProviderAccount', { id });
    const sent = charges.calls.length;
    await promptly(async () => {
      const failure = await failureOf(chargeWith(clientB, id)).catch(() => undefined);
      return failure?.code === 'NOT_FOUND';
    }, 'B to refuse the deleted account');
    // The refusal came from B's own records: once refused, nothing more reaches the provider for it.
    const afterRefusal = charges.calls.length;
    expect(await failureOf(chargeWith(clientB, id))).toMatchObject({ code: 'NOT_FOUND' });
    expect(charges.calls.length).toBe(afterRefusal);
    expect(afterRefusal - sent).toBeLessThan(50);
  });
});

describe("the listener's connection", () => {
  it('lost: the cache is cleared and, once it listens again, changes reach B again', async () => {
    const id = await newAccount('reconnect', 'sk-1');
    expect(await chargeWith(clientB, id)).toBe('sk-1');
    // A change written in SQL by hand announces nothing: B keeps its copy (the minute of ACCOUNT_CACHE_MS).
    await admin.query('update provider_accounts set secret_key_sealed = $1 where id = $2', [SecretBox.fromEncodedKey(SECRETS_KEY).seal('sk-by-hand'), id]);
    expect(await chargeWith(clientB, id)).toBe('sk-1');

    const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1`, [
      ACCOUNT_CHANGES_APPLICATION_NAME,
    ]);
    expect(killed.rowCount).toBe(2); // A's and B's
    // Announcements may have been missed while it was gone: nothing cached is trusted.
    await promptly(async () => (await chargeWith(clientB, id)) === 'sk-by-hand', 'B to read the account again');
    await eventually(async () => (await listeners()).length === 2, 10_000, 'both listeners to be back');
    await eventually(async () => logB.lines.some((line) => line.includes('listening again')), 10_000, 'B to say it listens again');
    // Cached again once B listens, so that only an announcement can make B drop it.
    expect(await chargeWith(clientB, id)).toBe('sk-by-hand');

    await clientA.call('accounts', 'updateProviderAccount', { id, secretKey: 'sk-3' });
    await promptly(async () => (await chargeWith(clientB, id)) === 'sk-3', 'B to send the secret rotated after the reconnection');

    const warnings = logB.records().filter((record) => record.msg.startsWith('account changes:'));
    expect(warnings.map((record) => record.msg)).toEqual([
      expect.stringContaining('lost the listening connection'),
      expect.stringContaining('listening again'),
    ]);
    expect(warnings.every((record) => record.level === 40)).toBe(true);
    expect(logB.lines.join('\n')).not.toMatch(/sk-|postgresql:\/\//);
  });
});

describe('announcements', () => {
  let db: Database;
  let listener: pg.Client;
  const heard: string[] = [];

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent', migrate: false });
    listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', ({ channel, payload }) => {
      if (channel === ACCOUNT_CHANGES_CHANNEL && payload) heard.push(payload);
    });
    await listener.query(`listen ${ACCOUNT_CHANGES_CHANNEL}`);
  });

  afterAll(async () => {
    await listener?.end();
    await db?.close();
  });

  it('are sent when the change commits, and never for a change rolled back', async () => {
    const accounts = new AccountsRepository(SecretBox.fromEncodedKey(SECRETS_KEY), 60_000);
    const { account } = await accounts.create(db.em(), { provider: 'SANDBOX', name: 'announced', publicKey: 'pk', secretKey: 'sk' });
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      db.em().transactional(async (tx) => {
        expect(await accounts.update(tx, account.id, { secretKey: 'sk-never' })).not.toBeNull();
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    await expect(
      db.em().transactional(async (tx) => {
        expect(await accounts.softDelete(tx, account.id)).toBeDefined();
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    // A committed change after them: once it is heard, anything the rolled-back ones sent would have been heard first.
    await accounts.update(db.em(), account.id, { name: 'renamed' });
    await eventually(async () => heard.includes(account.id), PROMPTLY_MS, 'the committed change to be announced');
    expect(heard.filter((id) => id === account.id)).toHaveLength(1);
    expect((await accounts.getWithSecrets(db.em(), account.id))?.secretKey).toBe('sk');
  });
});
