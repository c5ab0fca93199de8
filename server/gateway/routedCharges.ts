import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError, isGatewayError, outcomeOf } from '../lib/errors.js';
import {
  DEFAULT_MAX_ATTEMPTS,
  isSoftDecline,
  type OrderedTarget,
  type Route,
  type RouteDecision,
  type RoutingAttempt,
  type RoutingRecord,
} from '../domain/routing.js';
import type { Transaction } from '../domain/types.js';
import type { GatewayDeps } from './context.js';
import { requestHash, stillBeingConfirmed } from './idempotency.js';

/**
 * A charge (or a PIX payout) that named a route: its targets tried in the decided order, the next one only when the
 * provider of the one before certainly did not act. Each attempt is an ordinary charge or payout at its account, under
 * its own idempotency key derived from the caller's and the attempt's number (runIdempotent, as without a route); the
 * caller's key is claimed once more for the route, so a retry answers what the first request did and never starts
 * again at another account.
 */

/**
 * The provider certainly did not act and said nothing about the charge: an open circuit, a connection refused, a host
 * not found, a TLS failure before the request was written, a 429 or 408 (providerError.ts): UNAVAILABLE with the
 * outcome `failed`. A timeout, a 5xx or a reset after sending (outcome unknown), a decline (a REJECTED charge, not an
 * error) or a refused request (INVALID_ARGUMENT, FAILED_PRECONDITION) never goes to the next target.
 */
export const providerDidNotAct = (error: unknown): boolean => isGatewayError(error) && error.code === 'UNAVAILABLE' && outcomeOf(error) === 'failed';

/** The key an attempt is sent with: the caller's key and the attempt's number (hashed when too long for a key). */
export function attemptKey(callerKey: string, attempt: number): string {
  const base = callerKey.length > 200 ? createHash('sha256').update(callerKey).digest('hex') : callerKey;
  return `${base}:route-attempt-${attempt}`;
}

/** The same key always draws the same order, so that a retry of a charge is routed as its first request was. */
export const seedOf = (key: string): number => createHash('sha256').update(key).digest().readUInt32BE(0);

/** What a route sends: a charge (a Transaction, by createTransaction) or a payout (a Withdrawal, by withdraw). */
export interface RoutedCall<S extends { id: string }> {
  operation: 'createTransaction' | 'withdraw';
  route: Route;
  decision: RouteDecision;
  callerKey?: string;
  /** What makes two requests the same charge or payout (hashed). */
  request: unknown;
  /** Sends at one target; `attempts` are the targets tried before it, this one last, as the subject will record them. */
  charge: (target: OrderedTarget, key: string | undefined, routing: RoutingRecord) => Promise<S>;
  /** Whether the next target may take what this one declined (a card soft decline; never for a payout). */
  declined?: (subject: S) => boolean;
  /** The provider's name of an account, for the record (undefined: the account is gone). */
  providerOf: (providerAccountId: string) => Promise<string | undefined>;
  replay: (subjectId: string) => Promise<S>;
}

export type RoutedChargeCall = Omit<RoutedCall<Transaction>, 'operation' | 'declined'>;

type Deps = Pick<GatewayDeps, 'db' | 'idempotency' | 'logger'>;

const WAIT_STEP_MS = 50;
const WAIT_LIMIT_MS = 30_000;

const attemptsOf = (route: Route) => route.maxAttempts || DEFAULT_MAX_ATTEMPTS;

/** A card charge the provider declined with a reason on the route's soft-decline list: the next target may approve it. */
export const softDeclined = (route: Route, transaction: Transaction): boolean =>
  transaction.status === 'REJECTED' && transaction.paymentMethod === 'CREDIT_CARD' && isSoftDecline(route, transaction.declineReason);

