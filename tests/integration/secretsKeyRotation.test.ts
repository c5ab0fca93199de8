import { execFile } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateCardIdRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { ReceiversRepository } from '../../server/db/receiversRepository.js';
import { SEALED_COLUMNS, SealedSecretsRepository } from '../../server/db/sealedSecretsRepository.js';
import { SECRETS_KEY_MISMATCH, SECRETS_KEY_RETIRED } from '../../server/gateway/sharedKeys.js';
import { base32Decode, totpCode } from '../../server/lib/totp.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { grpcDriver, type Driver } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { cardCharge, gatewayCardToken } from '../support/gatewayCard.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { createTestDatabase } from '../support/postgres.js';

/**
 * Issue 30 §5: SECRETS_KEY rotated on a running fleet. A gateway on the old key stores an account's secrets, a saved
 * card, a receiver's credential and an operator's TOTP secret; then the fleet rolls through the four steps of
 * docs/operations.md, each step's gateway started while the previous step's still runs: at every step a charge at the
 * account (its secret key opened, sent as Basic auth), a saved-card charge, a card token made by the other side of the
 * rotation and a TOTP sign-in all work, and a CSRF token from the other side is accepted. The reseal re-seals what only
 * the old key opens (a second run changes nothing); afterwards a process with only the old key is refused, one with only
 * the new key starts.
 */
type Gateway = Awaited<ReturnType<typeof startTestGateway>>;

const OLD = SecretBox.generateEncodedKey();
const NEW = SecretBox.generateEncodedKey();
const SECRET_KEY = 'sk_rotating_secret';
const ADMIN = { email: 'admin@localhost', password: 'admin-password-rotation' };
const CARD = { cardNumber: '4111111111111111', holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '03', expYear: '2030', cvv: '737' };

let database: { url: string; drop(): Promise<void> };
let sql: pg.Client;
let fake: FakeProvider;
const running: Gateway[] = [];
let accountId: string;
let savedCardId: string;
let totpSecret: Buffer;
let charges = 0;

async function gateway(keys: { SECRETS_KEY: string; SECRETS_KEY_OTHER?: string }): Promise<Gateway> {
  const started = await startTestGateway({
    databaseUrl: database.url,
    // Every call opens the account's secrets from the row, not from a copy cached before the step.
    env: { ...keys, ACCOUNT_CACHE_MS: '0', ADMIN_PASSWORD: ADMIN.password, SIGN_IN_RATE_PER_MINUTE: '1000' },
  });
  running.push(started);
  return started;
}

async function stop(gateway: Gateway): Promise<void> {
  running.splice(running.indexOf(gateway), 1);
  await gateway.close();
  removeDir(gateway.dataDir);
}

