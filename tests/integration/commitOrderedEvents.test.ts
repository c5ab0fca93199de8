import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/orm.js';
import { AccountsRepository } from '../../server/db/accountsRepository.js';
import { TransactionsRepository } from '../../server/db/transactionsRepository.js';
import { OutboundRepository } from '../../server/db/outboundRepository.js';
import { StatusEvents } from '../../server/gateway/events.js';
import { transactionStatusChangedBody } from '../../server/gateway/outboundMessages.js';
import type { StatusEvent } from '../../server/domain/types.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { eventually } from '../support/eventually.js';
import { createTestDatabase } from '../support/postgres.js';

/**
 * Writers of the event log take no global lock (issue "fast and observable"): event ids are handed out when a
 * transaction inserts, not when it commits, so a watcher must never pass an event whose transaction is still open.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let raw: pg.Client;
const repo = new TransactionsRepository(new OutboundRepository(), transactionStatusChangedBody);
const ACCOUNT = '0b9d7f3e-1111-4222-8333-444455556666';

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent' });
  raw = new pg.Client({ connectionString: database.url });
  await raw.connect();
});

afterAll(async () => {
  await raw?.end();
  await db?.close();
  await database?.drop();
});

const OTHER_ACCOUNT = '0b9d7f3e-1111-4222-8333-777788889999';
const charge = async (providerId: string, providerAccountId = ACCOUNT) =>
  (
    await repo.insertTransaction(db.em(), {
      provider: 'SANDBOX',
      providerAccountId,
      result: { paymentMethod: 'PIX', transactionId: providerId, status: 'PENDING', amount: 100 },
      installments: 1,
      currency: 'BRL',
    })
  ).transaction;

describe('WatchEvents without a global lock', () => {
  it('holds back a committed event while an earlier-numbered one is still uncommitted, then serves both in commit-safe order', async () => {
    const early = await charge('ch_early');
    const late = await charge('ch_late');
    const events = new StatusEvents(db, 50);
    const abort = new AbortController();
    const seen: StatusEvent[] = [];
    const watching = (async () => {
      for await (const event of events.watch(undefined, [], [], abort.signal)) seen.push(event);
    })();
    // A slow writer takes the lower event id and stays open; a fast one takes the next id and commits.
    await raw.query('begin');
    await raw.query(
      `insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at) values ('TRANSACTION', $1, $2, 'APPROVED', 'webhook', now())`,
      [early.id, ACCOUNT],
    );
    expect((await repo.moveTransactionStatus(db.em(), late.id, 'APPROVED', 'webhook'))?.changed).toBe(true);
    events.published(undefined as never);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Served by id alone, the fast writer's event would be out now and the slow one's, committed later, never.
    expect(seen).toEqual([]);
    await raw.query('commit');
    await eventually(async () => seen.length === 2);
    expect(seen.map((event) => event.subjectId)).toEqual([early.id, late.id]);
    abort.abort();
    await watching;
  });

  it('resumes after an event id: nothing seen again, nothing skipped', async () => {
    const first = await charge('ch_resume_1', OTHER_ACCOUNT);
    const second = await charge('ch_resume_2', OTHER_ACCOUNT);
    await repo.moveTransactionStatus(db.em(), first.id, 'APPROVED', 'webhook');
    await repo.moveTransactionStatus(db.em(), second.id, 'APPROVED', 'webhook');
    const read = async (after: string | undefined, count: number) => {
      const abort = new AbortController();
      const got: StatusEvent[] = [];
      for await (const event of new StatusEvents(db, 50).watch(after, [OTHER_ACCOUNT], [], abort.signal)) {
        got.push(event);
        if (got.length === count) abort.abort();
      }
      return got;
    };
    const mine = await read('0', 4);
    expect(mine.map((event) => `${event.subjectId === first.id ? 'first' : 'second'}/${event.status}`)).toEqual([
      'first/PENDING',
      'second/PENDING',
      'first/APPROVED',
      'second/APPROVED',
    ]);
    const rest = await read(mine[1]!.eventId, 2);
    expect(rest.map((event) => event.eventId)).toEqual([mine[2]!.eventId, mine[3]!.eventId]);
  });

  it('stores one charge per provider id, even when two writers race', async () => {
    const [a, b] = await Promise.all([charge('ch_race'), charge('ch_race')]);
    expect(a.id).toBe(b.id);
    const { rows } = await raw.query(`select count(*)::int as n from transactions where provider_transaction_id = 'ch_race'`);
    expect(rows[0].n).toBe(1);
  });
});

describe('provider accounts in memory', () => {
  it('serves an account and its opened secrets for ACCOUNT_CACHE_MS, sees its own changes at once and others within that time', async () => {
    let now = 1_000_000;
    const secrets = SecretBox.fromEncodedKey('0'.repeat(64));
    const accounts = new AccountsRepository(secrets, 5_000, () => now);
    const { account: created } = await accounts.create(db.em(), { provider: 'SANDBOX', name: 'cached', publicKey: 'pk', secretKey: 'sk-1' });
    expect((await accounts.getWithSecrets(db.em(), created.id))?.secretKey).toBe('sk-1');
    // Another process rotates the secret: this one keeps the opened copy until the time is up.
    await raw.query('update provider_accounts set secret_key_sealed = $1 where id = $2', [secrets.seal('sk-2'), created.id]);
    expect((await accounts.getWithSecrets(db.em(), created.id))?.secretKey).toBe('sk-1');
    now += 5_001;
    expect((await accounts.getWithSecrets(db.em(), created.id))?.secretKey).toBe('sk-2');
    // A change made through this process applies at once; so does a deletion.
    await accounts.update(db.em(), created.id, { secretKey: 'sk-3' });
    expect((await accounts.getWithSecrets(db.em(), created.id))?.secretKey).toBe('sk-3');
    await accounts.softDelete(db.em(), created.id);
    expect(await accounts.getWithSecrets(db.em(), created.id)).toBeNull();
    expect((await accounts.getWithSecrets(db.em(), created.id, { includeDeleted: true }))?.secretKey).toBe('sk-3');
  });
});
