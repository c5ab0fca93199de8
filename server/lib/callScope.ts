import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The signal of the RPC being answered (aborted when its caller cancels or
 * its deadline passes), carried through every await of the call without
 * threading it through each layer. The provider HTTP toolkit stops reads with
 * it; writes are left to finish, so that what the provider did is recorded.
 */
const scope = new AsyncLocalStorage<AbortSignal>();

export const withCallSignal = <T>(signal: AbortSignal, run: () => T): T => scope.run(signal, run);

export const callSignal = (): AbortSignal | undefined => scope.getStore();
