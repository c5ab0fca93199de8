import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GatewayError } from '../lib/errors.js';
import { IN_FLIGHT_RETRY_MS } from './inFlightLimit.js';

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
 */
export class LoopPressure {
  private readonly histogram: ReturnType<typeof monitorEventLoopDelay>;
  private readonly timer: NodeJS.Timeout;
  private delayMs = 0;

  private constructor(private readonly limitMs: number) {
    // Sampled every 10 ms: a busy loop is seen within a window.
    this.histogram = monitorEventLoopDelay({ resolution: 10 });
    this.histogram.enable();
    this.timer = setInterval(() => this.judge(), WINDOW_MS).unref();
  }

  /** The shedder, or undefined when the limit is 0 (off). */
  static of(limitMs: number): LoopPressure | undefined {
    return limitMs > 0 ? new LoopPressure(limitMs) : undefined;
  }

  private judge(): void {
    // The histogram is in nanoseconds and counts the sampling interval itself.
    this.delayMs = this.histogram.count > 0 ? Math.max(0, this.histogram.percentile(50) / 1e6 - 10) : 0;
    this.histogram.reset();
  }

  /** The median delay of the last window, in milliseconds. */
  get currentDelayMs(): number {
    return this.delayMs;
  }

  /** Refuses a new call while the loop is behind. */
  admit(): void {
    if (this.delayMs > this.limitMs)
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
