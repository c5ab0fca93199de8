import { randomUUID } from 'node:crypto';
import { isDatabaseUnreachable, isGatewayError, type ErrorCode, type GatewayError } from '../lib/errors.js';
import { redactText } from '../lib/http/redact.js';

/** google.rpc.ErrorInfo's domain for the gateway's own reasons. */
export const ERROR_DOMAIN = 'gateway.v1';

/**
 * The structured details both transports attach (DESIGN §5): always an
 * ErrorInfo with the machine-readable reason; for bad input also a BadRequest
 * naming the field at fault; when the caller should wait (rate limits) a
 * RetryInfo delay (google.protobuf.Duration's fields) and a Retry-After value
 * in whole seconds, rounded up.
 */
export function errorDetails(code: ErrorCode, message: string, details: GatewayError['details']) {
  return {
    errorInfo: {
      reason: details.reason ?? code,
      domain: ERROR_DOMAIN,
      metadata: {
        ...details.values,
        ...(details.field ? { field: details.field } : {}),
        ...(details.errorId ? { errorId: details.errorId } : {}),
        ...(details.permission ? { permission: details.permission } : {}),
        ...(details.retryAfterMs !== undefined ? { retryAfterMs: String(details.retryAfterMs) } : {}),
      },
    },
    badRequest:
      code === 'INVALID_ARGUMENT' && details.field
        ? { fieldViolations: [{ field: details.field, description: message, reason: details.fieldRule ?? '' }] }
        : undefined,
    retry:
      details.retryAfterMs !== undefined
        ? {
            delay: { seconds: Math.floor(details.retryAfterMs / 1000), nanos: (details.retryAfterMs % 1000) * 1_000_000 },
            retryAfterHeader: String(Math.max(1, Math.ceil(details.retryAfterMs / 1000))),
          }
        : undefined,
  };
}
import type { Logger } from '../lib/logger.js';

/**
 * What a caller may see of a failure: a GatewayError as it is (its message is
 * a text we wrote); anything else is our own bug, reported as INTERNAL with a
 * generic message and an error id, never the JavaScript error's text (which
 * may quote a query, a provider's answer or a stack). The id is in the log
 * line that holds the details.
 */
export function exposedError(error: unknown, logger: Logger, method: string): { code: ErrorCode; message: string; details: GatewayError['details'] } {
  if (isGatewayError(error)) {
    if (error.code === 'INTERNAL' || error.code === 'UNAVAILABLE') logger.warn({ err: error, method }, 'rpc failed');
    // A provider's refusal text is quoted in the message; whatever path it took there, the caller never gets card data back.
    return { code: error.code, message: redactText(error.message), details: error.details };
  }
  const errorId = randomUUID();
  if (isDatabaseUnreachable(error)) {
    logger.warn({ err: error, method, errorId }, 'rpc failed: the database is unreachable or busy');
    return {
      code: 'UNAVAILABLE',
      message: `the database is unreachable or busy; retry later (error id ${errorId})`,
      details: { reason: 'DATABASE_UNAVAILABLE', errorId },
    };
  }
  logger.error({ err: error, method, errorId }, 'rpc failed with an unexpected error');
  return { code: 'INTERNAL', message: `internal error (error id ${errorId})`, details: { reason: 'INTERNAL', errorId } };
}
