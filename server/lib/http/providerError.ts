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
  // A markup page (a proxy's, a web server's, whatever answered at that address) is not the provider's message: the status says enough.
  if (typeof data === 'string') return /^\s*</.test(data) ? undefined : data.trim() || undefined;
  if (!data || typeof data !== 'object') return undefined;
  const record = data as Record<string, any>;
  // A list of errors: the first one's `message`, or its `description` (Asaas's `{errors: [{code, description}]}`), or the item itself as text.
  const firstOfList = Array.isArray(record.errors) ? (record.errors[0]?.message ?? record.errors[0]?.description ?? record.errors[0]) : undefined;
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

/** What each network failure is called: never the address or port that failed (an error text must not map what answers inside a network). */
const NETWORK_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  ECONNABORTED: 'connection aborted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
};

/**
 * Text for a failure that has no provider body: axios's own words where they
 * name no address (a timeout, "socket hang up", "Request failed with status
 * code 502"), else the failure's name (connection refused, host not found),
 * never the address or port behind it.
 */
function transportMessage(error: Error & { code?: string }): string {
  const inner = (error as { errors?: Array<{ message?: string; code?: string }> }).errors?.[0];
  const code = error.code ?? inner?.code;
  const text = error.message || inner?.message || '';
  const namesAnAddress = /\d{1,3}(\.\d{1,3}){3}|\[?[0-9a-f]*:[0-9a-f:]+\]?:\d+|:\d{2,5}\b/i.test(text);
  if (text && !namesAnAddress && !(code && Object.hasOwn(NETWORK_FAILURES, code) && /^(connect|getaddrinfo|read|write) /.test(text))) return text;
  if (code && Object.hasOwn(NETWORK_FAILURES, code)) return NETWORK_FAILURES[code]!;
  // Node's and OpenSSL's error codes name the failure, never an address.
  return code && /^[A-Z0-9_]+$/.test(code) ? `network error (${code})` : 'network error';
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
  if (error instanceof ProviderCallError)
    return new GatewayError(error.code, `${prefix}: ${redactText(error.message)}`, { reason: error.reason, outcome: error.outcome });
  if (axios.isAxiosError(error)) {
    const status = error.response?.status;
    const message = providerMessage(error.response?.data) ?? transportMessage(error);
    const text = `${prefix}: ${message}`;
    // A 5xx or a lost connection after sending may hide a charge that went through; a 4xx (408 and 429 included) is a refusal.
    if (status === undefined)
      return new GatewayError('UNAVAILABLE', text, { reason: 'PROVIDER_UNAVAILABLE', outcome: requestWasNotSent(error) ? 'failed' : 'unknown' });
    if (status >= 500) return new GatewayError('UNAVAILABLE', text, { reason: 'PROVIDER_UNAVAILABLE', outcome: 'unknown' });
    if (status === 429 || status === 408) return new GatewayError('UNAVAILABLE', text, { reason: 'PROVIDER_UNAVAILABLE', outcome: 'failed' });
    // Redirects are not followed (providerHttp.ts): the request went no further, and the account's base URL is what to check.
    if (status >= 300 && status < 400)
      return new GatewayError(
        'FAILED_PRECONDITION',
        `${prefix}: the provider answered a redirect (HTTP ${status}), which the gateway does not follow; check the account's base URL`,
        {
          reason: 'PROVIDER_REDIRECTED',
          outcome: 'failed',
        },
      );
    if (status === 404) return new GatewayError('NOT_FOUND', text, { reason: 'PROVIDER_NOT_FOUND', outcome: 'failed' });
    if (status === 401 || status === 403) return new GatewayError('FAILED_PRECONDITION', text, { reason: 'PROVIDER_REJECTED_CREDENTIALS', outcome: 'failed' });
    if (status === 409) return new GatewayError('FAILED_PRECONDITION', text, { reason: 'PROVIDER_CONFLICT', outcome: 'failed' });
    return new GatewayError('INVALID_ARGUMENT', text, { reason: 'PROVIDER_REJECTED_REQUEST', outcome: 'failed' });
  }
  return new GatewayError('INTERNAL', `${prefix}: ${redactText(error instanceof Error ? error.message : String(error))}`, { outcome: 'unknown' });
}
