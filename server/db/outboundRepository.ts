import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryListFilter, DeliveryState, OutboundDelivery } from '../domain/types.js';
import { auditedByValues, type AuditedBy } from './auditedBy.js';
import { encodePageToken, readPageToken } from './pageTokens.js';
import { OutboundDeliveryAttemptEntity, OutboundDeliveryEntity, type OutboundDeliveryRow } from './entities.js';
import { prepared, runPrepared, type PreparedTx } from './preparedSql.js';

/** A delivery, pending and due at once (enqueue). */
const INSERT_DELIVERY = prepared(
  'insert_delivery',
  `insert into outbound_deliveries (id, event_id, transaction_id, url, body, state, attempts, next_attempt_at, created_at)
   values (?, ?, ?, ?, ?, 'PENDING', 0, ?, ?)`,
);

export interface DueDelivery {
  id: string;
  eventId: string;
  url: string;
  body: string;
  attempts: number;
}

/** What a bulk resend did: queued again, found but not GAVE_UP, not found (by ids only). */
export interface BulkRequeue {
  queued: number;
  skipped: number;
  notFound: number;
  /** Whether the call's audit row was written with it. */
  audited: boolean;
}

type DeliveryColumns = Pick<OutboundDeliveryRow, 'id' | 'eventId' | 'transactionId' | 'url' | 'state' | 'body' | 'nextAttemptAt' | 'createdAt'>;
type RawDeliveryColumns = Omit<DeliveryColumns, 'nextAttemptAt' | 'createdAt'> & { nextAttemptAt: string | Date; createdAt: string | Date };
type BulkRequeueRow = { queued: number; skipped: number; not_found: number; audited: number };

const bulkRequeue = (row: BulkRequeueRow | undefined): BulkRequeue => ({
  queued: Number(row?.queued ?? 0),
  skipped: Number(row?.skipped ?? 0),
  notFound: Number(row?.not_found ?? 0),
  audited: Number(row?.audited ?? 0) > 0,
});

/** The states as written in the SQL text: only these, whatever a caller passes. */
const DELIVERY_STATE_SQL: Record<DeliveryState, string> = { PENDING: 'PENDING', DELIVERED: 'DELIVERED', GAVE_UP: 'GAVE_UP' };

/** The list's filter as SQL; `state` is written in the text, so a partial index on one state can serve it. */
function listWhere(filter: DeliveryListFilter): { sql: string; values: unknown[] } {
  const clauses = [`state = '${DELIVERY_STATE_SQL[filter.state]}'`];
  const values: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    values.push(value);
  };
  if (filter.url) add('url = ?', filter.url);
  if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
  if (filter.createdTo) add('created_at < ?', filter.createdTo);
  return { sql: clauses.join(' and '), values };
}

/**
 * One page of a state's deliveries, newest first: `limit` rows after the keyset position `after`, compared as a row
 * so that the index's order serves it (bench/gaveUpDeliveries.ts shows the plans).
 */
export function listPageSql(filter: DeliveryListFilter, limit: number, after?: { at: Date; id: string }): { sql: string; values: unknown[] } {
  const where = listWhere(filter);
  const keyset = after ? ' and (created_at, id) < (?, ?)' : '';
  return {
    sql: `select id, event_id as "eventId", transaction_id as "transactionId", url, state, body, next_attempt_at as "nextAttemptAt",
            created_at as "createdAt"
       from outbound_deliveries where ${where.sql}${keyset} order by created_at desc, id desc limit ?`,
    values: [...where.values, ...(after ? [after.at, after.id] : []), limit],
  };
}

/**
 * The end of a bulk resend's statement, after its `counts` row: the call's audit row with the counts when there is one
 * to write (its values: the time, then auditedByValues), and the counts.
 */
const AUDITED_COUNTS = `audited as (
     insert into audit_events (id, at, actor_kind, actor_id, actor_name, action, resource, source, outcome, detail)
     select a.id, ?, a.actor_kind, a.actor_id, a.actor_name, a.action, '', a.source, 'OK',
            json_build_object('queued', counts.queued, 'skipped', counts.skipped, 'notFound', counts.not_found)::text
       from counts, (select ?::uuid as id, ?::text as actor_kind, ?::text as actor_id, ?::text as actor_name, ?::text as action, ?::text as source) a
      where a.id is not null
     returning id)
   select counts.queued, counts.skipped, counts.not_found, (select count(*)::int from audited) as audited from counts`;

const COUNT_BY_IDS = prepared(
  'count_gave_up_deliveries_by_ids',
  `with wanted as (select distinct id from unnest(?::uuid[]) as u(id))
   select count(d.id) filter (where d.state = 'GAVE_UP')::int as queued, count(d.id) filter (where d.state <> 'GAVE_UP')::int as skipped,
          count(*) filter (where d.id is null)::int as not_found, 0 as audited
     from wanted w left join outbound_deliveries d on d.id = w.id`,
);

