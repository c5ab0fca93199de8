import { GatewayError } from '../lib/errors.js';

/** The answer to a sign-in (or a check standing for one) while the e-mail is locked out. */
export function lockedOut(remainingMs: number): GatewayError {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
  return new GatewayError('RESOURCE_EXHAUSTED', `too many failed sign-ins: try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, {
    reason: 'LOCKED_OUT',
    retryAfterMs: remainingMs,
  });
}
