import { hash as oneShotHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { throwIfCallerGone } from '../lib/callScope.js';
import { GatewayError, outcomeOf } from '../lib/errors.js';
import { DEFAULT_UNKNOWN_CHECK_SCHEDULE_MS } from '../domain/types.js';
import type { GatewayDeps } from './context.js';
import type { ProviderAdapter } from '../providers/adapter.js';

/**
 * JSON with sorted keys, so that the same request always hashes the same. The text must never change (keys stored
 * before an upgrade are compared by its hash; tests/unit/requestHash.test.ts pins it), so it is written by hand into
 * one string: the entries, filtered, sorted and mapped arrays of the obvious version were about 5 % of a charge's
 * garbage. Keys sort by UTF-16 code units, as `<` compares them; an array's holes stay empty, as `join` leaves them.
 */
function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      if (index in value) text += canonicalJson(value[index]);
    }
    return `${text}]`;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let text = '{';
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      if (item === undefined) continue;
      if (text.length > 1) text += ',';
      text += `${JSON.stringify(key)}:${canonicalJson(item)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value ?? null);
}

/** How long the provider answers a repeated idempotency key with the first resource, where it documents that it does. */
export function resendWindowMs(adapter: ProviderAdapter): number | undefined {
  const seconds = adapter.capabilities.outcomeEvidence?.idempotentResendSeconds;
  return seconds === undefined ? undefined : seconds * 1000;
}

/** One-shot, without a Hash object: about half the time of createHash for a charge's request (issue 31). */
export const requestHash = (request: unknown): string => oneShotHash('sha256', canonicalJson(request), 'hex');

export interface IdempotentCall<P, T> {
  providerAccountId: string;
  operation: 'createTransaction' | 'refoundTransaction' | 'withdraw';
  key: string | undefined;
  /** What makes two requests "the same"; compared by hash. */
  request: unknown;
  /**
   * The provider call, given the id of the key it holds (none without a key). A definite failure frees the key for
   * a retry of the same request; a failure whose outcome is unknown (timeout, 5xx) keeps it until the provider or an
   * operator confirms what happened.
   */
  callProvider: (keyClaimId?: string) => Promise<P>;
  /**
   * What recording the provider's result later needs (no card data, no secrets), kept with the key from its claim:
   * a request whose process dies during the call is then settled like any unknown outcome.
   */
  pending?: unknown;
  /**
   * The call keeps `pending` with the key itself, at the step before which nothing can have reached the provider
   * (a refund, with its reservation): a key whose process died before that step kept none and is free again.
   */
  pendingKeptByCall?: boolean;
  /**
   * How long the provider is documented to answer a repeated idempotency key with the first resource
   * (OutcomeEvidence.idempotentResendSeconds): within it, a retry whose first attempt's outcome is unknown is sent
   * again with the key. Unset: never sent again while the outcome is unknown.
   */
  resendWithinMs?: number;
  /**
   * Stores what the provider did; returns the subject id and the stored response. Given the claim's id, it may
   * complete the key in its own write (one commit instead of two) and say so with `keyCompleted`.
   */
  store: (result: P, keyClaimId?: string) => Promise<{ subjectId: string; response?: unknown; value: T; keyCompleted?: boolean }>;
  /** Rebuilds the first answer for a repeated request. */
  replay: (subjectId: string, response: unknown) => Promise<T>;
  /**
   * Keeps a definite refusal (outcome 'failed': the provider certainly did not act) as a record of its own, and
   * returns the error to throw and, in `kept`, the subject id and response the key is completed with: a repeat then
   * replays the refusal (replay) and never reaches the provider again. Unset, or without `kept`: the refusal frees
   * the key for a retry.
   */
  storeRefusal?: (error: unknown) => Promise<{ error: unknown; kept?: { subjectId: string; response: unknown } }>;
}

const WAIT_STEP_MS = 50;
const WAIT_LIMIT_MS = 30_000;
/** What a retry is told to wait once no automatic check is left (an operator settles it). */
const OPERATOR_RETRY_MS = 60_000;

export const stillBeingConfirmed = (operation: string, key: string, nextCheckAt: Date | null = null): GatewayError =>
  new GatewayError(
    'UNAVAILABLE',
    `a ${operation} request with idempotency_key ${key} is still being confirmed with the provider (its first attempt ended without a known outcome); retry later`,
    {
      reason: 'IDEMPOTENCY_OUTCOME_UNKNOWN',
      field: 'idempotency_key',
      retryAfterMs: nextCheckAt ? Math.max(1_000, nextCheckAt.getTime() - Date.now()) : OPERATOR_RETRY_MS,
    },
  );

type Deps = Pick<GatewayDeps, 'db' | 'idempotency' | 'logger' | 'unknownCheckScheduleMs'>;

/**
 * Runs a money-moving call at most once per idempotency key and account: the
 * first request reaches the provider; repeats (also simultaneous ones) get the
 * first answer; the same key with another request is refused.
 */
export async function runIdempotent<P, T>(deps: Deps, call: IdempotentCall<P, T>): Promise<T> {
  if (!call.key) {
    throwIfCallerGone(`the ${call.operation} call to the provider`);
    let result: P;
    try {
      result = await call.callProvider();
    } catch (error) {
      throw call.storeRefusal && outcomeOf(error) === 'failed' ? await keptRefusal(deps, call.storeRefusal, undefined, error) : error;
    }
    return (await call.store(result)).value;
  }
  const hash = requestHash(call.request);
  const claimRequest = {
    providerAccountId: call.providerAccountId,
    operation: call.operation,
    key: call.key,
    requestHash: hash,
    pending: call.pendingKeptByCall ? undefined : call.pending,
  };
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    // The claim sends statements only: no unit of work (Database.rootEm).
    const claim = await deps.idempotency.claim(deps.db.rootEm(), claimRequest);
    if (claim.kind === 'completed') return call.replay(claim.subjectId, claim.response);
    if (claim.kind === 'unknown') {
      // Safe only where the provider documents that the same key gets the first resource, and only within its window.
      const resend =
        call.resendWithinMs !== undefined &&
        Date.now() - claim.createdAt.getTime() < call.resendWithinMs &&
        (await deps.idempotency.takeOverUnknown(deps.db.em(), claim.id, hash));
      if (!resend) throw stillBeingConfirmed(call.operation, call.key, claim.nextCheckAt);
      deps.logger.info(
        { operation: call.operation, providerAccountId: call.providerAccountId, idempotencyKey: call.key },
        'outcome unknown: sent again with the same idempotency key, which the provider answers with the first resource',
      );
      return ownerCall(deps, call, claim.id);
    }
    if (claim.kind === 'mismatch') {
      throw new GatewayError(
        'ALREADY_EXISTS',
        `idempotency_key ${call.key} was already used with a different ${call.operation} request on this provider account`,
        { reason: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotency_key' },
      );
    }
    if (claim.kind === 'owner') return ownerCall(deps, call, claim.id);
    if (Date.now() > deadline) {
      throw new GatewayError('UNAVAILABLE', `a ${call.operation} request with idempotency_key ${call.key} is still being processed; retry later`, {
        reason: 'IDEMPOTENCY_KEY_IN_PROGRESS',
      });
    }
    await sleep(WAIT_STEP_MS);
  }
}

/** The call of the request that holds the key: sends it, and records what came of it. */
async function ownerCall<P, T>(deps: Deps, call: IdempotentCall<P, T>, claimId: string): Promise<T> {
  // Until its last write, the key is this call's; a write the database never took leaves it to a retry (idempotencyRepository's isLost).
  const progress = { sent: false, recorded: false };
  deps.idempotency.hold(claimId);
  try {
    return await sendAndRecord(deps, call, claimId, progress);
  } finally {
    deps.idempotency.release(claimId, progress.sent && !progress.recorded);
  }
}

async function sendAndRecord<P, T>(deps: Deps, call: IdempotentCall<P, T>, claimId: string, progress: { sent: boolean; recorded: boolean }): Promise<T> {
  let result: P;
  try {
    // Nothing was sent yet: the key is released (FAILED, which the same request takes over) rather than held.
    throwIfCallerGone(`the ${call.operation} call to the provider`);
  } catch (error) {
    await deps.idempotency.fail(deps.db.em(), claimId, (error as Error).message);
    throw error;
  }
  try {
    progress.sent = true;
    result = await call.callProvider(claimId);
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    if (outcomeOf(error) === 'unknown') {
      // The provider may have charged or paid out: sending the request again could do it twice.
      const firstCheckMs = (deps.unknownCheckScheduleMs ?? DEFAULT_UNKNOWN_CHECK_SCHEDULE_MS)[0] ?? 0;
      await deps.idempotency.markUnknown(deps.db.em(), claimId, failure, call.pending ?? null, new Date(Date.now() + firstCheckMs));
      deps.logger.warn(
        { operation: call.operation, providerAccountId: call.providerAccountId, idempotencyKey: call.key },
        'provider call ended without a known outcome: key held until confirmed',
      );
    } else if (call.storeRefusal) {
      progress.recorded = true;
      throw await keptRefusal(deps, call.storeRefusal, claimId, error);
    } else {
      await deps.idempotency.fail(deps.db.em(), claimId, failure);
    }
    progress.recorded = true;
    throw error;
  }
  // From here the provider has acted: if storing fails, the key stays taken so a retry can never act twice.
  const stored = await call.store(result, claimId);
  if (!stored.keyCompleted) await deps.idempotency.complete(deps.db.em(), claimId, stored.subjectId, stored.response);
  progress.recorded = true;
  return stored.value;
}

/**
 * A definite refusal kept as its own record, the key (where there is one) completed with it where the call keeps it
 * (the same request answers it again). Should keeping it fail, the key is freed as for any refusal: the provider did not act, so a
 * retry may send it again.
 */
async function keptRefusal(
  deps: Deps,
  storeRefusal: NonNullable<IdempotentCall<unknown, unknown>['storeRefusal']>,
  claimId: string | undefined,
  error: unknown,
): Promise<unknown> {
  const failure = error instanceof Error ? error.message : String(error);
  try {
    const stored = await storeRefusal(error);
    if (claimId && stored.kept) await deps.idempotency.complete(deps.db.em(), claimId, stored.kept.subjectId, stored.kept.response);
    else if (claimId) await deps.idempotency.fail(deps.db.em(), claimId, failure);
    return stored.error;
  } catch (keeping) {
    deps.logger.error({ err: keeping }, 'a refusal could not be kept: its idempotency key is freed instead');
    if (claimId) await deps.idempotency.fail(deps.db.em(), claimId, failure);
    return error;
  }
}
