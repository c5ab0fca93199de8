import { encodePageToken, readPageToken } from './pageTokens.js';
import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookNotification, WebhookOutcome, WebhookResult, WebhookResultSummary } from '../domain/types.js';
import { WebhookNotificationEntity, type WebhookNotificationRow } from './entities.js';
import { redactText, withoutCredentialHeaders } from '../lib/http/redact.js';
import { isGatewayError } from '../lib/errors.js';
import { prepared, runPrepared, runPreparedOn, type PreparedTarget } from './preparedSql.js';

const toNotification = (row: WebhookNotificationRow): WebhookNotification => ({
  id: row.id,
  provider: row.provider,
  providerAccountId: row.providerAccountId,
  receivedAt: row.receivedAt,
  outcome: row.outcome as WebhookOutcome,
  outcomeReason: row.outcomeReason ?? undefined,
  result:
    row.resultType && row.resultSubjectId && row.resultStatus
      ? ({ type: row.resultType, transactionId: row.resultSubjectId, status: row.resultStatus } as WebhookResultSummary)
      : undefined,
  subjectId: row.subjectId ?? undefined,
  processedAt: row.processedAt ?? undefined,
  attempts: row.attempts,
});

export interface StoredNotification extends WebhookNotification {
  body: Buffer;
  headers: Record<string, string>;
  /** The URL's query parameters as received, credential-like ones left out. */
  query: Record<string, string>;
  /** Its signature or credential was checked and valid when it arrived. */
  authenticatedAtIntake: boolean;
}

/** The columns of a notification's summary, and of the whole stored notification, as raw SQL answers them. */
const SUMMARY_COLUMNS = `id, provider, provider_account_id, received_at, outcome, outcome_reason, result_type, result_subject_id, result_status,
  subject_id, processed_at, attempts`;
const STORED_COLUMNS = `${SUMMARY_COLUMNS}, body, headers, query, authenticated_at_intake`;

interface NotificationRecord {
  id: string;
  provider: string;
  provider_account_id: string;
  received_at: Date;
  outcome: string;
  outcome_reason: string | null;
  result_type: string | null;
  result_subject_id: string | null;
  result_status: string | null;
  subject_id: string | null;
  processed_at: Date | null;
  attempts: number;
}

interface StoredRecord extends NotificationRecord {
  body: Buffer;
  headers: Record<string, string> | string;
  query: Record<string, string> | string;
  authenticated_at_intake: boolean;
}

const notificationOf = (row: NotificationRecord): WebhookNotification =>
  toNotification({
    id: row.id,
    provider: row.provider,
    providerAccountId: row.provider_account_id,
    receivedAt: new Date(row.received_at),
    outcome: row.outcome,
    outcomeReason: row.outcome_reason,
    resultType: row.result_type,
    resultSubjectId: row.result_subject_id,
    resultStatus: row.result_status,
    subjectId: row.subject_id,
    processedAt: row.processed_at === null ? null : new Date(row.processed_at),
    attempts: row.attempts,
  } as WebhookNotificationRow);

const storedOf = (row: StoredRecord): StoredNotification => ({
  ...notificationOf(row),
  body: Buffer.from(row.body),
  headers: typeof row.headers === 'string' ? (JSON.parse(row.headers) as Record<string, string>) : row.headers,
  query: typeof row.query === 'string' ? (JSON.parse(row.query) as Record<string, string>) : row.query,
  authenticatedAtIntake: row.authenticated_at_intake,
});

/**
 * The notifications still to be processed (new, held by a worker, or waiting for a retry): the predicate of the
 * partial index the workers scan (webhook_notifications_backlog_index: entities.ts and its migration), and of the
 * queue's depth. A processed notification leaves it, so the index holds the backlog, not the table's history.
 */
const INSERT_NOTIFICATIONS = prepared(
  'insert_notifications',
  `insert into webhook_notifications (id, provider, provider_account_id, body, headers, query, authenticated_at_intake, received_at, outcome, attempts, locked_until)
   select * from unnest(?::uuid[], ?::text[], ?::uuid[], ?::bytea[], ?::jsonb[], ?::jsonb[], ?::boolean[], ?::timestamptz[], ?::text[], ?::int[], ?::timestamptz[])`,
);

const BACKLOG = `outcome in ('RECEIVED', 'PROCESSING') or (outcome in ('FAILED', 'UNKNOWN_SUBJECT') and next_attempt_at is not null)`;

