import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { stacklessError, type GatewayError } from '../lib/errors.js';
import { IN_FLIGHT_RETRY_MS } from './inFlightLimit.js';

/** The primary pool's queue: how long its queries may wait for a connection before new calls are refused, and how to read it. */
export interface PoolQueue {
  /** Milliseconds; 0: off. */
  limitMs: number;
  /** The wait of the window since the last call, in milliseconds (PoolWaits.windowMs), and a new window. */
  waitMs: () => number;
}

/** How often the event loop's delay and the pool's queue are judged, and over what window. */
const WINDOW_MS = 250;
/** Calls still taken at once however long the pressure lasts: a gateway that takes none cannot tell it has recovered. */
export const MIN_CALLS_UNDER_PRESSURE = 4;
/** A window under pressure sets the limit to this share of the calls that were in flight. */
const DECREASE = 0.8;
/** A calm window raises the limit by this share (at least one call). */
const INCREASE = 0.05;

/** How often the loop's delay is sampled, in milliseconds. */
const SAMPLE_MS = 10;

/**
 * A window's delay, in milliseconds: the median of its samples (in nanoseconds, each counting the sampling interval
 * itself), or, when the loop took no sample at all, the time since the last window was judged, less the sampling
 * interval: a 10 ms timer that never fired in that time means the loop went that long without a turn (the next sample
 * will say so). Reading such a window as calm, as an earlier version did, lifted the limit in the middle of an
 * overload: at 120 ms of work per turn of the loop, some windows held no sample.
 */
export function windowDelayMs(samples: number, medianNs: number, sinceJudgedMs: number): number {
  return Math.max(0, samples > 0 ? medianNs / 1e6 - SAMPLE_MS : sinceJudgedMs - SAMPLE_MS);
}

/**
 * Load shedding by the event loop's delay (SHED_EVENT_LOOP_DELAY_MS) and the
 * primary pool's queue (SHED_POOL_WAIT_MS), as an adaptive limit on the calls
 * answered at once. The in-flight cap bounds how many calls wait, but not how
 * long: on two cores a few dozen charges at once already keep the loop busy,
 * and past the gateway's capacity every call admitted makes all the others
 * later, until each is answered after its caller has given up (goodput falls
 * to nothing).
 *
 * Every window, the loop's median delay and the median time the pool's queries
 * waited for a connection are judged. A window under pressure (either above its
 * limit) lowers the limit to 80 % of the calls that were in
 * flight (never under 4), except when the loop is behind with more calls
 * refused than taken in the window: refusing is then most of its work, and
 * taking fewer calls would only waste the capacity, so the limit holds. A
 * calm window raises it by 5 % (at least one), and
 * lifts it once the calls in flight no longer come near it. Past the limit a
 * new call is refused at once with RESOURCE_EXHAUSTED. So the gateway keeps
 * taking about as many calls as it answers in time, instead of all of them
 * and then none (an earlier version refused every call while a window was
 * under pressure: goodput at twice the capacity swung with the windows). The
 * median, not the maximum: one long garbage collection is not overload.
 */
export class LoopPressure {
  private readonly histogram: ReturnType<typeof monitorEventLoopDelay>;
  private readonly timer: NodeJS.Timeout;
  private delayMs = 0;
  /** When the last window was judged (performance.now()). */
  private judgedAt = performance.now();
  /** The pool's wait in the last window under its pressure, in milliseconds, for the refusal's message. */
  private poolWaitMs = 0;
  private inFlight = 0;
  /** The most calls in flight during the current window. */
  private peak = 0;
  /** Calls taken and refused during the current window. */
  private taken = 0;
  private refused = 0;
  /** Calls taken at once; Infinity while no pressure has been seen, or once it has passed. */
  private limit = Infinity;
  /** What the last pressure was, for the refusal's message. */
  private cause: 'loop' | 'pool' = 'loop';

  private constructor(
    private readonly limitMs: number,
    private readonly pool?: PoolQueue,
  ) {
    // Sampled every 10 ms: a busy loop is seen within a window.
    this.histogram = monitorEventLoopDelay({ resolution: SAMPLE_MS });
    this.histogram.enable();
    this.timer = setInterval(() => this.judge(), WINDOW_MS).unref();
  }

  /** The shedder, or undefined when both limits are 0 (off). */
  static of(limitMs: number, pool?: PoolQueue): LoopPressure | undefined {
    const queue = pool && pool.limitMs > 0 ? pool : undefined;
    return limitMs > 0 || queue ? new LoopPressure(limitMs, queue) : undefined;
  }

  private judge(): void {
    const now = performance.now();
    this.delayMs = windowDelayMs(this.histogram.count, this.histogram.count > 0 ? this.histogram.percentile(50) : 0, now - this.judgedAt);
    this.judgedAt = now;
    this.histogram.reset();
    const poolWaitMs = this.pool?.waitMs() ?? 0;
    const poolBusy = this.pool !== undefined && poolWaitMs > this.pool.limitMs;
    if (poolBusy) this.poolWaitMs = poolWaitMs;
    const loopBehind = this.limitMs > 0 && this.delayMs > this.limitMs;
    if (poolBusy || (loopBehind && this.refused <= this.taken)) {
      this.cause = poolBusy ? 'pool' : 'loop';
      this.limit = Math.max(MIN_CALLS_UNDER_PRESSURE, Math.floor(Math.min(this.limit, this.peak) * DECREASE));
    } else if (loopBehind) {
      // Refusing is most of what keeps the loop busy: taking fewer calls would not make it faster, only waste it.
    } else if (this.limit !== Infinity) {
      this.limit = this.peak * 2 < this.limit ? Infinity : this.limit + Math.max(1, Math.floor(this.limit * INCREASE));
    }
    this.peak = this.inFlight;
    this.taken = 0;
    this.refused = 0;
  }

  /** The median delay of the last window, in milliseconds. */
  get currentDelayMs(): number {
    return this.delayMs;
  }

  /** The calls taken at once now; Infinity when there is no pressure. */
  get currentLimit(): number {
    return this.limit;
  }

  /**
   * The refusal a new call gets now (counted as refused in this window), or undefined while the limit has room. A
   * transport may ask before it authenticates or reads a call, so that a refused call costs as little as it can.
   */
  refusal(): GatewayError | undefined {
    if (this.inFlight < this.limit) return undefined;
    this.refused += 1;
    return this.cause === 'pool'
      ? stacklessError(
          'RESOURCE_EXHAUSTED',
          `the gateway's database is busy (its queries wait ${Math.round(this.poolWaitMs)} ms for a connection); try again shortly`,
          {
            reason: 'OVERLOADED',
            retryAfterMs: IN_FLIGHT_RETRY_MS,
          },
        )
      : stacklessError('RESOURCE_EXHAUSTED', 'the gateway is overloaded (its calls are already answered late); try again shortly', {
          reason: 'OVERLOADED',
          retryAfterMs: IN_FLIGHT_RETRY_MS,
        });
  }

  /**
   * Takes a new call, or refuses it while as many calls as the limit are in flight; the function it returns gives
   * the place back (once, however often it is called).
   */
  admit(): () => void {
    const refusal = this.refusal();
    if (refusal) throw refusal;
    this.taken += 1;
    this.inFlight += 1;
    this.peak = Math.max(this.peak, this.inFlight);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
    };
  }

  close(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
