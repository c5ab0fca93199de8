import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../lib/errors.js';
import type { GatewayDeps } from './context.js';

/** JSON with sorted keys, so that the same request always hashes the same. */
function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
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
  /** The provider call. Its failure frees the key for a retry of the same request. */
  callProvider: () => Promise<P>;
  /** Stores what the provider did; returns the subject id and the stored response. */
  store: (result: P) => Promise<{ subjectId: string; response?: unknown; value: T }>;
  /** Rebuilds the first answer for a repeated request. */
  replay: (subjectId: string, response: unknown) => Promise<T>;
}

const WAIT_STEP_MS = 50;
const WAIT_LIMIT_MS = 30_000;

/**
 * Runs a money-moving call at most once per idempotency key and account: the
 * first request reaches the provider; repeats (also simultaneous ones) get the
 * first answer; the same key with another request is refused.
 */
export async function runIdempotent<P, T>(deps: Pick<GatewayDeps, 'db' | 'idempotency' | 'logger'>, call: IdempotentCall<P, T>): Promise<T> {
  if (!call.key) return (await call.store(await call.callProvider())).value;
  const claimRequest = { providerAccountId: call.providerAccountId, operation: call.operation, key: call.key, requestHash: requestHash(call.request) };
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const claim = await deps.idempotency.claim(deps.db.em(), claimRequest);
    if (claim.kind === 'completed') return call.replay(claim.subjectId, claim.response);
    if (claim.kind === 'mismatch') {
      throw new GatewayError('ALREADY_EXISTS', `idempotency_key ${call.key} was already used with a different ${call.operation} request on this provider account`, { reason: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotency_key' });
    }
    if (claim.kind === 'owner') {
      let result: P;
      try {
        result = await call.callProvider();
      } catch (error) {
        await deps.idempotency.fail(deps.db.em(), claim.id, error instanceof Error ? error.message : String(error));
        throw error;
      }
      // From here the provider has acted: if storing fails, the key stays taken so a retry can never act twice.
      const stored = await call.store(result);
      await deps.idempotency.complete(deps.db.em(), claim.id, stored.subjectId, stored.response);
      return stored.value;
    }
    if (Date.now() > deadline) {
      throw new GatewayError('UNAVAILABLE', `a ${call.operation} request with idempotency_key ${call.key} is still being processed; retry later`, { reason: 'IDEMPOTENCY_KEY_IN_PROGRESS' });
    }
    await sleep(WAIT_STEP_MS);
  }
}
