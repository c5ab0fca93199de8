/**
 * Load shapes and the arithmetic of their results: an open loop (requests
 * sent on a wall-clock schedule, whether or not earlier ones have answered)
 * and a closed loop (N callers, each calling again as soon as it is answered).
 */
import { performance } from 'node:perf_hooks';

/** The p-th percentile (nearest rank) of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
export const min = (values: readonly number[]): number => (values.length ? Math.min(...values) : NaN);
export const max = (values: readonly number[]): number => (values.length ? Math.max(...values) : NaN);

/** A call's failure as a short code: the gRPC status name, the HTTP status, or the error's code. */
export type Classify = (error: unknown) => string;

export interface LoadResult {
  /** Open loop only: the schedule was abandoned because too many calls were unanswered (the gateway could not keep up). */
  saturated?: boolean;
  /** Calls answered without error. */
  ok: number;
  /** Failures by code. */
  errors: Record<string, number>;
  /** Latencies of the calls answered without error, sorted, in milliseconds. */
  latencies: number[];
  seconds: number;
  p50: number;
  p99: number;
}

function result(latencies: number[], errors: Record<string, number>, seconds: number): LoadResult {
  latencies.sort((a, b) => a - b);
  return { ok: latencies.length, errors, latencies, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `rate` calls a second for `seconds`, each sent at its scheduled time (start +
 * i / rate) however many are still unanswered. A latency runs from the
 * scheduled time, not from when the loop got round to sending: a late sender
 * is counted against the call (no coordinated omission). Once more than
 * `maxBehindSeconds` worth of calls are unanswered the server cannot keep up:
 * the schedule stops there and the result says it was saturated (its
 * latencies are then mostly queueing), rather than piling up minutes of work.
 * `answered`, if given, hears each call answered without error: when it was due (performance.now()) and its latency.
 */
export async function openLoop(
  rate: number,
  seconds: number,
  call: (i: number) => Promise<unknown>,
  classify: Classify,
  maxBehindSeconds = 1,
  answered?: (due: number, ms: number) => void,
): Promise<LoadResult> {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const inFlight: Promise<void>[] = [];
  const start = performance.now() + 20;
  let sent = 0;
  let unanswered = 0;
  let saturated = false;
  while (sent < total && !saturated) {
    const now = performance.now();
    while (sent < total && start + sent * interval <= now) {
      const due = start + sent * interval;
      unanswered += 1;
      inFlight.push(
        call(sent)
          .then(
            () => {
              const ms = performance.now() - due;
              latencies.push(ms);
              answered?.(due, ms);
            },
            (error: unknown) => {
              const code = classify(error);
              errors[code] = (errors[code] ?? 0) + 1;
            },
          )
          .finally(() => (unanswered -= 1)),
      );
      sent += 1;
    }
    saturated = unanswered > rate * maxBehindSeconds;
    if (sent < total && !saturated) await sleep(Math.max(0, start + sent * interval - performance.now()));
  }
  await Promise.all(inFlight);
  return { ...result(latencies, errors, (performance.now() - start) / 1000), ...(saturated ? { saturated } : {}) };
}

/** `concurrency` callers, each calling again once answered, until `seconds` have passed. */
export async function closedLoop(concurrency: number, seconds: number, call: (i: number) => Promise<unknown>, classify: Classify): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const start = performance.now();
  const until = start + seconds * 1000;
  let next = 0;
  const caller = async () => {
    while (performance.now() < until) {
      const began = performance.now();
      try {
        await call(next++);
        latencies.push(performance.now() - began);
      } catch (error) {
        const code = classify(error);
        errors[code] = (errors[code] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return result(latencies, errors, (performance.now() - start) / 1000);
}

/** Error counts added up. */
export function mergeErrors(all: readonly Record<string, number>[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const errors of all) for (const [code, count] of Object.entries(errors)) merged[code] = (merged[code] ?? 0) + count;
  return merged;
}
