import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase, type Database } from '../../server/db/orm.js';
import { TransactionsRepository } from '../../server/db/transactionsRepository.js';
import { OutboundRepository } from '../../server/db/outboundRepository.js';
import { transactionStatusChangedBody } from '../../server/gateway/outboundMessages.js';
import type { TransactionStatus } from '../../server/domain/types.js';
import { createTestDatabase } from '../support/postgres.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
const repo = new TransactionsRepository(new OutboundRepository(), transactionStatusChangedBody);
const ACCOUNT = '0b9d7f3e-1111-4222-8333-444455556666';

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent' });
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function pending(): Promise<string> {
  const { transaction } = await repo.insertTransaction(db.em(), {
    provider: 'SANDBOX',
    providerAccountId: ACCOUNT,
    result: { paymentMethod: 'PIX', transactionId: `ch_${Math.random()}`, status: 'PENDING', amount: 100 },
    installments: 1,
    currency: 'BRL',
  });
  return transaction.id;
}

const history = async (id: string) => (await repo.findTransaction(db.em(), id, 'primary'))!.statusHistory.map((change) => `${change.status}/${change.source}`);

describe('status state machine on PostgreSQL', () => {
  it('never moves backwards: a late PENDING after APPROVED, an APPROVED after REFUNDED', async () => {
    const id = await pending();
    expect((await repo.moveTransactionStatus(db.em(), id, 'APPROVED', 'webhook'))?.changed).toBe(true);
    expect((await repo.moveTransactionStatus(db.em(), id, 'PENDING', 'webhook'))?.changed).toBe(false);
    expect((await repo.moveTransactionStatus(db.em(), id, 'APPROVED', 'poll'))?.changed).toBe(false);
    expect((await repo.moveTransactionStatus(db.em(), id, 'REFUNDED', 'api'))?.changed).toBe(true);
    expect((await repo.moveTransactionStatus(db.em(), id, 'APPROVED', 'webhook'))?.changed).toBe(false);
    expect((await repo.findTransaction(db.em(), id, 'primary'))!.status).toBe('REFUNDED');
    expect(await history(id)).toEqual(['PENDING/api', 'APPROVED/webhook', 'REFUNDED/api']);
  });

  it('serializes concurrent updates of one transaction: exactly one of 20 racing moves wins', async () => {
    const id = await pending();
    const targets: TransactionStatus[] = Array.from({ length: 20 }, (_, i) => (['APPROVED', 'REJECTED', 'CANCELED'] as const)[i % 3]!);
    const moves = await Promise.all(targets.map((to) => repo.moveTransactionStatus(db.em(), id, to, 'webhook')));
    const winners = moves.filter((move) => move?.changed);
    expect(winners).toHaveLength(1);
    const final = (await repo.findTransaction(db.em(), id, 'primary'))!;
    expect(final.status).toBe(winners[0]!.to);
    expect(await history(id)).toEqual(['PENDING/api', `${winners[0]!.to}/webhook`]);
  });

  it('records a payment with no charge once, however many copies of its notification race', async () => {
    const payment = {
      type: 'UNSOLICITED_PAYMENT' as const,
      transactionId: `static_${Math.random()}`,
      amount: 990,
      paymentMethod: 'PIX' as const,
      status: 'APPROVED' as const,
    };
    const copies = await Promise.all(
      Array.from({ length: 10 }, () => repo.recordUnsolicitedPayment(db.em(), { provider: 'SANDBOX', providerAccountId: ACCOUNT, payment, source: 'webhook' })),
    );
    expect(copies.filter((copy) => copy.created)).toHaveLength(1);
    expect(copies.filter((copy) => copy.event)).toHaveLength(1);
    expect(new Set(copies.map((copy) => copy.transaction.id)).size).toBe(1);
    expect(copies[0]!.transaction).toMatchObject({ origin: 'webhook', status: 'APPROVED', amount: 990 });
    expect(await history(copies[0]!.transaction.id)).toEqual(['APPROVED/webhook']);
  });

  it('records each change with its source and time', async () => {
    const id = await pending();
    const before = Date.now();
    await repo.moveTransactionStatus(db.em(), id, 'APPROVED', 'poll');
    const [, approved] = (await repo.findTransaction(db.em(), id, 'primary'))!.statusHistory;
    expect(approved).toMatchObject({ status: 'APPROVED', source: 'poll' });
    expect(approved!.changedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});
