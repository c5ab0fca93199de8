import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { StatusChange, StatusSource } from '../domain/types.js';
import type { Consistency } from './consistency.js';
import { prepared, runPrepared, type PreparedStatement } from './preparedSql.js';

/** What charges' and payouts' repositories share: reading a row with its status history in one statement. */

export const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** A row as PostgreSQL answers it (snake_case, bigints as text), with its history as JSON. */
export type SqlRecord = Record<string, unknown> & { history: unknown };

export const dateOf = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
export const optionalDateOf = (value: unknown): Date | null => (value === null || value === undefined ? null : dateOf(value));

/**
 * One charge or payout row with its status history (as JSON), where `where` holds (`t` is the row); `more` adds
 * columns computed from `t` (the charge's refunds for GetTransaction), read from the same snapshot.
 */
export function withHistory(
  name: string,
  table: 'transactions' | 'withdrawals',
  subject: 'TRANSACTION' | 'WITHDRAWAL',
  where: string,
  more = '',
): PreparedStatement {
  return prepared(
    name,
    `select t.*, coalesce((select json_agg(json_build_object('status', e.status, 'source', e.source, 'at', e.occurred_at) order by e.id)
      from status_events e where e.subject = '${subject}' and e.subject_id = t.id), '[]') as history${more ? `, ${more}` : ''}
    from ${table} t where ${where} limit 1`,
  );
}

/**
 * One charge or payout row with its status history, in one statement: on a replica first when `consistency` allows
 * and, missing there (a replica that lags a write just made), on the primary.
 */
export async function findWithHistory(em: EntityManager, statement: PreparedStatement, params: unknown[], consistency: Consistency): Promise<SqlRecord | null> {
  for (const type of consistency === 'replica' ? (['read', 'write'] as const) : (['write'] as const)) {
    const [row] = await runPrepared<SqlRecord>(em, type, statement, params);
    if (row) return row;
  }
  return null;
}

export function historyOf<S extends string>(history: unknown): StatusChange<S>[] {
  const items = (typeof history === 'string' ? JSON.parse(history) : history) as { status: string; source: string; at: string }[];
  return items.map((item) => ({ status: item.status as S, source: item.source as StatusSource, changedAt: new Date(item.at) }));
}

/**
 * Runs `work` once more when a concurrent insert of the same provider id won the race (the unique index refused
 * this one): the second run finds that row. `work` must start from a fresh unit of work.
 */
export async function onceMoreOnConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return work();
    throw error;
  }
}

/** How reconciliation paces its questions to providers: what is due, how often one subject is asked, how many per round. */
export interface PollPace {
  staleAfterMs: number;
  pollEveryMs: number;
  limit: number;
}

/**
 * Leases the PENDING subjects due for a question to their provider (heard nothing for `staleAfterMs`, or `dueAlso`,
 * e.g. past their expiry) and not asked within `pollEveryMs`, least recently asked first; `skip locked` lets several
 * workers share the round. Returns their ids.
 */
export async function leaseDueForPoll(
  em: EntityManager,
  table: 'transactions' | 'withdrawals',
  pace: PollPace,
  dueAlso: 'expires_at < ?' | undefined,
  extraWhere = 'true',
): Promise<string[]> {
  const now = Date.now();
  const due = dueAlso ? `(${dueAlso} or updated_at < ?)` : 'updated_at < ?';
  const rows = await em.getConnection('write').execute<{ id: string }[]>(
    `update ${table} set last_polled_at = ?
     where id in (
       select id from ${table}
       where status = 'PENDING' and ${extraWhere}
         and ${due}
         and (last_polled_at is null or last_polled_at < ?)
       order by coalesce(last_polled_at, created_at)
       limit ?
       for update skip locked)
     returning id`,
    [new Date(now), ...(dueAlso ? [new Date(now)] : []), new Date(now - pace.staleAfterMs), new Date(now - pace.pollEveryMs), pace.limit],
    'all',
  );
  return rows.map((row) => row.id);
}