async function tryTargets<S extends { id: string }>(deps: Deps, call: RoutedCall<S>): Promise<S> {
  const { route, decision } = call;
  const tried: RoutingAttempt[] = [];
  const targets = decision.targets.slice(0, attemptsOf(route));
  /** The last soft decline: the answer when no later target took the charge and none may have. */
  let declined: S | undefined;
  for (const [index, target] of targets.entries()) {
    const provider = (await call.providerOf(target.providerAccountId)) ?? '';
    const routing: RoutingRecord = {
      routeId: route.id,
      routeName: route.name,
      ruleIndex: decision.ruleIndex,
      strategy: decision.strategy,
      attempts: [...tried, { providerAccountId: target.providerAccountId, provider, outcome: 'charged', reason: target.reason }],
    };
    const last = index === targets.length - 1;
    let transaction: S;
    try {
      transaction = await call.charge(target, call.callerKey && attemptKey(call.callerKey, index + 1), routing);
    } catch (error) {
      if (!providerDidNotAct(error) || last) {
        // After a soft decline, a later target that certainly charged nothing (refused the request, or was not
        // reached) leaves the decline as the answer; one whose outcome is unknown is answered as such, never hidden.
        if (declined && outcomeOf(error) === 'failed') return declined;
        throw error;
      }
      const failure = (error as Error).message;
      deps.logger.warn(
        { route: route.name, providerAccountId: target.providerAccountId, attempt: index + 1, failure },
        `routed ${call.operation}: provider did not act, next target`,
      );
      tried.push({ providerAccountId: target.providerAccountId, provider, outcome: 'not_sent', reason: `${target.reason}; not sent: ${failure}` });
      continue;
    }
    if (last || !call.declined?.(transaction)) return transaction;
    const declineReason = (transaction as { declineReason?: string }).declineReason;
    deps.logger.warn(
      { route: route.name, providerAccountId: target.providerAccountId, attempt: index + 1, declineReason },
      'routed charge: card soft decline, next target',
    );
    declined = transaction;
    tried.push({
      providerAccountId: target.providerAccountId,
      provider,
      outcome: 'soft_declined',
      reason: `${target.reason}; declined: ${declineReason}`,
    });
  }
  // Only a rule without targets gets here, which saving a route refuses.
  throw new GatewayError('FAILED_PRECONDITION', `route ${route.name} has no target for this ${call.operation}`, { field: 'route', reason: 'ROUTE_NO_TARGET' });
}

/**
 * Before trying targets again under a key a request already used: an attempt that took the charge, or may have,
 * answers instead (the first request stopped before the route's key recorded it). Undefined: nothing was charged.
 */
async function earlierAttempt<S extends { id: string }>(deps: Deps, call: RoutedCall<S>, callerKey: string): Promise<S | undefined> {
  const accounts = [...new Set(call.route.rules.flatMap((rule) => rule.targets.map((target) => target.providerAccountId)))];
  const keys = Array.from({ length: attemptsOf(call.route) }, (_, index) => attemptKey(callerKey, index + 1));
  const live = await deps.idempotency.liveAmong(deps.db.em(), call.operation, accounts, keys);
  // The latest attempt that took the charge: an earlier one may be a soft decline that a later attempt went past.
  const done = live.filter((key) => key.state === 'COMPLETED' && key.subjectId).sort((a, b) => keys.indexOf(b.key) - keys.indexOf(a.key))[0];
  if (done) return call.replay(done.subjectId!);
  if (live.length) throw stillBeingConfirmed(call.operation, callerKey);
  return undefined;
}

/** Runs a routed charge at most once per caller key (without one, each request is a new charge, as without a route). */
export const runRoutedCharge = (deps: Deps, call: RoutedChargeCall): Promise<Transaction> =>
  runRouted(deps, { ...call, operation: 'createTransaction', declined: (transaction) => softDeclined(call.route, transaction) });

/** Runs a routed charge or payout at most once per caller key (without one, each request is a new one, as without a route). */
export async function runRouted<S extends { id: string }>(deps: Deps, call: RoutedCall<S>): Promise<S> {
  const key = call.callerKey;
  const operation = call.operation;
  if (!key) return tryTargets(deps, call);
  const claimRequest = { providerAccountId: call.route.id, operation, key, requestHash: requestHash(call.request) };
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const claim = await deps.idempotency.claim(deps.db.em(), claimRequest);
    if (claim.kind === 'completed') return call.replay(claim.subjectId);
    if (claim.kind === 'mismatch')
      throw new GatewayError('ALREADY_EXISTS', `idempotency_key ${key} was already used with a different ${operation} request on this route`, {
        reason: 'IDEMPOTENCY_KEY_REUSED',
        field: 'idempotency_key',
      });
    if (claim.kind === 'unknown') throw stillBeingConfirmed(operation, key, claim.nextCheckAt);
    if (claim.kind === 'owner') return ownRoutedCharge(deps, call, key, claim.id, claim.fresh);
    if (Date.now() > deadline)
      throw new GatewayError('UNAVAILABLE', `a ${operation} request with idempotency_key ${key} is still being processed; retry later`, {
        reason: 'IDEMPOTENCY_KEY_IN_PROGRESS',
      });
    await sleep(WAIT_STEP_MS);
  }
}

/**
 * The route's key holds the charge once an attempt took it. Any other end frees it (FAILED): the attempts' own keys
 * keep what matters, so a retry finds an attempt whose outcome is unknown (and waits for it) or one that was recorded.
 */
async function ownRoutedCharge<S extends { id: string }>(deps: Deps, call: RoutedCall<S>, key: string, claimId: string, fresh: boolean): Promise<S> {
  let transaction: S;
  try {
    transaction = (!fresh && (await earlierAttempt(deps, call, key))) || (await tryTargets(deps, call));
  } catch (error) {
    await deps.idempotency.fail(deps.db.em(), claimId, error instanceof Error ? error.message : String(error));
    throw error;
  }
  await deps.idempotency.complete(deps.db.em(), claimId, transaction.id, null);
  return transaction;
}
