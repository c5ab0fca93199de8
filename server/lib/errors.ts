/**
 * One error type for the whole gateway: a code that the transports map to a
 * gRPC status, and the exact message text the specification gives.
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'FAILED_PRECONDITION'
  | 'UNIMPLEMENTED'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'RESOURCE_EXHAUSTED'
  | 'UNAVAILABLE'
  /** The caller cancelled, or its deadline passed, before the work began: none of it was done. */
  | 'CANCELLED'
  | 'INTERNAL';

export interface ErrorDetails {
  /** Machine-readable reason, e.g. PROVIDER_UNAVAILABLE. */
  reason?: string;
  /** The request field at fault, for bad input. */
  field?: string;
  /**
   * For bad input: the rule broken (REQUIRED, POSITIVE_CENTS, TOO_LONG, …: FieldRule), sent as the field
   * violation's reason so a client can say it in its own language instead of the gateway's English.
   */
  fieldRule?: FieldRule;
  /** For an unexpected INTERNAL error: the id of the log line holding what happened. */
  errorId?: string;
  /**
   * For a failed provider call: 'failed' when the provider certainly did not act
   * (it refused, or nothing was sent), 'unknown' when it may have (a timeout, a
   * 5xx, a connection lost after sending, an answer that cannot be read).
   */
  outcome?: ProviderOutcome;
  /** For PERMISSION_DENIED: the permission the call needs. */
  permission?: string;
  /** For RESOURCE_EXHAUSTED: how long to wait before calling again. */
  retryAfterMs?: number;
  /**
   * Plain values a client's own text for the reason quotes (ErrorInfo metadata), e.g. the cents still refundable:
   * the back-office shows its catalogue's words, not the message, so a number in the message would otherwise be lost.
   * Never a secret or card data.
   */
  values?: Readonly<Record<string, string>>;
}

export type ProviderOutcome = 'failed' | 'unknown';

export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    this.details = details;
  }
}

/**
 * A GatewayError made without a stack, for the overload refusals (transport/loopPressure.ts, inFlightLimit.ts): under
 * overload they are made by the thousand a second, answered and never logged, so their stack is never read, and
 * capturing it was a tenth of a refused call's own CPU (docs/decisions.md, *Refusals made cheap*).
 */
export function stacklessError(code: ErrorCode, message: string, details?: ErrorDetails): GatewayError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new GatewayError(code, message, details);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The rule a bad input broke, as field violations name it (issue 33 §8): the shared validation helpers' rules
 * (server/gateway/validation.ts), and INVALID_VALUE, the nearest general rule of a one-off check. Every
 * INVALID_ARGUMENT names one, so that a client can say it in its own language (web/src/errorReasons.ts).
 */
export type FieldRule =
  | 'REQUIRED'
  | 'POSITIVE_CENTS'
  | 'TOO_LONG'
  | 'INVALID_ID'
  | 'INVALID_EMAIL'
  | 'INVALID_PIX_KEY'
  | 'UNKNOWN_VALUE'
  | 'INVALID_DOCUMENT'
  | 'RANGE_REVERSED'
  | 'INVALID_URL'
  | 'OUT_OF_RANGE'
  | 'INVALID_PAGE_TOKEN'
  | 'LENGTH_OUT_OF_RANGE'
  | 'NOT_ALLOWED'
  | 'WEIGHTS_NOT_100'
  | 'WRONG_PASSWORD'
  | 'SAME_PASSWORD'
  | 'PASSWORD_IS_EMAIL'
  | 'AMOUNT_ABOVE_CHARGE'
  | 'DEADLINE_BEFORE_CHARGE'
  | 'CERTIFICATE_KEY_MISMATCH'
  | 'TOO_MANY_ITEMS'
  | 'INVALID_VALUE';

/**
 * Bad input: the field, the English message, the rule broken (see FieldRule) and the values its client text quotes
 * (e.g. maxLength, min and max).
 */
export const invalidArgument = (field: string, message: string, rule: FieldRule, values?: Readonly<Record<string, string>>): GatewayError =>
  new GatewayError('INVALID_ARGUMENT', message, { field, reason: 'INVALID_ARGUMENT', fieldRule: rule, ...(values ? { values } : {}) });

export const permissionDenied = (permission: string, message = `permission denied: this call needs ${permission}`): GatewayError =>
  new GatewayError('PERMISSION_DENIED', message, { reason: 'PERMISSION_DENIED', permission });

export const notFound = (message: string): GatewayError => new GatewayError('NOT_FOUND', message, { reason: 'NOT_FOUND' });

/** The specification's text for an operation an adapter does not support. */
export const NOT_IMPLEMENTED_MESSAGE = 'Method not implemented.';

export const notImplemented = (message: string = NOT_IMPLEMENTED_MESSAGE): GatewayError =>
  new GatewayError('UNIMPLEMENTED', message, { reason: 'NOT_IMPLEMENTED' });

export const isGatewayError = (error: unknown): error is GatewayError => error instanceof GatewayError;

/**
 * Whether a failed call may have moved money at the provider. Errors that say
 * so carry it; otherwise an UNAVAILABLE or INTERNAL failure (or anything that is
 * not a GatewayError: a bug after the provider answered) counts as unknown, and
 * every other code is the gateway's or the provider's definite refusal.
 */
export function outcomeOf(error: unknown): ProviderOutcome {
  if (!(error instanceof GatewayError)) return 'unknown';
  if (error.details.outcome) return error.details.outcome;
  return error.code === 'UNAVAILABLE' || error.code === 'INTERNAL' ? 'unknown' : 'failed';
}

/**
 * A database failure that says nothing about the request: the server could not be reached, is shutting down or
 * starting, or no pooled connection came free in time (DB_ACQUIRE_TIMEOUT_MS). Read from the error chain's codes
 * and messages (pg's and the ORM's), so that callers get UNAVAILABLE (retry) rather than INTERNAL.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current: any = error; current && !seen.has(current); current = current.cause ?? current.previous) {
    seen.add(current);
    if (current.name === 'ConnectionException') return true;
    const code = String(current.code ?? '');
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) return true;
    // 57P01-57P03: the server is shutting down or starting; class 08: connection exceptions; 25006: a write reached
    // a server that is a standby now (a primary demoted by a switchover, until the pooler or balancer follows the new one).
    if (/^57P0[123]$/.test(code) || code.startsWith('08') || code === '25006') return true;
    if (
      /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
        String(current.message ?? ''),
      )
    )
      return true;
  }
  return false;
}
