import { performance } from 'node:perf_hooks';
import type pg from 'pg';

/**
 * How long the queries of one pool wait for a connection: what the load shedder judges the database by
 * (SHED_POOL_WAIT_MS).
 *
 * How many queries wait says little by itself: with 10 connections each held for a millisecond or two, 30 callers
 * keep 20 queries waiting for about 3 ms each, which is a busy gateway, not an overloaded one; an earlier rule that
 * shed past 20 waiting refused healthy traffic at 32 callers, and on the embedded database (one connection) at any
 * concurrency past 20. How long they wait is what each call pays.
 */
export class PoolWaits {
  /** Waits, in milliseconds, of the connections handed out since the last reading. */
  private served: number[] = [];
  /** When each acquisition not yet served began (performance.now()), in the order they began. */
  private readonly pending = new Map<number, number>();
  private next = 0;

  /** Counts every acquisition of `pool` from now on (pg-pool's own `query` acquires through `connect` too). */
  static of(pool: pg.Pool): PoolWaits {
    const waits = new PoolWaits();
    const connect = pool.connect.bind(pool) as (
      callback?: (error: Error | undefined, client: pg.PoolClient, done: (release?: unknown) => void) => void,
    ) => unknown;
    (pool as { connect: unknown }).connect = (callback?: (error: Error | undefined, client: pg.PoolClient, done: (release?: unknown) => void) => void) => {
      const id = waits.begin();
      if (callback)
        return connect((error, client, done) => {
          waits.end(id, error === undefined || error === null);
          callback(error, client, done);
        });
      return (connect() as Promise<pg.PoolClient>).then(
        (client) => (waits.end(id, true), client),
        (error: unknown) => {
          waits.end(id, false);
          throw error;
        },
      );
    };
    return waits;
  }

  private begin(): number {
    const id = this.next++;
    this.pending.set(id, performance.now());
    return id;
  }

  private end(id: number, served: boolean): void {
    const began = this.pending.get(id);
    this.pending.delete(id);
    // A connection that could not be had (the database down, the acquire timeout) is an error of its own, not a wait.
    if (served && began !== undefined) this.served.push(performance.now() - began);
  }

  /**
   * The wait of the window since the last reading, in milliseconds, and a new window: the median wait of the
   * connections handed out in it; when none was, the age of the oldest acquisition still waiting (a pool that hands
   * out nothing while queries wait is the busiest of all); 0 when nothing waited.
   */
  windowMs(): number {
    const served = this.served;
    this.served = [];
    if (served.length > 0) return served.sort((a, b) => a - b)[Math.floor((served.length - 1) / 2)]!;
    for (const began of this.pending.values()) return performance.now() - began;
    return 0;
  }
}
