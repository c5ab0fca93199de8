import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DocumentType, Receiver, ReceiverDetails, ReceiverDocuments, ReceiverResult, ReceiverStatus, StatusEvent, StatusSource } from '../domain/types.js';
import type { SecretBox } from '../lib/secretBox.js';
import { isUuid } from '../lib/ids.js';
import { ReceiverEntity, type ReceiverRow } from './entities.js';
import { recordStatusEvent, toStatusEvent } from './statusRepository.js';

export const toReceiver = (row: ReceiverRow): Receiver => ({
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
  details: row.details ?? undefined,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The last known state of each receiver the gateway has created or looked up; a credential the provider issued for one is sealed. */
export class ReceiversRepository {
  constructor(private readonly secrets: SecretBox) {}

  /**
   * `details` when the gateway creates the receiver; a read keeps the ones stored. A receiver new to the gateway, or
   * whose status the provider now gives differently, gets an event (`source`: how the gateway learnt it), written in
   * the same database transaction as the row.
   */
  async upsert(
    em: EntityManager,
    providerAccountId: string,
    result: ReceiverResult,
    source: StatusSource,
    details?: ReceiverDetails,
  ): Promise<{ receiver: Receiver; event?: StatusEvent }> {
    const now = new Date();
    const fields = {
      // A read does not repeat the credential its creation issued: the one stored is kept.
      ...(result.secret ? { secretSealed: this.secrets.seal(result.secret) } : {}),
      ...(details ? { details } : {}),
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
    const changed = row?.status !== result.status;
    if (row) em.assign(row, fields);
    else row = em.create(ReceiverEntity, { id: randomUUID(), providerAccountId, receiverId: result.receiverId, createdAt: now, ...fields });
    em.persist(row);
    // One flush, so one database transaction: the row and its event commit together or not at all.
    const event = changed ? recordStatusEvent(em, 'RECEIVER', row.id, providerAccountId, result.status, source, now) : undefined;
    await em.flush();
    return { receiver: toReceiver(row), event: event && toStatusEvent(event) };
  }

  /** Where a receiver's verification documents are, as it was created with them; undefined for a receiver not stored. */
  async documentsOf(em: EntityManager, providerAccountId: string, receiverId: string): Promise<ReceiverDocuments | undefined> {
    // Not an account id at all: no row, rather than a query error from the uuid column.
    if (!isUuid(providerAccountId)) return undefined;
    const row = await em.findOne(ReceiverEntity, { providerAccountId, receiverId }, { fields: ['details'] });
    return row ? (row.details?.documents ?? {}) : undefined;
  }

  /** The credential the provider issued for a receiver, opened for its adapter; undefined when none is stored. */
  async secretOf(em: EntityManager, providerAccountId: string, receiverId: string): Promise<string | undefined> {
    const row = await em.findOne(ReceiverEntity, { providerAccountId, receiverId }, { fields: ['secretSealed'] });
    return row?.secretSealed ? this.secrets.open(row.secretSealed) : undefined;
  }
}
