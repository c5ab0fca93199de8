import axios from 'axios';
import {
  BrokenCircuitError,
  circuitBreaker,
  CircuitState,
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

/** Node's and axios's codes for a request that could not even be built: the caller's input, never the provider's health. */
const REQUEST_CONSTRUCTION_CODES = new Set([
  'ERR_INVALID_URL',
  'ERR_BAD_OPTION',
  'ERR_BAD_OPTION_VALUE',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_UNESCAPED_CHARACTERS',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_CANCELED',
]);
/** Connection failures that happen before a byte of the request left: the provider cannot have acted. */
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

const codeOf = (error: { code?: string; cause?: unknown }): string => error.code ?? (error.cause as { code?: string } | undefined)?.code ?? '';

/** No answer because the request never went out (it could not be built, or no connection was made). */
export function requestWasNotSent(error: unknown): boolean {
  if (!axios.isAxiosError(error) || error.response) return false;
  const code = codeOf(error);
  return REQUEST_CONSTRUCTION_CODES.has(code) || NOT_CONNECTED_CODES.has(code);
}

/**
 * The provider is down or unreachable: a 5xx, a timeout, a refused or lost
 * connection. A 4xx is the provider working, and a request that could not be
 * built is the caller's input: neither counts toward the circuit.
 */
export function isProviderOutage(error: unknown): boolean {
  // A read its caller gave up on says nothing about the provider.
  if (!axios.isAxiosError(error) || axios.isCancel(error)) return false;
  if (error.response) return error.response.status >= 500;
  return !REQUEST_CONSTRUCTION_CODES.has(codeOf(error));
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

/** Whose circuit it is: one provider account at one host (a provider may have a second host for payouts). */
export interface CircuitOwner {
  /** The provider's id, for reports; '' when the client was built without one. */
  provider?: string;
  accountId: string;
  origin: string;
}

export type CircuitStateName = 'closed' | 'half-open' | 'open';

/** What `circuitStates()` reports of one circuit. */
export interface CircuitReport {
  provider: string;
  accountId: string;
  origin: string;
  state: CircuitStateName;
}

const breakers = new Map<string, { policy: CircuitBreakerPolicy; owner: CircuitOwner }>();

/**
 * The circuit of one provider account at one host, shared by every client built
 * for it (adapters build clients per call). Only outages count; the options of
 * the first client built for the key apply.
 */
export function circuitFor(owner: CircuitOwner, { consecutiveFailures = 5, halfOpenAfterMs = 30_000 }: BreakerOptions, logger: Logger): CircuitBreakerPolicy {
  const key = `${owner.accountId}@${owner.origin}`;
  let breaker = breakers.get(key);
  if (!breaker) {
    const policy = circuitBreaker(handleWhen(isProviderOutage), { halfOpenAfter: halfOpenAfterMs, breaker: new ConsecutiveBreaker(consecutiveFailures) });
    policy.onBreak(() => logger.warn({ circuit: key }, 'provider circuit opened: failing fast'));
    policy.onReset(() => logger.info({ circuit: key }, 'provider circuit closed'));
    breaker = { policy, owner };
    breakers.set(key, breaker);
  }
  return breaker.policy;
}

const STATE_NAMES: Record<CircuitState, CircuitStateName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half-open',
  // Open stays open until the first call after the pause, which is the trial (half-open).
  [CircuitState.Open]: 'open',
  [CircuitState.Isolated]: 'open',
};

/** Every circuit of this process (built by a first call to its account and host) and its state now. */
export function circuitStates(): CircuitReport[] {
  return [...breakers.values()].map(({ policy, owner }) => ({
    provider: owner.provider ?? '',
    accountId: owner.accountId,
    origin: owner.origin,
    state: STATE_NAMES[policy.state],
  }));
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
