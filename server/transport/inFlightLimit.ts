import { stacklessError, type GatewayError } from '../lib/errors.js';

/** What a refused call is told to wait: short, since calls in flight end in milliseconds to seconds. */
export const IN_FLIGHT_RETRY_MS = 200;

/**
 * A cap on unary calls being answered at once in this process (MAX_IN_FLIGHT),
 * over gRPC and Connect together. Past it a call is refused at once with
 * RESOURCE_EXHAUSTED instead of queueing behind the others: under overload the
 * calls taken are still answered in time, and the refused ones can go to
 * another instance or come back. Streams (WatchEvents) are not counted: they
 * stay open for as long as a caller watches.
 */
export class InFlightLimit {
  private current = 0;

  private constructor(private readonly max: number) {}

  /** The limit, or undefined when MAX_IN_FLIGHT is 0 (no limit). */
  static of(max: number): InFlightLimit | undefined {
    return max > 0 ? new InFlightLimit(max) : undefined;
  }

  /** The refusal a new call gets now, or undefined while there is a place (asked before a call is authenticated or read). */
  refusal(): GatewayError | undefined {
    if (this.current < this.max) return undefined;
    return stacklessError('RESOURCE_EXHAUSTED', `the gateway is answering ${this.max} calls already; try again shortly`, {
      reason: 'OVERLOADED',
      retryAfterMs: IN_FLIGHT_RETRY_MS,
    });
  }

  /** Takes a place; the function it returns gives it back (once, however often it is called). */
  enter(): () => void {
    const refusal = this.refusal();
    if (refusal) throw refusal;
    this.current += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.current -= 1;
    };
  }

  get inFlight(): number {
    return this.current;
  }
}
