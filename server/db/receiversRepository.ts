import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DocumentType, Receiver, ReceiverResult, ReceiverStatus } from '../domain/types.js';
import { ReceiverEntity, type ReceiverRow } from './entities.js';

const toReceiver = (row: ReceiverRow): Receiver => ({
  id: row.id,
  providerAccountId: row.providerAccountId,
  receiverProvider: row.provider,
  receiverId: row.receiverId,
  receiverToken: row.receiverToken ?? undefined,
  name: row.name,
  document: row.document,
  documentType: row.documentType as DocumentType,
  email: row.email,
  status: row.status as ReceiverStatus,
  balance: row.balance,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The last known state of each receiver the gateway has created or looked up. */
export class ReceiversRepository {
  async upsert(em: EntityManager, providerAccountId: string, result: ReceiverResult): Promise<Receiver> {
    const now = new Date();
    const fields = {
      provider: result.receiverProvider,
      receiverToken: result.receiverToken ?? null,
      name: result.name,
      document: result.document,
      documentType: result.documentType,
      email: result.email,
      status: result.status,
      balance: result.balance,
      updatedAt: now,
    };
    let row = await em.findOne(ReceiverEntity, { providerAccountId, receiverId: result.receiverId });
    if (row) em.assign(row, fields);
    else row = em.create(ReceiverEntity, { id: randomUUID(), providerAccountId, receiverId: result.receiverId, createdAt: now, ...fields });
    await em.persist(row).flush();
    return toReceiver(row);
  }
}
