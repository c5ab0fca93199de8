import { LockMode, type ConnectionType } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { StatusChange, StatusEvent, StatusSource } from '../domain/types.js';
import { StatusEventEntity, type StatusEventRow, type TransactionEntity, type WithdrawalEntity } from './entities.js';

export type Subject = 'TRANSACTION' | 'WITHDRAWAL';

export const toStatusEvent = (row: StatusEventRow): StatusEvent => ({
  eventId: row.id,
  subject: row.subject as Subject,
  subjectId: row.subjectId,
  providerAccountId: row.providerAccountId,
  status: row.status as StatusEvent['status'],
  source: row.source as StatusSource,
  occurredAt: row.occurredAt,
});

const EVENT_LOG_LOCK = 7_370_001;

/**
 * Serializes writers of the event log until their transaction commits, so event
 * ids become visible in increasing order and a watcher that resumes after id N
 * can never miss an N-1 that commits later.
 */
export async function lockEventLog(em: EntityManager): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(?)', [EVENT_LOG_LOCK]);
}

export function recordStatusEvent(
  em: EntityManager,
  subject: Subject,
  subjectId: string,
  providerAccountId: string,
  status: string,
  source: StatusSource,
  occurredAt: Date,
): StatusEventRow {
  const row = em.create(StatusEventEntity, { subject, subjectId, providerAccountId, status, source, occurredAt });
  em.persist(row);
  return row;
}

/** Read from the same kind of connection as the row it belongs to, so a row found on the primary comes with its full history. */
export async function statusHistory<S extends string>(
  em: EntityManager,
  subject: Subject,
  subjectId: string,
  connectionType: ConnectionType,
): Promise<StatusChange<S>[]> {
  const rows = await em.find(StatusEventEntity, { subject, subjectId }, { orderBy: { id: 'asc' }, connectionType });
  return rows.map((row) => ({ status: row.status as S, source: row.source as StatusSource, changedAt: row.occurredAt }));
}

export async function eventsAfter(em: EntityManager, afterEventId: string, providerAccountIds: readonly string[], limit = 500): Promise<StatusEvent[]> {
  const rows = await em.find(
    StatusEventEntity,
    { id: { $gt: afterEventId }, ...(providerAccountIds.length ? { providerAccountId: { $in: [...providerAccountIds] } } : {}) },
    { orderBy: { id: 'asc' }, limit },
  );
  return rows.map(toStatusEvent);
}

export async function lastEventId(em: EntityManager): Promise<string> {
  const [row] = await em.find(StatusEventEntity, {}, { orderBy: { id: 'desc' }, limit: 1 });
  return row?.id ?? '0';
}

interface StatusRow {
  id: string;
  providerAccountId: string;
  status: string;
  updatedAt: Date;
}

export interface StatusMove<S extends string> {
  changed: boolean;
  from: S;
  to: S;
  event?: StatusEvent;
}

/**
 * Moves a row's status if the state machine allows it, under a row lock so that
 * concurrent updates of one subject serialize, and records the change in the
 * event log in the same database transaction.
 */
export async function moveStatus<S extends string>(
  em: EntityManager,
  entity: typeof TransactionEntity | typeof WithdrawalEntity,
  subject: Subject,
  id: string,
  to: S,
  source: StatusSource,
  canMove: (from: S, to: S) => boolean,
  onMove?: (row: any, at: Date) => void,
  /** Runs in the same database transaction once the event has its id (e.g. queues the caller's notification). */
  afterMove?: (tx: EntityManager, row: any, event: StatusEvent, from: S) => void,
): Promise<StatusMove<S> | null> {
  return em.transactional(async (tx) => {
    const row = (await tx.findOne(entity as typeof TransactionEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })) as StatusRow | null;
    if (!row) return null;
    const from = row.status as S;
    if (from === to || !canMove(from, to)) return { changed: false, from, to };
    await lockEventLog(tx);
    const at = new Date();
    row.status = to;
    row.updatedAt = at;
    onMove?.(row, at);
    const eventRow = recordStatusEvent(tx, subject, row.id, row.providerAccountId, to, source, at);
    await tx.flush();
    const event = toStatusEvent(eventRow);
    if (afterMove) {
      afterMove(tx, row, event, from);
      await tx.flush();
    }
    return { changed: true, from, to, event };
  });
}
