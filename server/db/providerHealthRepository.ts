import type { EntityManager } from '@mikro-orm/postgresql';

/** What one gateway process counted at one account, for one kind of call, in the minute starting at `bucketStart`. */
export interface ProviderHealthBucket {
  providerAccountId: string;
  operation: 'charge' | 'payout';
  bucketStart: Date;
  calls: number;
  errors: number;
  /** Calls the provider answered (not errors), and of those the ones it did not reject. */
  answered: number;
  notRejected: number;
  totalMs: number;
  /** One counter per bucket of the fixed latency histogram, in its order. */
  latencyCounts: number[];
}

interface Row {
  provider_account_id: string;
  operation: 'charge' | 'payout';
  bucket_start: Date | string;
  calls: number | string;
  errors: number | string;
  answered: number | string;
  not_rejected: number | string;
  total_ms: number | string;
  latency_counts: (number | string)[] | string;
}

/** `{1,2,3}` as a driver that does not parse arrays hands it over, or the array itself. */
const counters = (value: Row['latency_counts']): number[] =>
  (typeof value === 'string' ? value.replace(/[{}]/g, '').split(',').filter(Boolean) : value).map(Number);

/**
 * Provider health summed over every gateway process (provider_health): each process adds what it counted since its
 * last flush to the minute rows, in one statement however many accounts and minutes it holds; readers sum the rows of
 * a window. Always on the primary: a reader adds its own process's unflushed counts, and a replica lagging behind a
 * flush would leave that flush's counts out.
 */
export class ProviderHealthRepository {
  /**
   * Adds each bucket's counts to its row (made when missing), atomically per statement. Rows are taken in key order, so
   * that two processes adding to the same rows at once wait for each other rather than deadlock.
   */
  async add(em: EntityManager, buckets: readonly ProviderHealthBucket[]): Promise<void> {
    if (buckets.length === 0) return;
    const rows = buckets.map((bucket) => ({
      provider_account_id: bucket.providerAccountId,
      operation: bucket.operation,
      bucket_start: bucket.bucketStart.toISOString(),
      calls: bucket.calls,
      errors: bucket.errors,
      answered: bucket.answered,
      not_rejected: bucket.notRejected,
      total_ms: bucket.totalMs,
      latency_counts: bucket.latencyCounts,
    }));
    await em.getConnection('write').execute(
      `insert into provider_health (provider_account_id, operation, bucket_start, calls, errors, answered, not_rejected, total_ms, latency_counts)
       select * from jsonb_to_recordset(?::jsonb) as r(provider_account_id text, operation text, bucket_start timestamptz, calls integer,
         errors integer, answered integer, not_rejected integer, total_ms double precision, latency_counts integer[])
       order by provider_account_id, operation, bucket_start
       on conflict (provider_account_id, operation, bucket_start) do update set
         calls = provider_health.calls + excluded.calls,
         errors = provider_health.errors + excluded.errors,
         answered = provider_health.answered + excluded.answered,
         not_rejected = provider_health.not_rejected + excluded.not_rejected,
         total_ms = provider_health.total_ms + excluded.total_ms,
         latency_counts = array(
           select coalesce(mine, 0) + coalesce(theirs, 0)
             from unnest(provider_health.latency_counts, excluded.latency_counts) with ordinality as counts(mine, theirs, position)
            order by position)`,
      [JSON.stringify(rows)],
      'run',
    );
  }

  /** The rows of minutes starting at `from` or later, every process's counts summed in each. */
  async since(em: EntityManager, from: Date): Promise<ProviderHealthBucket[]> {
    const rows = await em.getConnection('write').execute<Row[]>(
      `select provider_account_id, operation, bucket_start, calls, errors, answered, not_rejected, total_ms, latency_counts
           from provider_health where bucket_start >= ?`,
      [from],
      'all',
    );
    return rows.map((row) => ({
      providerAccountId: row.provider_account_id,
      operation: row.operation,
      bucketStart: new Date(row.bucket_start),
      calls: Number(row.calls),
      errors: Number(row.errors),
      answered: Number(row.answered),
      notRejected: Number(row.not_rejected),
      totalMs: Number(row.total_ms),
      latencyCounts: counters(row.latency_counts),
    }));
  }

  /** Forgets minutes that started before `before`; returns how many rows went. */
  async prune(em: EntityManager, before: Date): Promise<number> {
    const rows = await em.getConnection('write').execute<unknown[]>(`delete from provider_health where bucket_start < ? returning 1`, [before], 'all');
    return rows.length;
  }
}