/** The due notifications leased (claimDue). */
const LEASE_DUE = prepared(
  'lease_due_notifications',
  `update webhook_notifications set outcome = 'PROCESSING', locked_until = ?, attempts = attempts + 1
   where id in (
     select id from webhook_notifications
     where (${BACKLOG})
       and (outcome = 'RECEIVED'
         or (outcome = 'PROCESSING' and locked_until < ?)
         or (outcome in ('FAILED', 'UNKNOWN_SUBJECT') and next_attempt_at <= ?))
     order by received_at
     limit ?
     for update skip locked)
   returning ${STORED_COLUMNS}`,
);

/** Each notification's dedup key set, pairs of columns as arrays (claimDedupKeys). */
const CLAIM_DEDUP_KEYS = prepared(
  'claim_dedup_keys',
  `update webhook_notifications n set dedup_key = c.dedup_key
   from unnest(?::uuid[], ?::text[]) as c(id, dedup_key)
   where n.id = c.id`,
);

/** Whether another notification of the account holds a dedup key (isDedupKeyHeld), on the unique index that pairs them. */
const DEDUP_KEY_HELD = prepared(
  'dedup_key_held',
  `select exists (select 1 from webhook_notifications where provider_account_id = ? and dedup_key = ? and id <> ?) as held`,
);

/** A notification's outcome (recordOutcome). */
const RECORD_OUTCOME = prepared(
  'record_notification_outcome',
  `update webhook_notifications set outcome = ?, outcome_reason = ?, result_type = ?, result_subject_id = ?, result_status = ?,
     subject_id = ?, locked_until = null, next_attempt_at = ?, processed_at = ?
   where id = ?
   returning ${SUMMARY_COLUMNS}`,
);

/** A notification's dedup key, to claim. */
export interface DedupClaim {
  id: string;
  dedupKey: string;
}

/** A dedup claim refused because another copy of the notification holds the key. */
export const isDuplicateClaim = (error: unknown): boolean => error instanceof UniqueConstraintViolationException;

/** What the sidecar received, to store. */
export interface NotificationIntake {
  provider: string;
  providerAccountId: string;
  body: Buffer;
  headers: Record<string, string>;
  /** The URL's query parameters, credential-like ones already left out. */
  query?: Record<string, string>;
  authenticatedAtIntake?: boolean;
  /**
   * Its signature did not match: inserted already REJECTED, never RECEIVED, so no worker can lease it in the moment
   * before its outcome's reason is written (a worker would process a forgery as an unsigned notification).
   */
  rejected?: boolean;
}

/** A notification's row as intake inserts it. */
export type NewNotificationRow = Pick<
  WebhookNotificationRow,
  'id' | 'provider' | 'providerAccountId' | 'body' | 'headers' | 'query' | 'authenticatedAtIntake' | 'receivedAt' | 'outcome' | 'attempts' | 'lockedUntil'
>;

export interface NotificationFilter {
  provider?: string;
  providerAccountId?: string;
  subjectId?: string;
  outcome?: WebhookOutcome;
  receivedFrom?: Date;
  receivedTo?: Date;
}

export interface OutcomeUpdate {
  outcome: WebhookOutcome;
  reason?: string;
  result?: WebhookResult;
  subjectId?: string;
  /** For outcomes that are tried again (FAILED, UNKNOWN_SUBJECT). */
  retryAt?: Date;
}

/** Notifications still to be processed: new, held by a worker now, and failed (or about a charge not known yet) with a retry scheduled. */
export interface QueueDepth {
  received: number;
  processing: number;
  retrying: number;
  /** When the oldest notification no worker has taken yet (RECEIVED) was received; undefined when there is none. */
  oldestReceivedAt?: Date;
}

