import axios from 'axios';
import { GatewayError } from '../errors.js';
import { ProviderCallError } from './providerCallError.js';
import { redactText } from './redact.js';
import { requestWasNotSent } from './resilience.js';

const MAX_MESSAGE_LENGTH = 500;

/** The provider's own message from an error body, whatever its dialect, without any card data or credentials it echoed. */
export function providerMessage(data: unknown): string | undefined {
  // Redacted before it is cut short, so a card number split at the cut cannot slip through.
  const message = rawProviderMessage(data);
  return message && redactText(message).slice(0, MAX_MESSAGE_LENGTH);
}

function rawProviderMessage(data: unknown): string | undefined {
  if (typeof data === 'string') return data.trim() || undefined;
  if (!data || typeof data !== 'object') return undefined;
  const record = data as Record<string, any>;
  const firstOfList = Array.isArray(record.errors) ? (record.errors[0]?.message ?? record.errors[0]) : undefined;
  const candidate =
    record.error?.message ??
    record.message ??
    record.mensagem ??
    record.error_description ??
    record.error ??
    record.detail ??
    record.title ??
    record.msg ??
    firstOfList;
  return typeof candidate === 'string' && candidate ? candidate : undefined;
}

/** Text for a failure that has no provider body: timeouts, refused connections. */
function transportMessage(error: Error & { code?: string }): string {
  if (error.message) return error.message;
  // Node reports a refused dual-stack connection as an AggregateError with an empty message.
  const inner = (error as { errors?: Array<{ message?: string }> }).errors?.[0]?.message;
  return inner || error.code || 'network error';
}

/**
 * Turns a failed provider call into a GatewayError carrying the specification's
 * prefix ('Erro ao criar transação: …'). Outages (5xx, timeouts, refused
 * connections, an open circuit) become UNAVAILABLE: never a PENDING charge.
 * A 4xx keeps the provider's own message. GatewayErrors pass through unchanged,
 * so exact spec texts such as 'Unauthorized.' survive.
 */
export function providerError(prefix: string, error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof ProviderCallError) return new GatewayError(error.code, `${prefix}: ${error.message}`, { reason: error.reason, outcome: error.outcome });
  if (axios.isAxiosError(error)) {
    const status = error.response?.status;
    const message = providerMessage(error.response?.data) ?? transportMessage(error);
    const text = `${prefix}: ${message}`;
    // A 5xx or a lost connection after sending may hide a charge that went through; a 4xx (408 and 429 included) is a refusal.
    if (status === undefined)
      return new GatewayError('UNAVAILABLE', text, { reason: 'PROVIDER_UNAVAILABLE', outcome: requestWasNotSent(error) ? 'failed' : 'unknown' });
    if (status >= 500) return new GatewayError('UNAVAILABLE', text, { reason: 'PROVIDER_UNAVAILABLE', outcome: 'unknown' });
    if (status === 429 || status === 408) return new GatewayError('UNAVAILABLE', text, { reason: 'PROVIDER_UNAVAILABLE', outcome: 'failed' });
    if (status === 404) return new GatewayError('NOT_FOUND', text, { reason: 'PROVIDER_NOT_FOUND', outcome: 'failed' });
    if (status === 401 || status === 403) return new GatewayError('FAILED_PRECONDITION', text, { reason: 'PROVIDER_REJECTED_CREDENTIALS', outcome: 'failed' });
    if (status === 409) return new GatewayError('FAILED_PRECONDITION', text, { reason: 'PROVIDER_CONFLICT', outcome: 'failed' });
    return new GatewayError('INVALID_ARGUMENT', text, { reason: 'PROVIDER_REJECTED_REQUEST', outcome: 'failed' });
  }
  return new GatewayError('INTERNAL', `${prefix}: ${redactText(error instanceof Error ? error.message : String(error))}`, { outcome: 'unknown' });
}
