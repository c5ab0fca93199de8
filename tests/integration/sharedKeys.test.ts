import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { OUTBOUND_SECRET_MISMATCH, SECRETS_KEY_MISMATCH } from '../../server/gateway/sharedKeys.js';
import { grpcDriver } from '../support/clients.js';
import { removeDir, startTestGateway, TEST_OUTBOUND_SECRET, TEST_TOKEN } from '../support/gateway.js';
import { createTestDatabase } from '../support/postgres.js';
import { portFor, spawnGateway } from '../support/process.js';

/** Every process of one database must share SECRETS_KEY and the outbound signing secret; one that does not refuses to start. */
let database: { url: string; drop(): Promise<void> };
let first: Awaited<ReturnType<typeof startTestGateway>>;
let firstKey: string;
const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-keys-'));
  dirs.push(dir);
  return dir;
};

async function query<T>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Starts a second gateway on the same database; its error when it refuses to start. */
async function second(env: Record<string, string>): Promise<Error | undefined> {
  try {
    const gateway = await startTestGateway({ databaseUrl: database.url, dataDir: newDir(), env });
    await gateway.close();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  first = await startTestGateway({ databaseUrl: database.url, dataDir: newDir() });
  firstKey = readFileSync(join(first.dataDir, 'secrets.key'), 'utf8').trim();
  // A stored provider secret, sealed with the first process's generated key.
  const client = grpcDriver(first.grpcAddress!, TEST_TOKEN);
  try {
    await client.call(
      'accounts',
      'createProviderAccount',
      CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'keys', publicKey: 'pk', secretKey: 'sk_very_secret' }),
    );
  } finally {
    client.close();
  }
}, 60_000);

afterAll(async () => {
  await first?.close();
  await database?.drop();
  for (const dir of dirs) removeDir(dir);
});

it('records the first process’s key fingerprints, which reveal neither key', async () => {
  const rows = await query<{ name: string; fingerprint: string }>('select name, fingerprint from key_fingerprints order by name');
  expect(rows.map((row) => row.name)).toEqual(['outbound-webhook-secret', 'secrets-key']);
  for (const row of rows) {
    expect(row.fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.fingerprint).not.toContain(firstKey);
  }
});

it('a process with another SECRETS_KEY (its own DATA_DIR, key generated there) refuses to start, naming the variable, not the key', async () => {
  const error = await second({});
  expect(error?.message).toBe(SECRETS_KEY_MISMATCH);
  expect(error?.message).not.toContain(firstKey);
});

it('the same key in another encoding (hex instead of base64) is the same key', async () => {
  const hex = Buffer.from(firstKey, 'base64').toString('hex');
  await expect(second({ SECRETS_KEY: hex })).resolves.toBeUndefined();
});

it('another outbound signing secret refuses to start, unless changed on purpose; then the old one is refused', async () => {
  expect((await second({ SECRETS_KEY: firstKey, OUTBOUND_WEBHOOK_SECRET: 'another-outbound-secret' }))?.message).toBe(OUTBOUND_SECRET_MISMATCH);
  await expect(
    second({ SECRETS_KEY: firstKey, OUTBOUND_WEBHOOK_SECRET: 'another-outbound-secret', OUTBOUND_WEBHOOK_SECRET_CHANGED: 'true' }),
  ).resolves.toBeUndefined();
  expect((await second({ SECRETS_KEY: firstKey, OUTBOUND_WEBHOOK_SECRET: TEST_OUTBOUND_SECRET }))?.message).toBe(OUTBOUND_SECRET_MISMATCH);
  await expect(
    second({ SECRETS_KEY: firstKey, OUTBOUND_WEBHOOK_SECRET: TEST_OUTBOUND_SECRET, OUTBOUND_WEBHOOK_SECRET_CHANGED: 'true' }),
  ).resolves.toBeUndefined();
});

it('a database from before the fingerprints is checked by opening one of its stored secrets: a wrong key is refused and records nothing', async () => {
  await query('delete from key_fingerprints');
  expect((await second({}))?.message).toBe(SECRETS_KEY_MISMATCH);
  await expect(query('select name from key_fingerprints')).resolves.toEqual([]);
  await expect(second({ SECRETS_KEY: firstKey })).resolves.toBeUndefined();
  await expect(query<{ name: string }>('select name from key_fingerprints order by name')).resolves.toEqual([
    { name: 'outbound-webhook-secret' },
    { name: 'secrets-key' },
  ]);
});

it('npm start with its own DATA_DIR on a database another process uses exits with the reason, before serving', async () => {
  const spawned = spawnGateway({
    DATABASE_URL: database.url,
    DATA_DIR: newDir(),
    API_TOKENS: TEST_TOKEN,
    GRPC_PORT: portFor(91),
    HTTP_PORT: portFor(92),
    WEBHOOK_PORT: portFor(93),
    SANDBOX_PORT: portFor(94),
  });
  await expect(spawned).rejects.toThrow(/exited early:[^]*SECRETS_KEY is not the key this database/);
}, 60_000);
