import { performance } from 'node:perf_hooks';
import { OPERATIONS, type Operation } from '../domain/types.js';
import { isGatewayError, outcomeOf } from '../lib/errors.js';
import { failed, inSpan, SpanKind, type Tracer } from '../lib/tracing.js';
import type { ProviderAdapter } from './adapter.js';
import type { ProviderRegistry } from './registry.js';

/**
 * How a call to a provider ended, in a few words that stay few (they become
 * metric labels): `ok`; `rejected`, the provider (or the adapter, before
 * sending) refused it for good (a 4xx, not found, bad input); `unavailable`,
 * it certainly did not act (connection refused, 429, nothing sent);
 * `unknown`, it may have acted (a timeout, a 5xx, an answer that cannot be
 * read); `circuit_open`, not sent because the account's circuit is open.
 */
export type ProviderCallOutcome = 'ok' | 'rejected' | 'unavailable' | 'unknown' | 'circuit_open';

export interface ProviderCall {
  /** The adapter's id (never an alias or what a caller typed). */
  provider: string;
  /** A contract operation, or one of the optional capabilities' calls. */
  operation: string;
  outcome: ProviderCallOutcome;
  seconds: number;
}

/** Told of every provider call the gateway makes; must be cheap and never throw. */
export interface ProviderCallObserver {
  providerCall(call: ProviderCall): void;
}

/** The calls measured: the contract's operations the adapter offers, and the optional capabilities' calls. */
const CAPABILITY_CALLS = new Set(['findTransactionByReference', 'findWithdrawalByReference', 'simulatePayment']);
const CONTRACT_OPERATIONS = new Set<string>(OPERATIONS);

export function providerCallOutcome(error: unknown): ProviderCallOutcome {
  if (isGatewayError(error) && error.details.reason === 'PROVIDER_CIRCUIT_OPEN') return 'circuit_open';
  if (outcomeOf(error) === 'unknown') return 'unknown';
  return isGatewayError(error) && error.code === 'UNAVAILABLE' ? 'unavailable' : 'rejected';
}

/**
 * The adapter, with each provider call timed and reported by its outcome,
 * and traced in a span of its own when there is a tracer: a child of the RPC
 * that made it, or a root span when a background worker did. Operations it
 * does not offer are not calls to the provider (they reject with the spec's
 * text at once) and are not reported.
 */
function observed(adapter: ProviderAdapter, observer: ProviderCallObserver, tracer: Tracer | undefined): ProviderAdapter {
  const wrappers = new Map<PropertyKey, unknown>();
  const measured = (operation: string): boolean =>
    CAPABILITY_CALLS.has(operation) || (CONTRACT_OPERATIONS.has(operation) && adapter.supports(operation as Operation));
  return new Proxy(adapter, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof property !== 'string' || typeof value !== 'function' || !measured(property)) return value;
      if (!wrappers.has(property)) {
        const call = value as (...args: unknown[]) => Promise<unknown>;
        const report = (started: number, outcome: ProviderCallOutcome) =>
          observer.providerCall({ provider: target.identity.id, operation: property, outcome, seconds: (performance.now() - started) / 1000 });
        const provider = target.identity.id;
        const spanStart = () => ({
          kind: SpanKind.CLIENT,
          attributes: { 'gateway.provider': provider, 'gateway.provider.operation': property },
        });
        wrappers.set(property, (...args: unknown[]) =>
          inSpan(tracer, `${provider} ${property}`, spanStart, async (span) => {
            const started = performance.now();
            try {
              const result = await call.apply(target, args);
              report(started, 'ok');
              span.setAttribute('gateway.provider.outcome', 'ok');
              return result;
            } catch (error) {
              const outcome = providerCallOutcome(error);
              report(started, outcome);
              span.setAttribute('gateway.provider.outcome', outcome);
              failed(span, outcome);
              throw error;
            }
          }),
        );
      }
      return wrappers.get(property);
    },
  });
}

/** A registry of the same adapters, each reporting its provider calls to `observer` (and to `tracer`, when tracing is on). */
export function observedRegistry(registry: ProviderRegistry, observer: ProviderCallObserver, tracer?: Tracer): ProviderRegistry {
  return registry.mapped((adapter) => observed(adapter, observer, tracer));
}