/**
 * By ids: every CTE reads the table as it was before `moved`, so `found` counts the ids that exist whatever moved.
 * Two operators at once: the second's update waits for the first's rows and finds them PENDING, so skips them.
 */
const REQUEUE_BY_IDS = prepared(
  'requeue_gave_up_deliveries_by_ids',
  `with wanted as (select distinct id from unnest(?::uuid[]) as u(id)),
   moved as (
     update outbound_deliveries d set state = 'PENDING', next_attempt_at = ?, locked_until = null
       from wanted w where d.id = w.id and d.state = 'GAVE_UP' returning d.id),
   found as (select count(*)::int as n from outbound_deliveries d join wanted w on w.id = d.id),
   counts as (
     select (select count(*)::int from moved) as queued, found.n - (select count(*)::int from moved) as skipped,
            (select count(*)::int from wanted) - found.n as not_found
       from found),
   ${AUDITED_COUNTS}`,
);

export interface OutboundBacklog {
  due: number;
  scheduled: number;
}

/** Status changes queued for callers' webhook_url, with every delivery attempt. */
export class OutboundRepository {
  /** Queued in the same database transaction as the status change it reports, so none is lost. */
  async enqueue(tx: PreparedTx, input: { eventId: string; transactionId: string; url: string; body: string; at: Date }): Promise<void> {
    await tx.run(INSERT_DELIVERY, [randomUUID(), input.eventId, input.transactionId, input.url, input.body, input.at, input.at]);
  }

  /**
   * Leases due deliveries, oldest first, skipping one whose transaction still has
   * an earlier change undelivered: a caller never hears APPROVED after REFUNDED.
   */
  async claimDue(em: EntityManager, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    const now = new Date();
    return em.getConnection('write').execute<DueDelivery[]>(
      `update outbound_deliveries set locked_until = ?
       where id in (
         select d.id from outbound_deliveries d
         where d.state = 'PENDING' and d.next_attempt_at <= ? and (d.locked_until is null or d.locked_until < ?)
           and not exists (select 1 from outbound_deliveries e where e.transaction_id = d.transaction_id and e.state = 'PENDING' and e.event_id < d.event_id)
         order by d.event_id
         limit ?
         for update skip locked)
       returning id, event_id as "eventId", url, body, attempts`,
      [new Date(now.getTime() + leaseMs), now, now, limit],
      'all',
    );
  }

  /**
   * Deliveries not yet made nor given up: due (their time has come; being sent
   * or waiting for a worker) and scheduled (waiting for a retry), counted
   * through the (state, next_attempt_at) index.
   */
  async backlog(em: EntityManager): Promise<OutboundBacklog> {
    const [row] = await em.getConnection('write').execute<OutboundBacklog[]>(
      `select count(*) filter (where next_attempt_at <= ?)::int as due, count(*) filter (where next_attempt_at > ?)::int as scheduled
       from outbound_deliveries where state = 'PENDING'`,
      [new Date(), new Date()],
      'all',
    );
    return { due: row?.due ?? 0, scheduled: row?.scheduled ?? 0 };
  }

  async recordAttempt(
    em: EntityManager,
    delivery: DueDelivery,
    outcome: { responseStatus: number; error?: string; state: DeliveryState; nextAttemptAt?: Date },
  ): Promise<void> {
    const at = new Date();
    await em.transactional(async (tx) => {
      tx.persist(
        tx.create(OutboundDeliveryAttemptEntity, {
          deliveryId: delivery.id,
          number: delivery.attempts + 1,
          attemptedAt: at,
          responseStatus: outcome.responseStatus,
          error: outcome.error ?? null,
        }),
      );
      await tx.nativeUpdate(
        OutboundDeliveryEntity,
        { id: delivery.id },
        {
          attempts: delivery.attempts + 1,
          state: outcome.state,
          lockedUntil: null,
          deliveredAt: outcome.state === 'DELIVERED' ? at : null,
          ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
        },
      );
      await tx.flush();
    });
  }

  async listForTransaction(em: EntityManager, transactionId: string, state?: DeliveryState): Promise<OutboundDelivery[]> {
    const rows: OutboundDeliveryRow[] = await em.find(
      OutboundDeliveryEntity,
      { transactionId, ...(state ? { state } : {}) },
      { orderBy: { eventId: 'asc' }, connectionType: 'write' },
    );
    return this.withAttempts(em, rows);
  }

