import axios from 'axios';
import {
  BrokenCircuitError,
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  IsolatedCircuitError,
  retry,
  type CircuitBreakerPolicy,
  type RetryPolicy,
} from 'cockatiel';
import type { Logger } from 'pino';
import { ProviderCallError } from './providerCallError.js';

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  /** First backoff delay; it grows exponentially with jitter. Default 200 ms. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export interface BreakerOptions {
  /** Consecutive outages that open the circuit. Default 5. */
  consecutiveFailures?: number;
  /** How long an open circuit fails fast before one trial call. Default 30 s. */
  halfOpenAfterMs?: number;
}

const isTimeout = (error: unknown): boolean => axios.isAxiosError(error) && (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT');

/** The provider is down or unreachable: no answer at all, or a 5xx. A 4xx is the provider working. */
export function isProviderOutage(error: unknown): boolean {
  return axios.isAxiosError(error) && (error.response === undefined || error.response.status >= 500);
}

/**
 * Worth another try for a read: a refused or reset connection, or a 5xx. Not a
 * timeout: the caller's time budget is already spent.
 */
export const isRetryableRead = (error: unknown): boolean => isProviderOutage(error) && !isTimeout(error);

/** Retries for idempotent reads only; the factory never wraps a call that moves money in it. */
export function readRetryPolicy({ retries = 2, initialDelayMs = 200, maxDelayMs = 2_000 }: RetryOptions = {}): RetryPolicy {
  return retry(handleWhen(isRetryableRead), { maxAttempts: retries, backoff: new ExponentialBackoff({ initialDelay: initialDelayMs, maxDelay: maxDelayMs }) });
}

const breakers = new Map<string, CircuitBreakerPolicy>();

/**
 * The circuit of one provider account at one host, shared by every client built
 * for it (adapters build clients per call). Only outages count; the options of
 * the first client built for the key apply.
 */
export function circuitFor(key: string, { consecutiveFailures = 5, halfOpenAfterMs = 30_000 }: BreakerOptions, logger: Logger): CircuitBreakerPolicy {
  let breaker = breakers.get(key);
  if (!breaker) {
    breaker = circuitBreaker(handleWhen(isProviderOutage), { halfOpenAfter: halfOpenAfterMs, breaker: new ConsecutiveBreaker(consecutiveFailures) });
    breaker.onBreak(() => logger.warn({ circuit: key }, 'provider circuit opened: failing fast'));
    breaker.onReset(() => logger.info({ circuit: key }, 'provider circuit closed'));
    breakers.set(key, breaker);
  }
  return breaker;
}

/** Runs a call through the circuit; an open circuit becomes an UNAVAILABLE failure awaiting its prefix. */
export async function throughCircuit<T>(breaker: CircuitBreakerPolicy, call: () => Promise<T>): Promise<T> {
  try {
    return await breaker.execute(call);
  } catch (error) {
    if (error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError) {
      throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_CIRCUIT_OPEN', 'provider temporarily unavailable (circuit open after repeated failures)');
    }
    throw error;
  }
}

/** Forgets every circuit (tests). */
export function resetCircuitBreakers(): void {
  breakers.clear();
}
