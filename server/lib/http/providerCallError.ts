import type { ErrorCode, ProviderOutcome } from '../errors.js';

/**
 * A failure found by the HTTP layer itself (open circuit, unusable token
 * answer, unreachable client certificate). It becomes a GatewayError only in
 * providerError, which knows the operation's prefix ('Erro ao criar transação: …').
 */
export class ProviderCallError extends Error {
  readonly code: ErrorCode;
  readonly reason: string;
  /**
   * Whether the provider may have acted: by default 'unknown' for an answer that
   * could not be read (PROVIDER_BAD_RESPONSE: the request did reach it), else
   * 'failed' (found before anything was sent: open circuit, certificate, token).
   */
  readonly outcome: ProviderOutcome;

  constructor(code: ErrorCode, reason: string, message: string, outcome: ProviderOutcome = reason === 'PROVIDER_BAD_RESPONSE' ? 'unknown' : 'failed') {
    super(message);
    this.name = 'ProviderCallError';
    this.code = code;
    this.reason = reason;
    this.outcome = outcome;
  }
}