/** Provider notifications exactly as received, the workers' queue over them, and what came of each. */
export class NotificationsRepository {
  /**
   * A notification as intake stores it, received now and not processed yet (or already REJECTED: `rejected`): the body exactly as received; of the
   * headers, everything but the credentials a sender attached (Authorization, cookies, API keys). With `leaseMs` it
   * is stored already leased to the caller, who processes it at once (ProcessWebhook): no worker can take it first,
   * and if the caller dies the lease runs out and a worker does.
   */
  newRow(input: NotificationIntake, leaseMs?: number): NewNotificationRow {
    const receivedAt = new Date();
    const leased = leaseMs !== undefined && !input.rejected;
    return {
      id: randomUUID(),
      provider: input.provider,
      providerAccountId: input.providerAccountId,
      body: input.body,
      headers: withoutCredentialHeaders(input.headers),
      query: input.query ?? {},
      authenticatedAtIntake: input.authenticatedAtIntake ?? false,
      receivedAt,
      outcome: input.rejected ? 'REJECTED' : leased ? 'PROCESSING' : 'RECEIVED',
      attempts: leased ? 1 : 0,
      lockedUntil: leased ? new Date(receivedAt.getTime() + leaseMs) : null,
    };
  }

  /**
   * One INSERT for them all (no unit of work, so no begin/commit around it): intake is the sidecar's hot path. The
   * same prepared statement serves any number of rows (a column is an array).
   */
  async insertRows(em: EntityManager, rows: NewNotificationRow[]): Promise<void> {
    const column = <K extends keyof NewNotificationRow>(key: K) => rows.map((row) => row[key]);
    await runPrepared(em, 'write', INSERT_NOTIFICATIONS, [
      column('id'),
      column('provider'),
      column('providerAccountId'),
      column('body'),
      rows.map((row) => JSON.stringify(row.headers)),
      rows.map((row) => JSON.stringify(row.query)),
      column('authenticatedAtIntake'),
      column('receivedAt'),
      column('outcome'),
      column('attempts'),
      column('lockedUntil'),
    ]);
  }

  summaryOf(row: NewNotificationRow): WebhookNotification {
    return toNotification(row as WebhookNotificationRow);
  }

  /** A row just inserted, whole, as a worker's lease would answer it (for the caller that stored it leased). */
  storedOfRow(row: NewNotificationRow): StoredNotification {
    const bytes = row.body ?? new Uint8Array();
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { ...this.summaryOf(row), body, headers: row.headers, query: row.query, authenticatedAtIntake: row.authenticatedAtIntake };
  }

  /**
   * Leases up to `limit` notifications that are due: new ones, failed ones whose
   * retry time has come, and ones whose worker's lease ran out (it crashed).
   * SKIP LOCKED lets several sidecar processes share the queue. The leased rows
   * come back whole, so processing reads nothing more of them. The scan runs on
   * the backlog's partial index (webhook_notifications_backlog_index), whose
   * predicate is repeated here word for word so the planner sees it holds.
   */
  async claimDue(em: EntityManager, limit: number, leaseMs: number): Promise<StoredNotification[]> {
    const now = new Date();
    const rows = await runPrepared<StoredRecord>(em, 'write', LEASE_DUE, [new Date(now.getTime() + leaseMs), now, now, limit]);
    // UPDATE … RETURNING answers in no particular order: the oldest first, as leased.
    return rows.map(storedOf).sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
  }

  /** The queue's size, counted through the (outcome, next_attempt_at) index: the cost follows the queue, not the table. */
  async queueDepth(em: EntityManager): Promise<QueueDepth> {
    const rows = await em.getConnection('write').execute<{ outcome: string; count: number; oldest: Date | string }[]>(
      `select outcome, count(*)::int as count, min(received_at) as oldest from webhook_notifications
       where ${BACKLOG}
       group by outcome`,
      [],
      'all',
    );
    const count = (...outcomes: string[]) => rows.filter((row) => outcomes.includes(row.outcome)).reduce((sum, row) => sum + row.count, 0);
    const oldest = rows.find((row) => row.outcome === 'RECEIVED')?.oldest;
    return {
      received: count('RECEIVED'),
      processing: count('PROCESSING'),
      retrying: count('FAILED', 'UNKNOWN_SUBJECT'),
      ...(oldest ? { oldestReceivedAt: new Date(oldest) } : {}),
    };
  }

  /** One notification with its body and headers, for an operator to read; a replica's miss is asked again of the primary (read-your-writes). */
  async get(em: EntityManager, id: string): Promise<StoredNotification | null> {
    for (const type of ['read', 'write'] as const) {
      const [row] = await em.getConnection(type).execute<StoredRecord[]>(`select ${STORED_COLUMNS} from webhook_notifications where id = ?`, [id], 'all');
      if (row) return storedOf(row);
    }
    return null;
  }

