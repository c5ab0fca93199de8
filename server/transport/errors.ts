import { isGatewayError, type ErrorCode, type GatewayError } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';

/**
 * What a caller may see of a failure: a GatewayError as it is; anything else is
 * our own bug, reported as INTERNAL without its internals (they go to the log).
 */
export function exposedError(error: unknown, logger: Logger, method: string): { code: ErrorCode; message: string; details: GatewayError['details'] } {
  if (isGatewayError(error)) {
    if (error.code === 'INTERNAL' || error.code === 'UNAVAILABLE') logger.warn({ err: error, method }, 'rpc failed');
    return { code: error.code, message: error.message, details: error.details };
  }
  logger.error({ err: error, method }, 'rpc failed with an unexpected error');
  return { code: 'INTERNAL', message: 'internal error', details: {} };
}
