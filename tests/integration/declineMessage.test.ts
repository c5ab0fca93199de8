import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { openDatabase, type Database } from '../../server/db/orm.js';
import { TransactionsRepository } from '../../server/db/transactionsRepository.js';
import { OutboundRepository } from '../../server/db/outboundRepository.js';
import { transactionStatusChangedBody } from '../../server/gateway/outboundMessages.js';
import type { TransactionResult } from '../../server/domain/types.js';
import { createTestDatabase } from '../support/postgres.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
const repo = new TransactionsRepository(new OutboundRepository(), transactionStatusChangedBody);
const ACCOUNT = '0b9d7f3e-1111-4222-8333-444455556677';

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent' });
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function charge(result: Partial<TransactionResult>): Promise<string> {
  const { transaction } = await repo.insertTransaction(db.em(), {
    provider: 'SANDBOX',
    providerAccountId: ACCOUNT,
    result: { paymentMethod: 'CREDIT_CARD', transactionId: `ch_${Math.random()}`, status: 'REJECTED', amount: 100, ...result },
    installments: 1,
    currency: 'BRL',
  });
  return transaction.id;
}

const decline = async (id: string) => {
  const { declineReason, declineMessage } = (await repo.findTransaction(db.em(), id, 'primary'))!;
  return { declineReason, declineMessage };
};

it("stores a decline's code and text together, and a text only beside a reason of a declined charge", async () => {
  expect(await decline(await charge({ declineReason: '51', declineMessage: 'Saldo insuficiente' }))).toEqual({
    declineReason: '51',
    declineMessage: 'Saldo insuficiente',
  });
  expect(await decline(await charge({ declineMessage: 'Saldo insuficiente' }))).toEqual({ declineReason: undefined, declineMessage: undefined });
  expect(await decline(await charge({ status: 'APPROVED', declineReason: '51', declineMessage: 'x' }))).toEqual({
    declineReason: undefined,
    declineMessage: undefined,
  });
});

it("fills a later read's code and text on a decline stored without them, and never replaces them with another answer's", async () => {
  const id = await charge({});
  await repo.recordDeclineReason(db.em(), id, '05', 'Transação negada');
  expect(await decline(id)).toEqual({ declineReason: '05', declineMessage: 'Transação negada' });
  await repo.recordDeclineReason(db.em(), id, '51', 'Saldo insuficiente');
  await repo.recordDeclineReason(db.em(), id, '05', 'Outro texto');
  expect(await decline(id)).toEqual({ declineReason: '05', declineMessage: 'Transação negada' });
});

it('fills the text alone beside the same code (a decline stored before texts were kept), not beside another', async () => {
  const id = await charge({ declineReason: '05' });
  await repo.recordDeclineReason(db.em(), id, '51', 'Saldo insuficiente');
  expect(await decline(id)).toEqual({ declineReason: '05', declineMessage: undefined });
  await repo.recordDeclineReason(db.em(), id, '05');
  expect(await decline(id)).toEqual({ declineReason: '05', declineMessage: undefined });
  await repo.recordDeclineReason(db.em(), id, '05', 'Transação negada');
  expect(await decline(id)).toEqual({ declineReason: '05', declineMessage: 'Transação negada' });
});
