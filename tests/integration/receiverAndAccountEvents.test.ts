import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import {
  CreateReceiverRequest,
  CreateTransactionRequest,
  GetReceiverRequest,
  WatchEventsRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import {
  CreateProviderAccountRequest,
  DeleteProviderAccountRequest,
  UpdateProviderAccountRequest,
} from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { AccountChange, EventSubject, PaymentMethod, ReceiverStatus, StatusSource } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Receivers and provider accounts have events in WatchEvents' log (issue "a back-office operators can run the
 * business from"), so that the back-office's receiver and account pages follow changes live. They are written in
 * the database transaction of the change, carry no secret, are sent only to watchers that ask for their subjects
 * and hold the permission to read them, and only for the accounts a limited caller may see.
 */
let stack: TestStack;
let connect: Driver;
let raw: pg.Client;

const SECRET = 'sk-never-in-an-event';
const WEBHOOK_SECRET = 'whsec-never-in-an-event';
const BOTH = [EventSubject.EVENT_SUBJECT_RECEIVER, EventSubject.EVENT_SUBJECT_PROVIDER_ACCOUNT];

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  raw = new pg.Client({ connectionString: stack.database.url });
  await raw.connect();
});
afterAll(async () => {
  await raw?.end();
  connect?.close();
  await stack?.close();
});

const createAccount = async (name: string): Promise<string> =>
  (
    await stack.client.call(
      'accounts',
      'createProviderAccount',
      CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name, publicKey: 'pk', secretKey: SECRET, webhookSecret: WEBHOOK_SECRET }),
    )
  ).providerAccount.id;

const createReceiver = async (accountId: string, name: string) =>
  (
    await stack.client.call(
      'gateway',
      'createReceiver',
      CreateReceiverRequest.fromPartial({ providerAccountId: accountId, receiver: { name, document: '52998224725', email: 'maria@example.com' } }),
    )
  ).receiver;

/** The id of the newest event in the log, to watch from. */
const newestEventId = async (): Promise<string> => (await raw.query(`select coalesce(max(id), 0)::text as id from status_events`)).rows[0].id;

/** Reads `count` events, then makes sure no other one follows soon. */
async function take(watch: { next(timeoutMs?: number): Promise<any>; close(): void }, count: number) {
  const events = [];
  for (let i = 0; i < count; i += 1) events.push((await watch.next()).event);
  await expect(watch.next(700)).rejects.toThrow('no stream item within the time limit');
  watch.close();
  return events;
}

describe.each([['gRPC'], ['Connect']])('over %s', (transport) => {
  const driver = () => (transport === 'gRPC' ? stack.client : connect);

  it('streams a provider account created, updated and deleted, and a receiver created and found with another status on a read, to a watcher that asks for them', async () => {
    const after = await newestEventId();
    const accountId = await createAccount(`events ${transport}`);
    await stack.client.call('accounts', 'updateProviderAccount', UpdateProviderAccountRequest.fromPartial({ id: accountId, secretKey: `${SECRET}-2` }));
    const receiver = await createReceiver(accountId, `Recebedor ${transport}`);
    // The provider now reports a status other than the stored one: the read records the change.
    await raw.query(`update receivers set status = 'PENDING' where id = $1`, [receiver.id]);
    await stack.client.call('gateway', 'getReceiver', GetReceiverRequest.fromPartial({ providerAccountId: accountId, receiverId: receiver.receiverId }));
    // A read that finds the status unchanged records nothing.
    await stack.client.call('gateway', 'getReceiver', GetReceiverRequest.fromPartial({ providerAccountId: accountId, receiverId: receiver.receiverId }));
    await stack.client.call('accounts', 'deleteProviderAccount', DeleteProviderAccountRequest.fromPartial({ id: accountId }));

    const events = await take(driver().watch(WatchEventsRequest.fromPartial({ afterEventId: after, subjects: BOTH })), 5);
    expect(events.map((e) => [e.subject, e.subjectId, e.providerAccountId, e.accountChange, e.receiverStatus, e.source])).toEqual([
      [EventSubject.EVENT_SUBJECT_PROVIDER_ACCOUNT, accountId, accountId, AccountChange.ACCOUNT_CHANGE_CREATED, 0, StatusSource.STATUS_SOURCE_API],
      [EventSubject.EVENT_SUBJECT_PROVIDER_ACCOUNT, accountId, accountId, AccountChange.ACCOUNT_CHANGE_UPDATED, 0, StatusSource.STATUS_SOURCE_API],
      [EventSubject.EVENT_SUBJECT_RECEIVER, receiver.id, accountId, 0, ReceiverStatus.RECEIVER_STATUS_ACTIVE, StatusSource.STATUS_SOURCE_API],
      [EventSubject.EVENT_SUBJECT_RECEIVER, receiver.id, accountId, 0, ReceiverStatus.RECEIVER_STATUS_ACTIVE, StatusSource.STATUS_SOURCE_POLL],
      [EventSubject.EVENT_SUBJECT_PROVIDER_ACCOUNT, accountId, accountId, AccountChange.ACCOUNT_CHANGE_DELETED, 0, StatusSource.STATUS_SOURCE_API],
    ]);
    // Ids and statuses only: no secret, and no transaction or withdrawal status on these subjects.
    const text = JSON.stringify(events);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(WEBHOOK_SECRET);
    expect(events.every((e) => e.transactionStatus === 0 && e.withdrawStatus === 0)).toBe(true);
  });

  it('sends a watcher that names no subjects only transactions and withdrawals, as before', async () => {
    const after = await newestEventId();
    const accountId = await createAccount(`quiet ${transport}`);
    await createReceiver(accountId, 'Recebedor quieto');
    const { transaction } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        idempotencyKey: `events-${transport}`,
        transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
      }),
    );
    const events = await take(driver().watch(WatchEventsRequest.fromPartial({ afterEventId: after })), 1);
    expect(events.map((e) => [e.subject, e.subjectId])).toEqual([[EventSubject.EVENT_SUBJECT_TRANSACTION, transaction.id]]);
  });
});

