/**
 * The error window of each chaos event: the failed attempts callers saw from the event until the next one, how long
 * they went on after the event, and with which codes. Pure, so that the report's arithmetic is tested apart.
 */
export interface ChaosEvent {
  name: string;
  /** When it was done (ms since the epoch). */
  at: number;
  /** What Patroni or the fleet says of it (a failover's duration, the new leader). */
  note?: string;
  /** The longest error window the issue allows after it: Patroni's failover time + 2 s, for a switchover and a primary's kill. */
  goalMs?: number;
}

/** Failover events whose window of unavailability went past their goal. */
export const windowsOverGoal = (windows: readonly EventWindow[]): EventWindow[] =>
  windows.filter((w) => w.event.goalMs !== undefined && w.unavailableWindowMs > w.event.goalMs);

/** Load shedding: the gateway refused the call before doing anything because it is saturated. */
const SHED = 'RESOURCE_EXHAUSTED';

export interface FailedAttempt {
  at: number;
  /** The operation: charge-grpc, charge-connect, read, notification, payout. */
  operation: string;
  /** gRPC status name, HTTP_<status>, or a socket error's code. */
  code: string;
  /** Whether the caller retried it with the same key (the answer said the request may be retried). */
  retried: boolean;
  /** The answer was about the key, not the fleet: its first attempt's outcome is still being confirmed or processed. */
  held: boolean;
}

export interface EventWindow {
  event: ChaosEvent;
  failures: number;
  /** From the event to the last failure before the next event; 0 when none failed. */
  windowMs: number;
  /** Failed attempts by operation and code, e.g. `charge-grpc UNAVAILABLE: 3`. */
  codes: Record<string, number>;
  /**
   * The window of the failures that say the gateway or its database could not serve (UNAVAILABLE, a cut stream, the
   * intake's 5xx): everything but load shedding (RESOURCE_EXHAUSTED), which a saturated machine causes at any time,
   * event or not. The goal ("how long callers saw UNAVAILABLE") is about this one.
   */
  unavailableWindowMs: number;
  /** For each of those, when its last failure came (ms after the event): which failures made the window as long as it is. */
  lastMsByCode: Record<string, number>;
  /** Failures the caller could not retry. */
  notRetried: number;
  /** Answers about keys held for confirmation (not counted in the window: they last as long as the confirmation does). */
  held: number;
}

/** Failures before the first event are the window of a `before events` pseudo-event at `start`. */
export function eventWindows(events: readonly ChaosEvent[], failures: readonly FailedAttempt[], start: number): EventWindow[] {
  const ordered = [{ name: 'before events', at: start }, ...[...events].sort((a, b) => a.at - b.at)];
  return ordered.map((event, index) => {
    const until = ordered[index + 1]?.at ?? Number.POSITIVE_INFINITY;
    const during = failures.filter((failure) => failure.at >= event.at && failure.at < until);
    const mine = during.filter((failure) => !failure.held);
    const codes: Record<string, number> = {};
    const lastMsByCode: Record<string, number> = {};
    for (const failure of mine) {
      const name = `${failure.operation} ${failure.code}`;
      codes[name] = (codes[name] ?? 0) + 1;
      lastMsByCode[name] = Math.max(lastMsByCode[name] ?? 0, failure.at - event.at);
    }
    const last = mine.reduce((latest, failure) => Math.max(latest, failure.at), event.at);
    const unavailable = mine.filter((failure) => failure.code !== SHED);
    const lastUnavailable = unavailable.reduce((latest, failure) => Math.max(latest, failure.at), event.at);
    return {
      event,
      failures: mine.length,
      windowMs: mine.length ? last - event.at : 0,
      unavailableWindowMs: unavailable.length ? lastUnavailable - event.at : 0,
      codes,
      lastMsByCode,
      notRetried: mine.filter((failure) => !failure.retried).length,
      held: during.length - mine.length,
    };
  });
}

/** Keys of `left` not in `right`. */
export const missingFrom = <T>(left: Iterable<T>, right: ReadonlySet<T>): T[] => [...left].filter((item) => !right.has(item));

/** Values that occur more than once, with their counts. */
export function repeated<T>(values: Iterable<T>): Map<T, number> {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return new Map([...counts].filter(([, count]) => count > 1));
}
