import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '../gateway/access.js';
import { GatewayError } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';

/** A sustained rate and a burst; 0 per second: no limit. */
export interface RateLimitSettings {
  perSecond: number;
  burst: number;
}

/**
 * The budgets by kind of caller: `tokens` for machines (service tokens and API_TOKENS entries: RATE_LIMIT_*, off
 * unless set), `operators` for people in the back-office (OPERATOR_RATE_LIMIT_*), `publishable` for publishable keys
 * (PUBLISHABLE_RATE_LIMIT_*), counted per key and network address: the key is public, and one buyer's browser must
 * not spend the budget of every buyer of the shop.
 */
export interface CallerRateLimitSettings {
  tokens: RateLimitSettings;
  operators: RateLimitSettings;
  publishable?: RateLimitSettings;
}

/** Tenths of a second, rounded up: "try again in 0 s" would invite an immediate retry that fails again. */
const seconds = (ms: number) => Math.ceil(ms / 100) / 10;

const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;

/** The refusal's text: the limit, and when to try again. */
export const rateLimitedMessage = (settings: RateLimitSettings, retryAfterMs: number): string =>
  `rate limit reached for this caller: at most ${calls(settings.perSecond)} per second, ${settings.burst} at once; try again in ${seconds(retryAfterMs)} s`;

/** One kind of caller's budgets: at most `burst` calls per window of burst / perSecond seconds, per caller. */
class Budgets {
  private readonly limiter: RateLimiterMemory;

  constructor(readonly settings: RateLimitSettings) {
    this.limiter = new RateLimiterMemory({ points: settings.burst, duration: settings.burst / settings.perSecond });
  }

  consume(key: string): Promise<unknown> {
    return this.limiter.consume(key);
  }
}

/**
 * Calls each caller (a principal: an API_TOKENS entry, a service token, an
 * operator) may make, whatever the transport: at most `burst` in a window of
 * burst / perSecond seconds that opens at the caller's first call, so that
 * over time the rate stays at perSecond. Tokens (machines: the checkout's
 * services) and operators (people) have settings of their own, since a
 * service's normal traffic is a person's runaway loop. One instance serves
 * both transports of a process, so switching from gRPC to Connect does not
 * double a budget.
 */
export class CallerRateLimit {
  private readonly byKind: Partial<Record<Principal['kind'], Budgets>>;

  private constructor(
    settings: CallerRateLimitSettings,
    private readonly logger: Logger,
  ) {
    const budgets = (limit: RateLimitSettings) => (limit.perSecond > 0 ? new Budgets(limit) : undefined);
    const tokens = budgets(settings.tokens);
    this.byKind = {
      service: tokens,
      bootstrap: tokens,
      operator: budgets(settings.operators),
      publishable: settings.publishable && budgets(settings.publishable),
    };
  }

  /** The limits, or undefined when all are off (0 per second). */
  static of(settings: CallerRateLimitSettings, logger: Logger): CallerRateLimit | undefined {
    return [settings.tokens, settings.operators, settings.publishable].some((limit) => limit && limit.perSecond > 0)
      ? new CallerRateLimit(settings, logger)
      : undefined;
  }

  /**
   * Counts one call of the principal (a publishable key's per `source`, the caller's address); RESOURCE_EXHAUSTED,
   * with when to try again, once its budget is spent.
   */
  async take(principal: Principal, source = ''): Promise<void> {
    const budgets = this.byKind[principal.kind];
    if (!budgets) return;
    const key = principal.kind === 'publishable' ? `publishable:${principal.id}:${source}` : `${principal.kind}:${principal.id}`;
    try {
      await budgets.consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const retryAfterMs = Math.max(1, Math.ceil(refusal.msBeforeNext));
      // Once per caller and window, not once per refused call: a flood must not become a flood of log lines.
      if (refusal.consumedPoints === budgets.settings.burst + 1)
        this.logger.warn({ caller: key, name: principal.name, retryAfterMs }, 'rate limit reached for a caller');
      throw new GatewayError('RESOURCE_EXHAUSTED', rateLimitedMessage(budgets.settings, retryAfterMs), { reason: 'RATE_LIMITED', retryAfterMs });
    }
  }
}