  /**
   * The deliveries in one state across all transactions, newest first, a page at a time (keyset on created_at, id:
   * stable while deliveries give up meanwhile), for the operations console. Filter, order and page are the database's
   * (listPageSql); for GAVE_UP, the partial indexes of Migration20261204040000 serve them.
   */
  async listByState(
    em: EntityManager,
    filter: DeliveryListFilter,
    pageSize: number,
    pageToken?: string,
  ): Promise<{ deliveries: OutboundDelivery[]; nextPageToken?: string }> {
    const { sql, values } = listPageSql(filter, pageSize + 1, readPageToken(pageToken));
    // Raw rows carry times as the driver's text; the gateway writes created_at in whole milliseconds, so a Date keeps it.
    const rows = (await em.getConnection('write').execute<RawDeliveryColumns[]>(sql, values, 'all')).map((row): DeliveryColumns => ({
      ...row,
      nextAttemptAt: new Date(row.nextAttemptAt),
      createdAt: new Date(row.createdAt),
    }));
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      deliveries: await this.withAttempts(em, page),
      nextPageToken: rows.length > pageSize && last ? encodePageToken(last.createdAt, last.id) : undefined,
    };
  }

  /**
   * Gives each of these deliveries that gave up one more attempt, due now, as requeueGaveUp does, in one statement
   * that also writes the call's audit row (`audit`) with the counts. A repeated id counts once; one found but not
   * GAVE_UP (queued again meanwhile, or delivered) is skipped.
   */
  async requeueGaveUpByIds(em: EntityManager, ids: readonly string[], at: Date, audit?: AuditedBy): Promise<BulkRequeue> {
    const [row] = await runPrepared<BulkRequeueRow>(em, 'write', REQUEUE_BY_IDS, [[...ids], at, at, ...auditedByValues(audit)]);
    return bulkRequeue(row);
  }

  /** What requeueGaveUpByIds or requeueGaveUpMatching would do now, doing nothing (ResendOutboundDeliveries' validate_only). */
  async countRequeue(em: EntityManager, selection: { ids: readonly string[]; filter?: Omit<DeliveryListFilter, 'state'> }): Promise<BulkRequeue> {
    if (selection.filter) {
      const where = listWhere({ ...selection.filter, state: 'GAVE_UP' });
      const [row] = await em
        .getConnection('write')
        .execute<BulkRequeueRow[]>(
          `select count(*)::int as queued, 0 as skipped, 0 as not_found, 0 as audited from outbound_deliveries where ${where.sql}`,
          where.values,
          'all',
        );
      return bulkRequeue(row);
    }
    const [row] = await runPrepared<BulkRequeueRow>(em, 'write', COUNT_BY_IDS, [[...selection.ids]]);
    return bulkRequeue(row);
  }

  /** Every delivery that gave up under `filter` (the list's, without paging) queued again, as requeueGaveUpByIds. */
  async requeueGaveUpMatching(em: EntityManager, filter: Omit<DeliveryListFilter, 'state'>, at: Date, audit?: AuditedBy): Promise<BulkRequeue> {
    const where = listWhere({ ...filter, state: 'GAVE_UP' });
    const [row] = await em.getConnection('write').execute<BulkRequeueRow[]>(
      `with moved as (
         update outbound_deliveries set state = 'PENDING', next_attempt_at = ?, locked_until = null
          where ${where.sql} returning id),
       counts as (select count(*)::int as queued, 0 as skipped, 0 as not_found from moved),
       ${AUDITED_COUNTS}`,
      [at, ...where.values, at, ...auditedByValues(audit)],
      'all',
    );
    return bulkRequeue(row);
  }

  /**
   * Gives a delivery that gave up one more attempt, due now: the retry schedule
   * is spent, so a failure gives up again at once. Only a GAVE_UP delivery
   * moves, so two operators resending at once queue it once.
   */
  async requeueGaveUp(em: EntityManager, id: string): Promise<boolean> {
    const moved = await em
      .getConnection('write')
      .execute<{ id: string }[]>(
        `update outbound_deliveries set state = 'PENDING', next_attempt_at = ?, locked_until = null where id = ? and state = 'GAVE_UP' returning id`,
        [new Date(), id],
        'all',
      );
    return moved.length === 1;
  }

  async get(em: EntityManager, id: string): Promise<OutboundDelivery | undefined> {
    const row: OutboundDeliveryRow | null = await em.findOne(OutboundDeliveryEntity, { id }, { connectionType: 'write' });
    return row ? (await this.withAttempts(em, [row]))[0] : undefined;
  }

  private async withAttempts(em: EntityManager, rows: DeliveryColumns[]): Promise<OutboundDelivery[]> {
    const attempts = rows.length
      ? await em.find(OutboundDeliveryAttemptEntity, { deliveryId: { $in: rows.map((row) => row.id) } }, { orderBy: { id: 'asc' }, connectionType: 'write' })
      : [];
    return rows.map((row) => ({
      id: row.id,
      eventId: row.eventId,
      transactionId: row.transactionId,
      url: row.url,
      state: row.state as DeliveryState,
      body: row.body,
      nextAttemptAt: row.state === 'PENDING' ? row.nextAttemptAt : undefined,
      createdAt: row.createdAt,
      attempts: attempts
        .filter((attempt) => attempt.deliveryId === row.id)
        .map((attempt) => ({
          number: attempt.number,
          attemptedAt: attempt.attemptedAt,
          responseStatus: attempt.responseStatus,
          error: attempt.error ?? undefined,
        })),
    }));
  }
}
