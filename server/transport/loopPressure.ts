import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GatewayError } from '../lib/errors.js';
import { IN_FLIGHT_RETRY_MS } from './inFlightLimit.js';

/** The primary pool's queue: how many queries may wait for a connection before new calls are refused, and how to count them. */
export interface PoolQueue {
  limit: number;
  waiting: () => Promise<number>;
}

/** How often the event loop's delay is judged, and over what window. */
const WINDOW_MS = 250;

/**
 * Load shedding by the event loop's delay (SHED_EVENT_LOOP_DELAY_MS). The
 * in-flight cap bounds how many calls wait, but not how long: on two cores a
 * few dozen charges at once already keep the loop busy, and past the
 * gateway's capacity every call admitted makes all the others later, until
 * each is answered after its caller has given up (goodput falls to nothing).
 * When the loop's median delay over the last window is above the limit, new
 * calls are refused at once with RESOURCE_EXHAUSTED, as past the cap, until
 * a window is calm again: the calls admitted are then answered in time. The
 * median, not the maximum: one long garbage collection is not overload.
 *
 * The database is the other place calls pile up (SHED_POOL_WAITING): when the
 * primary pool's queue, read every window, holds more waiting queries than
 * the limit, new calls are refused the same way until it has drained.
 */
export class LoopPressure {
  private readonly histogram: ReturnType<typeof monitorEventLoopDelay>;
  private readonly timer: NodeJS.Timeout;
  private delayMs = 0;
  private waiting = 0;
  private reading = false;

  private constructor(
    private readonly limitMs: number,
    private readonly pool?: PoolQueue,
  ) {
    // Sampled every 10 ms: a busy loop is seen within a window.
    this.histogram = monitorEventLoopDelay({ resolution: 10 });
    this.histogram.enable();
    this.timer = setInterval(() => this.judge(), WINDOW_MS).unref();
  }

  /** The shedder, or undefined when both limits are 0 (off). */
  static of(limitMs: number, pool?: PoolQueue): LoopPressure | undefined {
    const queue = pool && pool.limit > 0 ? pool : undefined;
    return limitMs > 0 || queue ? new LoopPressure(limitMs, queue) : undefined;
  }

  private judge(): void {
    // The histogram is in nanoseconds and counts the sampling interval itself.
    this.delayMs = this.histogram.count > 0 ? Math.max(0, this.histogram.percentile(50) / 1e6 - 10) : 0;
    this.histogram.reset();
    if (this.pool && !this.reading) {
      this.reading = true;
      this.pool.waiting().then(
        (waiting) => ((this.waiting = waiting), (this.reading = false)),
        () => ((this.waiting = 0), (this.reading = false)),
      );
    }
  }

  /** The median delay of the last window, in milliseconds. */
  get currentDelayMs(): number {
    return this.delayMs;
  }

  /** Refuses a new call while the loop is behind or too many queries wait for a database connection. */
  admit(): void {
    if (this.pool && this.waiting > this.pool.limit)
      throw new GatewayError('RESOURCE_EXHAUSTED', `the gateway's database is busy (${this.waiting} queries wait for a connection); try again shortly`, {
        reason: 'OVERLOADED',
        retryAfterMs: IN_FLIGHT_RETRY_MS,
      });
    if (this.limitMs > 0 && this.delayMs > this.limitMs)
      throw new GatewayError('RESOURCE_EXHAUSTED', 'the gateway is overloaded (its calls are already answered late); try again shortly', {
        reason: 'OVERLOADED',
        retryAfterMs: IN_FLIGHT_RETRY_MS,
      });
  }

  close(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
