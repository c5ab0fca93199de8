import type { TransactionStatus, WithdrawStatus } from '../domain/types.js';

/** How one provider call ended: the charge's or payout's status, or an error. */
export type AttemptOutcome = TransactionStatus | WithdrawStatus | 'error';

/**
 * Upper bounds of the latency histogram, in ms: a percentile is read as the bound of the bucket it falls in, so it
 * is exact to a bucket and costs a counter per bucket. A call slower than the last bound counts in the last bucket.
 * The bounds are fixed (and stored with every minute's counts in this order), so that histograms counted by different
 * processes or in different minutes merge by adding their counters. A new bound goes at the end, never in between.
 */
export const LATENCY_BUCKETS_MS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000] as const;

export function latencyBucketOf(ms: number): number {
  const index = LATENCY_BUCKETS_MS.findIndex((bound) => ms <= bound);
  return index === -1 ? LATENCY_BUCKETS_MS.length - 1 : index;
}

/** Provider calls counted as sums, so that counts of any processes and minutes add up to the counts of them all. */
export interface HealthCounts {
  calls: number;
  errors: number;
  answered: number;
  notRejected: number;
  totalMs: number;
  latencyCounts: number[];
}

export const emptyCounts = (): HealthCounts => ({
  calls: 0,
  errors: 0,
  answered: 0,
  notRejected: 0,
  totalMs: 0,
  latencyCounts: LATENCY_BUCKETS_MS.map(() => 0),
});

/** Counts one call in `counts` (`sign` -1 takes it out again, as a ring that forgets its oldest call does). */
export function countCall(counts: HealthCounts, outcome: AttemptOutcome, ms: number, sign: 1 | -1 = 1): void {
  counts.calls += sign;
  if (outcome === 'error') counts.errors += sign;
  else {
    counts.answered += sign;
    if (outcome !== 'REJECTED') counts.notRejected += sign;
  }
  counts.totalMs += sign * ms;
  counts.latencyCounts[latencyBucketOf(ms)]! += sign;
}

/** Adds `more` into `into` (histograms counter by counter) and answers `into`. */
export function addCounts(into: HealthCounts, more: HealthCounts): HealthCounts {
  into.calls += more.calls;
  into.errors += more.errors;
  into.answered += more.answered;
  into.notRejected += more.notRejected;
  into.totalMs += more.totalMs;
  for (const [index, count] of more.latencyCounts.entries()) into.latencyCounts[index] = (into.latencyCounts[index] ?? 0) + count;
  return into;
}

/** The bound of the bucket that holds the `share` (0 to 1) quantile of the histogram's calls; 0 when it is empty. */
export function percentileMs(latencyCounts: readonly number[], share: number): number {
  const total = latencyCounts.reduce((sum, count) => sum + count, 0);
  if (!total) return 0;
  const rank = Math.ceil(share * total);
  let seen = 0;
  for (const [index, count] of latencyCounts.entries()) if ((seen += count) >= rank) return LATENCY_BUCKETS_MS[Math.min(index, LATENCY_BUCKETS_MS.length - 1)]!;
  return LATENCY_BUCKETS_MS.at(-1)!;
}
