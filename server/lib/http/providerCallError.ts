import type { ErrorCode, ProviderOutcome } from '../errors.js';

/**
 * A failure found by the HTTP layer itself (open circuit, unusable token
 * answer, unreachable client certificate). It becomes a GatewayError only in
 * providerError, which knows the operation's prefix ('Erro ao criar transação: …').
 */
export class ProviderCallError extends Error {
  readonly code: ErrorCode;
  readonly reason: string;
  /** Found before anything reached the provider, unless said otherwise. */
  readonly outcome: ProviderOutcome;

  constructor(code: ErrorCode, reason: string, message: string, outcome: ProviderOutcome = 'failed') {
    super(message);
    this.name = 'ProviderCallError';
    this.code = code;
    this.reason = reason;
    this.outcome = outcome;
  }
}
