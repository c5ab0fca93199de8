import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryListFilter, DeliveryState, OutboundDelivery } from '../domain/types.js';
import { encodePageToken, readPageToken } from './pageTokens.js';
import { OutboundDeliveryAttemptEntity, OutboundDeliveryEntity, type OutboundDeliveryRow } from './entities.js';
import { prepared, type PreparedTx } from './preparedSql.js';

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
   * stable while deliveries give up meanwhile), for the operations console.
   */
  async listByState(
    em: EntityManager,
    filter: DeliveryListFilter,
    pageSize: number,
    pageToken?: string,
  ): Promise<{ deliveries: OutboundDelivery[]; nextPageToken?: string }> {
    const after = readPageToken(pageToken);
    const rows: OutboundDeliveryRow[] = await em.find(
      OutboundDeliveryEntity,
      {
        state: filter.state,
        ...(filter.url ? { url: filter.url } : {}),
        ...(filter.createdFrom || filter.createdTo
          ? { createdAt: { ...(filter.createdFrom ? { $gte: filter.createdFrom } : {}), ...(filter.createdTo ? { $lt: filter.createdTo } : {}) } }
          : {}),
        ...(after ? { $or: [{ createdAt: { $lt: after.at } }, { createdAt: after.at, id: { $lt: after.id } }] } : {}),
      },
      { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], limit: pageSize + 1, connectionType: 'write' },
    );
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      deliveries: await this.withAttempts(em, page),
      nextPageToken: rows.length > pageSize && last ? encodePageToken(last.createdAt, last.id) : undefined,
    };
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

  private async withAttempts(em: EntityManager, rows: OutboundDeliveryRow[]): Promise<OutboundDelivery[]> {
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