  /** Leases one notification (for an immediate or operator-requested run), unless a worker holds it now; the row as leased. */
  async claimOne(em: EntityManager, id: string, leaseMs: number): Promise<StoredNotification | null> {
    const now = new Date();
    const [row] = await em.getConnection('write').execute<StoredRecord[]>(
      `update webhook_notifications set outcome = 'PROCESSING', locked_until = ?, attempts = attempts + 1
       where id = ? and (outcome <> 'PROCESSING' or locked_until < ?)
       returning ${STORED_COLUMNS}`,
      [new Date(now.getTime() + leaseMs), id, now],
      'all',
    );
    return row ? storedOf(row) : null;
  }

  /**
   * Claims each notification's dedup key, in one statement. The key is unique per account (the unique index pairs it
   * with provider_account_id): when another copy already holds one of them, the whole statement is refused with a
   * UniqueConstraintViolationException (`isDuplicateClaim`), and nothing is claimed.
   */
  async claimDedupKeys(em: EntityManager, claims: DedupClaim[]): Promise<void> {
    // A raw statement's failure comes as the driver's error; MikroORM's converter names it (a unique violation here).
    await runPrepared(em, 'write', CLAIM_DEDUP_KEYS, [claims.map((claim) => claim.id), claims.map((claim) => claim.dedupKey)]).catch((error: unknown) => {
      throw isGatewayError(error) ? error : em.getDriver().convertException(error as Error);
    });
  }

  /**
   * Whether another notification of the account holds `dedupKey` (a proven copy of this one), without claiming it:
   * asked on the primary, where the claims are written.
   */
  async isDedupKeyHeld(em: EntityManager, notification: DedupClaim & { providerAccountId: string }): Promise<boolean> {
    const [row] = await runPrepared<{ held: boolean }>(em, 'write', DEDUP_KEY_HELD, [notification.providerAccountId, notification.dedupKey, notification.id]);
    return row?.held === true;
  }

  /**
   * What came of a notification, in one statement that also answers the row as recorded. `target` may be a database
   * transaction (the status move the notification caused), so that the move and its outcome commit together.
   */
  async recordOutcome(target: PreparedTarget, id: string, update: OutcomeUpdate): Promise<WebhookNotification> {
    const [row] = await runPreparedOn<NotificationRecord>(target, RECORD_OUTCOME, [
      update.outcome,
      // A reason may quote a provider's answer: stored without the card data it may echo.
      update.reason === undefined ? null : redactText(update.reason),
      update.result?.type ?? null,
      update.result?.transactionId ?? null,
      update.result?.status ?? null,
      update.subjectId ?? null,
      update.retryAt ?? null,
      new Date(),
      id,
    ]);
    if (!row) throw new Error(`notification ${id} not found`);
    return notificationOf(row);
  }

  async list(
    em: EntityManager,
    filter: NotificationFilter,
    pageSize: number,
    pageToken?: string,
  ): Promise<{ notifications: WebhookNotification[]; nextPageToken?: string }> {
    const after = readPageToken(pageToken);
    const rows = await em.find(
      WebhookNotificationEntity,
      {
        ...(filter.provider ? { provider: filter.provider } : {}),
        ...(filter.providerAccountId ? { providerAccountId: filter.providerAccountId } : {}),
        ...(filter.subjectId ? { subjectId: filter.subjectId } : {}),
        ...(filter.outcome ? { outcome: filter.outcome } : {}),
        ...(filter.receivedFrom || filter.receivedTo
          ? { receivedAt: { ...(filter.receivedFrom ? { $gte: filter.receivedFrom } : {}), ...(filter.receivedTo ? { $lt: filter.receivedTo } : {}) } }
          : {}),
        ...(after ? { $or: [{ receivedAt: { $lt: after.at } }, { receivedAt: after.at, id: { $lt: after.id } }] } : {}),
      },
      {
        orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
        limit: pageSize + 1,
        fields: [
          'id',
          'provider',
          'providerAccountId',
          'receivedAt',
          'outcome',
          'outcomeReason',
          'resultType',
          'resultSubjectId',
          'resultStatus',
          'subjectId',
          'processedAt',
          'attempts',
        ],
      },
    );
    const page = rows.slice(0, pageSize);
    return {
      notifications: page.map((row) => toNotification(row as WebhookNotificationRow)),
      nextPageToken: rows.length > pageSize ? encodePageToken(page.at(-1)!.receivedAt, page.at(-1)!.id) : undefined,
    };
  }
}
