import { createHash } from 'node:crypto';
import type { ConnectionType } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSubject, StatusChange, StatusEvent, StatusSource } from '../domain/types.js';
import { StatusEventEntity, type StatusEventRow } from './entities.js';
import { inPreparedTransaction, prepared, type PreparedStatement, type PreparedTx } from './preparedSql.js';

export type Subject = 'TRANSACTION' | 'WITHDRAWAL';

export const toStatusEvent = (row: StatusEventRow): StatusEvent => ({
  eventId: row.id,
  subject: row.subject as EventSubject,
  subjectId: row.subjectId,
  providerAccountId: row.providerAccountId,
  status: row.status as StatusEvent['status'],
  source: row.source as StatusSource,
  occurredAt: row.occurredAt,
});

/** Adds an event to the log; it is written with the unit of work (the database transaction) `em` flushes next. */
export function recordStatusEvent(
  em: EntityManager,
  subject: EventSubject,
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

/**
 * Where a watcher stands in the event log: events are served in the order of the database transaction that wrote
 * them, then of their id. Ids come from a sequence when the insert runs, not when it commits, so by id alone a
 * watcher that has seen N could miss an N-1 committed later; by (tx, id), and only below the oldest transaction
 * still running, nothing can appear behind the cursor afterwards. No lock orders the writers.
 */
export interface EventCursor {
  tx: string;
  id: string;
}

const START: EventCursor = { tx: '0', id: '0' };
/**
 * Every transaction of this database older than this one has ended, committed or rolled back, so its events are
 * final: the oldest transaction still running here, else the snapshot's xmax. Running transactions that PostgreSQL
 * shows belonging to another database are left out (a long batch elsewhere on the cluster would otherwise hold the
 * watchers back); one it cannot place (another role's, or a primary's seen from a replica) counts as this database's.
 */
const HORIZON = `coalesce(
  (select min(x) from pg_snapshot_xip(pg_current_snapshot()) as x
    where not exists (select 1 from pg_stat_activity a where a.backend_xid = x::xid and a.datname is distinct from current_database())),
  pg_snapshot_xmax(pg_current_snapshot()))`;

const cursorOf = (row: { tx: string; id: string } | undefined): EventCursor | undefined => row && { tx: String(row.tx), id: String(row.id) };

/**
 * The cursor after the event a watcher saw last (its id), read on the primary; an id the log does not hold resumes
 * after the newest event at or below it (ids only grow). Without an id, the cursor is "now": after the newest event
 * that can no longer be overtaken.
 */
export async function eventCursor(em: EntityManager, afterEventId: string | undefined): Promise<EventCursor> {
  const connection = em.getConnection('write');
  if (afterEventId !== undefined) {
    const [row] = await connection.execute<{ tx: string; id: string }[]>(
      'select tx::text as tx, id from status_events where id <= ? order by id desc limit 1',
      [afterEventId],
      'all',
    );
    return cursorOf(row) ?? START;
  }
  const [row] = await connection.execute<{ tx: string; id: string }[]>(
    `select tx::text as tx, id from status_events where tx < ${HORIZON} order by tx desc, id desc limit 1`,
    [],
    'all',
  );
  return cursorOf(row) ?? START;
}

interface EventRecord {
  id: string;
  tx: string;
  subject: string;
  subject_id: string;
  provider_account_id: string;
  status: string;
  source: string;
  occurred_at: string | Date;
}

/**
 * The events of `subjects` after `cursor` that can no longer be overtaken, in (tx, id) order, and the cursor after
 * them.
 */
export async function eventsAfter(
  em: EntityManager,
  cursor: EventCursor,
  providerAccountIds: readonly string[],
  subjects: readonly EventSubject[],
  limit = 500,
): Promise<{ events: StatusEvent[]; cursor: EventCursor }> {
  const accounts = providerAccountIds.length ? ` and provider_account_id in (${providerAccountIds.map(() => '?').join(', ')})` : '';
  const rows = await em.getConnection('read').execute<EventRecord[]>(
    `select id, tx::text as tx, subject, subject_id, provider_account_id, status, source, occurred_at from status_events
      where (tx, id) > (?::xid8, ?) and tx < ${HORIZON}${accounts} and subject in (${subjects.map(() => '?').join(', ')})
      order by tx, id limit ?`,
    [cursor.tx, cursor.id, ...providerAccountIds, ...subjects, limit],
    'all',
  );
  const events = rows.map((row): StatusEvent => ({
    eventId: String(row.id),
    subject: row.subject as EventSubject,
    subjectId: row.subject_id,
    providerAccountId: row.provider_account_id,
    status: row.status as StatusEvent['status'],
    source: row.source as StatusSource,
    occurredAt: new Date(row.occurred_at),
  }));
  return { events, cursor: cursorOf(rows.at(-1)) ?? cursor };
}

export interface StatusMove<S extends string> {
  changed: boolean;
  from: S;
  to: S;
  event?: StatusEvent;
}

/** What a status move runs in its database transaction besides the move itself. */
export interface MoveHooks<S extends string, R = unknown> {
  /** More columns to set when the status changes (e.g. a payout's approval time), given the move's time: SQL with its parameters, the SQL the same on every call. */
  alsoSet?: (at: Date) => { sql: string; params: unknown[] };
  /** Once the event has its id, when the status changed (e.g. queues the caller's notification), in the move's transaction. */
  afterMove?: (tx: PreparedTx, row: R, event: StatusEvent, from: S) => Promise<void>;
  /**
   * Last, whether the status changed or not (null: no such row): a write that must commit with the move or not at
   * all, such as the outcome of the notification that asked for it.
   */
  finish?: (tx: PreparedTx, move: StatusMove<S> | null) => Promise<void>;
}

/** The charges' or payouts' table, and how one of its rows (as raw SQL answers it) reads as its entity's shape. */
export interface StatusTable<R> {
  table: 'transactions' | 'withdrawals';
  subject: Subject;
  rowOf(record: Record<string, unknown>): R;
}

type MoveRecord = Record<string, unknown> & { previous_status: string; event_id: string | null };

/** The move statement of a table (and of the extra columns it sets), prepared once per process and connection. */
const moveStatements = new Map<string, PreparedStatement>();

function moveStatement(table: StatusTable<unknown>['table'], alsoSql: string | undefined): PreparedStatement {
  const key = `${table}\n${alsoSql ?? ''}`;
  let statement = moveStatements.get(key);
  if (!statement) {
    const text = `with old as (select id, status from ${table} where id = ? for update),
        moved as (
          update ${table} t set status = ?, updated_at = ?${alsoSql ? `, ${alsoSql}` : ''} from old
          where t.id = old.id and old.status = any(?::text[])
          returning t.*),
        event as (
          insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at)
          select ?, id, provider_account_id, ?, ?, ? from moved
          returning id)
      select old.status as previous_status, event.id as event_id, moved.* from old left join moved on true left join event on true`;
    // Named by its text, so that one name never stands for two texts on a connection.
    statement = prepared(`move_${table}_${createHash('sha256').update(text).digest('hex').slice(0, 12)}`, text);
    moveStatements.set(key, statement);
  }
  return statement;
}

/**
 * Moves a row's status if the state machine allows it (`from`: the statuses that may move to `to`), and records
 * the change in the event log, in one statement: the row is locked and read, updated only from an allowed status,
 * and the event written from the updated row. Concurrent moves of one subject serialize on the row lock. It runs
 * in a database transaction with what `hooks` add, which commit with it: prepared statements on one connection
 * (no unit of work), since a webhook's move and its outcome are the notification workers' hot path.
 */
export async function moveStatus<S extends string, R>(
  em: EntityManager,
  { table, subject, rowOf }: StatusTable<R>,
  id: string,
  to: S,
  source: StatusSource,
  from: readonly S[],
  { alsoSet, afterMove, finish }: MoveHooks<S, R> = {},
): Promise<StatusMove<S> | null> {
  return inPreparedTransaction(em, async (tx) => {
    const at = new Date();
    const also = alsoSet?.(at);
    const [record] = await tx.run<MoveRecord>(moveStatement(table, also?.sql), [id, to, at, ...(also?.params ?? []), from, subject, to, source, at]);
    let move: StatusMove<S> | null = null;
    if (record) {
      const previous = record.previous_status as S;
      if (record.event_id === null) move = { changed: false, from: previous, to };
      else {
        const event: StatusEvent = {
          eventId: String(record.event_id),
          subject,
          subjectId: id,
          providerAccountId: String(record.provider_account_id),
          status: to as StatusEvent['status'],
          source,
          occurredAt: at,
        };
        await afterMove?.(tx, rowOf(record), event, previous);
        move = { changed: true, from: previous, to, event };
      }
    }
    await finish?.(tx, move);
    return move;
  });
}
