import { AsyncLocalStorage } from 'node:async_hooks';
import { GatewayError } from './errors.js';

/**
 * The signal of the RPC being answered (aborted when its caller cancels or
 * its deadline passes), carried through every await of the call without
 * threading it through each layer. The provider HTTP toolkit stops reads with
 * it; writes are left to finish, so that what the provider did is recorded,
 * but a write not begun yet is not begun for a caller who has gone.
 */
const scope = new AsyncLocalStorage<AbortSignal>();

export const withCallSignal = <T>(signal: AbortSignal, run: () => T): T => scope.run(signal, run);

export const callSignal = (): AbortSignal | undefined => scope.getStore();

/**
 * Before work that only the caller wanted (a provider write, the statements after it): CANCELLED when the caller has
 * gone. Under overload, calls wait for a database connection; those whose callers gave up meanwhile then stop here
 * instead of spending the provider call and the writes on an answer nobody reads.
 */
export function throwIfCallerGone(before: string): void {
  if (scope.getStore()?.aborted)
    throw new GatewayError('CANCELLED', `the caller cancelled, or its deadline passed, before ${before}: nothing was sent`, { reason: 'CALLER_GONE' });
}

/**
 * The signal of a read-only call whose database work is running (see cancellableRead); none in writes, workers and
 * anything outside a call.
 */
const reading = new AsyncLocalStorage<AbortSignal>();

export const readSignal = (): AbortSignal | undefined => reading.getStore();

/**
 * Runs the database work of a call that only reads, so that it stops with its caller: a statement not begun yet is
 * not begun, and one running is cancelled (server/db/statementCancellation.ts). Only for work with no write in it:
 * a write after a provider call must always finish, whoever is still waiting for the answer.
 */
export async function cancellableRead<T>(run: () => Promise<T>): Promise<T> {
  const signal = callSignal();
  if (!signal) return run();
  if (signal.aborted) throw readCancelled();
  try {
    return await reading.run(signal, run);
  } catch (error) {
    if (signal.aborted) throw readCancelled();
    throw error;
  }
}

export const readCancelled = (): GatewayError =>
  new GatewayError('CANCELLED', 'the caller cancelled, or its deadline passed: its reads were stopped', { reason: 'CALLER_GONE' });