/** The reason a gateway with these keys refuses to start; undefined when it starts. */
async function refusalOf(keys: { SECRETS_KEY: string; SECRETS_KEY_OTHER?: string }): Promise<string | undefined> {
  try {
    await stop(await gateway(keys));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function client(at: Gateway): Driver {
  return grpcDriver(at.grpcAddress!, TEST_TOKEN);
}

async function cardToken(at: Gateway): Promise<string> {
  const driver = client(at);
  try {
    return await gatewayCardToken(driver, accountId, CARD);
  } finally {
    driver.close();
  }
}

/** A charge at the account with a card token or a saved card: the provider is sent the account's secret key. */
async function charge(at: Gateway, cardId: string): Promise<string> {
  charges += 1;
  const id = `ps_rot_${charges}`;
  const expected = fake.expect({
    method: 'POST',
    path: '/transactions',
    headers: { authorization: `Basic ${Buffer.from(`${SECRET_KEY}:x`).toString('base64')}` },
    reply: { status: 200, body: { id, status: 'paid', amount: 1990, paymentMethod: 'credit_card' } },
  });
  const driver = client(at);
  try {
    const { transaction } = await driver.call('gateway', 'createTransaction', cardCharge(accountId, cardId, `rotation-${charges}`));
    expect(expected.done).toBe(true);
    return transaction.transactionId;
  } finally {
    driver.close();
  }
}

/** Signs the admin in with a TOTP code (its last spent step forgotten, so that each step may sign in within one 30 s step). */
async function signIn(at: Gateway): Promise<{ cookie: string; 'x-csrf-token': string }> {
  await sql.query('update operators set totp_last_step = null where email = $1', [ADMIN.email]);
  const response = await fetch(`${at.httpUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, totpCode: totpCode(totpSecret, Date.now()) }),
  });
  expect(response.status).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken };
}

/** A Connect call with a session made at another process, so with that process's CSRF token. */
async function listOperators(at: Gateway, session: Record<string, string>): Promise<number> {
  const response = await fetch(`${at.httpUrl}/gateway.v1.AccessService/ListOperators`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...session },
    body: '{}',
  });
  return response.status;
}

/** What a step's processes must all do, each with what the other side of the rotation made. */
async function everythingWorks(at: Gateway, other: Gateway, keys: SecretBox): Promise<void> {
  expect(await charge(at, savedCardId)).toMatch(/^ps_rot_/);
  expect(await charge(at, await cardToken(other))).toMatch(/^ps_rot_/);
  expect(await charge(other, await cardToken(at))).toMatch(/^ps_rot_/);
  // A card saved here charges there.
  const driver = client(at);
  const { cardId } = await driver.call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId: accountId, card: CARD }));
  driver.close();
  expect(await charge(other, cardId)).toMatch(/^ps_rot_/);
  expect(await listOperators(at, await signIn(other))).toBe(200);
  expect(await listOperators(other, await signIn(at))).toBe(200);
  await expect(new ReceiversRepository(keys).secretOf(at.db!.em(), accountId, 'rcv_rotation')).resolves.toBe('receiver_api_token');
}

function reseal(keys: { SECRETS_KEY: string; SECRETS_KEY_OTHER: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/reseal.ts'],
      { env: { ...process.env, ...keys, DATABASE_URL: database.url } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

async function sealedValues(): Promise<unknown[]> {
  const queries = [
    'select id, secret_key_sealed, webhook_secret_sealed from provider_accounts order by id',
    'select id, secret_sealed from receivers order by id',
    'select id, totp_secret_sealed, totp_pending_sealed from operators order by id',
    'select id, card_sealed from saved_cards order by id',
  ];
  const rows: unknown[] = [];
  for (const query of queries) rows.push((await sql.query(query)).rows);
  return rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  fake = await startFakeProvider();
}, 60_000);

afterAll(async () => {
  for (const started of [...running].reverse()) await stop(started);
  await fake?.close();
  await sql?.end();
  await database?.drop();
});

it('rotates SECRETS_KEY through the four steps with every call answered, and the reseal moves every secret to the new key', async () => {
  // Before: one gateway on the old key, with an account's secrets, a saved card, a receiver's credential and a TOTP operator.
  const before = await gateway({ SECRETS_KEY: OLD });
  const driver = client(before);
  accountId = (
    await driver.call('accounts', 'createProviderAccount', {
      provider: 'PAGUESAFE',
      name: 'rotation',
      publicKey: 'pk_rotating',
      secretKey: SECRET_KEY,
      webhookSecret: 'whsec_rotating',
      baseUrl: fake.url,
    })
  ).providerAccount.id;
  savedCardId = (await driver.call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId: accountId, card: CARD }))).cardId;
  driver.close();
  await new ReceiversRepository(SecretBox.fromEncodedKey(OLD)).upsert(
    before.db!.em().fork(),
    accountId,
    {
      receiverId: 'rcv_rotation',
      receiverProvider: 'PAGUESAFE',
      secret: 'receiver_api_token',
      name: 'Loja',
      document: '12345678909',
      documentType: 'CPF',
      email: 'loja@example.com',
      status: 'ACTIVE',
      balance: 0,
    },
    'api',
  );
  const signedIn = await fetch(`${before.httpUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const session = { cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': ((await signedIn.json()) as { csrfToken: string }).csrfToken };
  const rpc = (method: string, body: unknown) =>
    fetch(`${before.httpUrl}/gateway.v1.AccessService/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session },
      body: JSON.stringify(body),
    });
  totpSecret = base32Decode(((await (await rpc('BeginTotpEnrollment', {})).json()) as { secret: string }).secret);
  expect((await rpc('ConfirmTotpEnrollment', { code: totpCode(totpSecret, Date.now()) })).status).toBe(200);
  const tokenBefore = await cardToken(before);

  // Step 1: SECRETS_KEY=old, SECRETS_KEY_OTHER=new, beside the process from before.
  const stepOne = await gateway({ SECRETS_KEY: OLD, SECRETS_KEY_OTHER: NEW });
  await everythingWorks(stepOne, before, SecretBox.fromEncodedKey(OLD, NEW));
  await stop(before);

  // Step 2: SECRETS_KEY=new, SECRETS_KEY_OTHER=old, beside step 1's; a token made before the rotation still charges.
  const stepTwo = await gateway({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: OLD });
  await everythingWorks(stepTwo, stepOne, SecretBox.fromEncodedKey(NEW, OLD));
  expect(await charge(stepTwo, tokenBefore)).toMatch(/^ps_rot_/);
  await stop(stepOne);

  // Step 3: the reseal. A value neither key opens is refused first, with nothing changed.
  const stranger = SecretBox.fromEncodedKey(SecretBox.generateEncodedKey()).seal('foreign');
  await sql.query('update operators set totp_pending_sealed = $1 where email = $2', [stranger, ADMIN.email]);
  const unchanged = await sealedValues();
  const refused = await reseal({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: OLD });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /^1 sealed value\(s\) open under neither SECRETS_KEY nor SECRETS_KEY_OTHER \(operators\.totp_pending_sealed id [0-9a-f-]{36}\): nothing was changed/,
  );
  expect(await sealedValues()).toEqual(unchanged);
  await sql.query('update operators set totp_pending_sealed = null where email = $1', [ADMIN.email]);

  const first = await reseal({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: OLD });
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  // The account's two secrets, the receiver's, the TOTP secret and the saved card made under the old key; the saved
  // card of step 2 was sealed under the new one already.
  expect(first.stdout).toContain('provider_accounts.secret_key_sealed: 1 re-sealed, 0 already under SECRETS_KEY');
  expect(first.stdout).toContain('provider_accounts.webhook_secret_sealed: 1 re-sealed, 0 already under SECRETS_KEY');
  expect(first.stdout).toContain('receivers.secret_sealed: 1 re-sealed, 0 already under SECRETS_KEY');
  expect(first.stdout).toContain('operators.totp_secret_sealed: 1 re-sealed, 0 already under SECRETS_KEY');
  expect(first.stdout).toContain('operators.totp_pending_sealed: 0 re-sealed, 0 already under SECRETS_KEY');
  expect(first.stdout).toContain('saved_cards.card_sealed: 2 re-sealed, 1 already under SECRETS_KEY');
  const resealed = await sealedValues();
  const second = await reseal({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: OLD });
  expect(second.code).toBe(0);
  expect(second.stdout.match(/: 0 re-sealed/g)).toHaveLength(6);
  expect(await sealedValues()).toEqual(resealed);
  const account = (await sql.query('select secret_key_sealed from provider_accounts')).rows[0] as { secret_key_sealed: string };
  expect(SecretBox.fromEncodedKey(NEW).open(account.secret_key_sealed)).toBe(SECRET_KEY);
  // Step 2's process still works after the reseal.
  expect(await charge(stepTwo, savedCardId)).toMatch(/^ps_rot_/);

  // No process sealing under the old key may start any more; one with only the new key does.
  expect(await refusalOf({ SECRETS_KEY: OLD })).toBe(SECRETS_KEY_RETIRED);
  expect(await refusalOf({ SECRETS_KEY: OLD, SECRETS_KEY_OTHER: NEW })).toBe(SECRETS_KEY_RETIRED);
  expect(await refusalOf({ SECRETS_KEY: SecretBox.generateEncodedKey() })).toBe(SECRETS_KEY_MISMATCH);

  // Step 4: SECRETS_KEY_OTHER removed.
  const stepFour = await gateway({ SECRETS_KEY: NEW });
  await everythingWorks(stepFour, stepTwo, SecretBox.fromEncodedKey(NEW));
  await stop(stepTwo);
  expect(await charge(stepFour, savedCardId)).toMatch(/^ps_rot_/);
  expect(fake.unexpected).toEqual([]);
}, 240_000);

it('the reseal replaces a value only where it is still the one read: a change a live process made meanwhile is kept', async () => {
  const at = running[0]!;
  const column = SEALED_COLUMNS.find((sealed) => sealed.column === 'webhook_secret_sealed')!;
  const [read] = await new SealedSecretsRepository().batch(at.db!.em(), column, undefined, 1);
  const changed = SecretBox.fromEncodedKey(NEW).seal('whsec_changed_meanwhile');
  await sql.query('update provider_accounts set webhook_secret_sealed = $1 where id = $2', [changed, read!.id]);
  expect(await new SealedSecretsRepository().replace(at.db!.em(), column, read!.id, read!.sealed, SecretBox.fromEncodedKey(NEW).seal('stale'))).toBe(false);
  expect((await sql.query('select webhook_secret_sealed from provider_accounts where id = $1', [read!.id])).rows[0]).toEqual({
    webhook_secret_sealed: changed,
  });
  expect(await new SealedSecretsRepository().replace(at.db!.em(), column, read!.id, changed, read!.sealed)).toBe(true);
});

it('a rotation back to the retired key may begin: a process of its first step clears the mark, then its second step starts', async () => {
  expect(await refusalOf({ SECRETS_KEY: OLD, SECRETS_KEY_OTHER: NEW })).toBe(SECRETS_KEY_RETIRED);
  expect(await refusalOf({ SECRETS_KEY: NEW, SECRETS_KEY_OTHER: OLD })).toBeUndefined();
  expect(await refusalOf({ SECRETS_KEY: OLD, SECRETS_KEY_OTHER: NEW })).toBeUndefined();
});
