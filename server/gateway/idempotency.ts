import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { throwIfCallerGone } from '../lib/callScope.js';
import { GatewayError, outcomeOf } from '../lib/errors.js';
import type { GatewayDeps } from './context.js';

/** JSON with sorted keys, so that the same request always hashes the same. */
function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const requestHash = (request: unknown): string => createHash('sha256').update(canonicalJson(request)).digest('hex');

export interface IdempotentCall<P, T> {
  providerAccountId: string;
  operation: 'createTransaction' | 'refoundTransaction' | 'withdraw';
  key: string | undefined;
  /** What makes two requests "the same"; compared by hash. */
  request: unknown;
  /**
   * The provider call. A definite failure frees the key for a retry of the same
   * request; a failure whose outcome is unknown (timeout, 5xx) keeps it until
   * the provider or an operator confirms what happened.
   */
  callProvider: () => Promise<P>;
  /** What recording the provider's result later needs, kept with a key whose outcome is unknown (no card data, no secrets). */
  pending?: unknown;
  /**
   * Stores what the provider did; returns the subject id and the stored response. Given the claim's id, it may
   * complete the key in its own write (one commit instead of two) and say so with `keyCompleted`.
   */
  store: (result: P, keyClaimId?: string) => Promise<{ subjectId: string; response?: unknown; value: T; keyCompleted?: boolean }>;
  /** Rebuilds the first answer for a repeated request. */
  replay: (subjectId: string, response: unknown) => Promise<T>;
}

const WAIT_STEP_MS = 50;
const WAIT_LIMIT_MS = 30_000;
/** A key with an unknown outcome is first checked with the provider this long after the failure. */
export const FIRST_UNKNOWN_CHECK_MS = 5_000;

export const stillBeingConfirmed = (operation: string, key: string): GatewayError =>
  new GatewayError(
    'UNAVAILABLE',
    `a ${operation} request with idempotency_key ${key} is still being confirmed with the provider (its first attempt ended without a known outcome); retry later`,
    { reason: 'IDEMPOTENCY_OUTCOME_UNKNOWN', field: 'idempotency_key' },
  );

/**
 * Runs a money-moving call at most once per idempotency key and account: the
 * first request reaches the provider; repeats (also simultaneous ones) get the
 * first answer; the same key with another request is refused.
 */
export async function runIdempotent<P, T>(deps: Pick<GatewayDeps, 'db' | 'idempotency' | 'logger'>, call: IdempotentCall<P, T>): Promise<T> {
  if (!call.key) {
    throwIfCallerGone(`the ${call.operation} call to the provider`);
    return (await call.store(await call.callProvider())).value;
  }
  const claimRequest = { providerAccountId: call.providerAccountId, operation: call.operation, key: call.key, requestHash: requestHash(call.request) };
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const claim = await deps.idempotency.claim(deps.db.em(), claimRequest);
    if (claim.kind === 'completed') return call.replay(claim.subjectId, claim.response);
    if (claim.kind === 'unknown') throw stillBeingConfirmed(call.operation, call.key);
    if (claim.kind === 'mismatch') {
      throw new GatewayError(
        'ALREADY_EXISTS',
        `idempotency_key ${call.key} was already used with a different ${call.operation} request on this provider account`,
        { reason: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotency_key' },
      );
    }
    if (claim.kind === 'owner') {
      let result: P;
      try {
        // Nothing was sent yet: the key is released (FAILED, which the same request takes over) rather than held.
        throwIfCallerGone(`the ${call.operation} call to the provider`);
      } catch (error) {
        await deps.idempotency.fail(deps.db.em(), claim.id, (error as Error).message);
        throw error;
      }
      try {
        result = await call.callProvider();
      } catch (error) {
        const failure = error instanceof Error ? error.message : String(error);
        if (outcomeOf(error) === 'unknown') {
          // The provider may have charged or paid out: sending the request again could do it twice.
          await deps.idempotency.markUnknown(deps.db.em(), claim.id, failure, call.pending ?? null, new Date(Date.now() + FIRST_UNKNOWN_CHECK_MS));
          deps.logger.warn(
            { operation: call.operation, providerAccountId: call.providerAccountId, idempotencyKey: call.key },
            'provider call ended without a known outcome: key held until confirmed',
          );
        } else {
          await deps.idempotency.fail(deps.db.em(), claim.id, failure);
        }
        throw error;
      }
      // From here the provider has acted: if storing fails, the key stays taken so a retry can never act twice.
      const stored = await call.store(result, claim.id);
      if (!stored.keyCompleted) await deps.idempotency.complete(deps.db.em(), claim.id, stored.subjectId, stored.response);
      return stored.value;
    }
    if (Date.now() > deadline) {
      throw new GatewayError('UNAVAILABLE', `a ${call.operation} request with idempotency_key ${call.key} is still being processed; retry later`, {
        reason: 'IDEMPOTENCY_KEY_IN_PROGRESS',
      });
    }
    await sleep(WAIT_STEP_MS);
  }
}