it('writes each event in the database transaction of its change', async () => {
  const accountId = await createAccount('same transaction');
  const receiver = await createReceiver(accountId, 'Mesma transação');
  // xmin is the 32-bit id of the transaction that wrote the row; the event's tx is the 64-bit one.
  const { rows } = await raw.query(
    `select e.subject, (e.tx::text::numeric % 4294967296)::text as tx, coalesce(a.xmin, r.xmin)::text as xmin from status_events e
      left join provider_accounts a on e.subject = 'PROVIDER_ACCOUNT' and a.id = e.subject_id
      left join receivers r on e.subject = 'RECEIVER' and r.id = e.subject_id
      where e.subject_id in ($1, $2)`,
    [accountId, receiver.id],
  );
  expect(rows.map((row) => row.subject).sort()).toEqual(['PROVIDER_ACCOUNT', 'RECEIVER']);
  for (const row of rows) expect(row.tx).toBe(row.xmin);
});

it('refuses receivers and accounts to a watcher without their read permission, and shows a limited caller only its accounts', async () => {
  const mine = await createAccount('mine');
  const theirs = await createAccount('theirs');
  const token = async (scopes: string[], providerAccountIds: string[] = []) =>
    (await stack.client.call('access', 'createServiceToken', CreateServiceTokenRequest.fromPartial({ name: scopes.join(' '), scopes, providerAccountIds })))
      .secret as string;
  const eventsOnly = await token(['events:read']);
  for (const [subject, permission] of [
    [EventSubject.EVENT_SUBJECT_RECEIVER, 'receivers:read'],
    [EventSubject.EVENT_SUBJECT_PROVIDER_ACCOUNT, 'accounts:read'],
  ] as const) {
    const watch = stack.client.watch(WatchEventsRequest.fromPartial({ afterEventId: '0', subjects: [subject] }), eventsOnly);
    await expect(failureOf(watch.next())).resolves.toEqual({ code: 'PERMISSION_DENIED', message: `permission denied: this call needs ${permission}` });
    watch.close();
  }
  await expect(
    failureOf(stack.client.watch(WatchEventsRequest.fromPartial({ afterEventId: '0', subjects: [EventSubject.EVENT_SUBJECT_UNSPECIFIED] })).next()),
  ).resolves.toMatchObject({ code: 'INVALID_ARGUMENT' });

  const limited = await token(['events:read', 'receivers:read', 'accounts:read'], [mine]);
  const after = await newestEventId();
  await createReceiver(theirs, 'Deles');
  await stack.client.call('accounts', 'updateProviderAccount', UpdateProviderAccountRequest.fromPartial({ id: theirs, name: 'theirs, renamed' }));
  const receiver = await createReceiver(mine, 'Meu');
  await stack.client.call('accounts', 'updateProviderAccount', UpdateProviderAccountRequest.fromPartial({ id: mine, name: 'mine, renamed' }));
  const events = await take(stack.client.watch(WatchEventsRequest.fromPartial({ afterEventId: after, subjects: BOTH }), limited), 2);
  expect(events.map((e) => [e.subject, e.subjectId])).toEqual([
    [EventSubject.EVENT_SUBJECT_RECEIVER, receiver.id],
    [EventSubject.EVENT_SUBJECT_PROVIDER_ACCOUNT, mine],
  ]);
});
