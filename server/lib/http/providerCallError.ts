import type { ErrorCode } from '../errors.js';

/**
 * A failure found by the HTTP layer itself (open circuit, unusable token
 * answer, unreachable client certificate). It becomes a GatewayError only in
 * providerError, which knows the operation's prefix ('Erro ao criar transação: …').
 */
export class ProviderCallError extends Error {
  readonly code: ErrorCode;
  readonly reason: string;

  constructor(code: ErrorCode, reason: string, message: string) {
    super(message);
    this.name = 'ProviderCallError';
    this.code = code;
    this.reason = reason;
  }
}
