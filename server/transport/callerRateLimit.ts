import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '../gateway/access.js';
import { GatewayError } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';

/** RATE_LIMIT_PER_SECOND and RATE_LIMIT_BURST; 0 per second: no limit. */
export interface RateLimitSettings {
  perSecond: number;
  burst: number;
}

/** Tenths of a second, rounded up: "try again in 0 s" would invite an immediate retry that fails again. */
const seconds = (ms: number) => Math.ceil(ms / 100) / 10;

const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;

/** The refusal's text: the limit, and when to try again. */
export const rateLimitedMessage = (settings: RateLimitSettings, retryAfterMs: number): string =>
  `rate limit reached for this caller: at most ${calls(settings.perSecond)} per second, ${settings.burst} at once; try again in ${seconds(retryAfterMs)} s`;

/**
 * Calls each caller (a principal: an API_TOKENS entry, a service token, an
 * operator) may make, whatever the transport: at most `burst` in a window of
 * burst / perSecond seconds that opens at the caller's first call, so that
 * over time the rate stays at perSecond. One instance serves both transports
 * of a process, so switching from gRPC to Connect does not double a budget.
 */
export class CallerRateLimit {
  private readonly limiter: RateLimiterMemory;

  private constructor(
    private readonly settings: RateLimitSettings,
    private readonly logger: Logger,
  ) {
    this.limiter = new RateLimiterMemory({ points: settings.burst, duration: settings.burst / settings.perSecond });
  }

  /** The limit, or undefined when RATE_LIMIT_PER_SECOND is 0 (no limit). */
  static of(settings: RateLimitSettings, logger: Logger): CallerRateLimit | undefined {
    return settings.perSecond > 0 ? new CallerRateLimit(settings, logger) : undefined;
  }

  /** Counts one call of the principal; RESOURCE_EXHAUSTED, with when to try again, once its budget is spent. */
  async take(principal: Principal): Promise<void> {
    const key = `${principal.kind}:${principal.id}`;
    try {
      await this.limiter.consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const retryAfterMs = Math.max(1, Math.ceil(refusal.msBeforeNext));
      // Once per caller and window, not once per refused call: a flood must not become a flood of log lines.
      if (refusal.consumedPoints === this.settings.burst + 1)
        this.logger.warn({ caller: key, name: principal.name, retryAfterMs }, 'rate limit reached for a caller');
      throw new GatewayError('RESOURCE_EXHAUSTED', rateLimitedMessage(this.settings, retryAfterMs), { reason: 'RATE_LIMITED', retryAfterMs });
    }
  }
}
