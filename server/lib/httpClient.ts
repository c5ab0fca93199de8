import axios, { AxiosError, type AxiosInstance } from 'axios';
import { GatewayError } from './errors.js';

export interface HttpClientOptions {
  baseUrl: string;
  /** Milliseconds; providers' own values override the default. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 25_000;

/** An axios instance for one provider account. */
export function createHttpClient({ baseUrl, timeoutMs = DEFAULT_PROVIDER_TIMEOUT_MS, headers = {} }: HttpClientOptions): AxiosInstance {
  return axios.create({ baseURL: baseUrl, timeout: timeoutMs, headers: { 'content-type': 'application/json', ...headers } });
}

/** The provider's own message from an error body, whatever its dialect. */
function providerMessage(data: unknown): string | undefined {
  if (typeof data === 'string') return data || undefined;
  if (!data || typeof data !== 'object') return undefined;
  const record = data as Record<string, any>;
  const candidate = record.error?.message ?? record.message ?? record.error ?? record.detail ?? record.title;
  return typeof candidate === 'string' ? candidate : undefined;
}

/**
 * Turns a failed provider call into a GatewayError carrying the specification's
 * prefix ('Erro ao criar transação: …'). Outages (5xx, timeouts, refused
 * connections) become UNAVAILABLE: never a PENDING charge.
 */
export function providerError(prefix: string, error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof AxiosError) {
    const status = error.response?.status;
    const message = providerMessage(error.response?.data) ?? error.message;
    const text = `${prefix}: ${message}`;
    if (status === undefined || status >= 500 || status === 429) return new GatewayError('UNAVAILABLE', text, { reason: 'PROVIDER_UNAVAILABLE' });
    if (status === 404) return new GatewayError('NOT_FOUND', text, { reason: 'PROVIDER_NOT_FOUND' });
    if (status === 401 || status === 403) return new GatewayError('FAILED_PRECONDITION', text, { reason: 'PROVIDER_REJECTED_CREDENTIALS' });
    if (status === 409) return new GatewayError('FAILED_PRECONDITION', text, { reason: 'PROVIDER_CONFLICT' });
    return new GatewayError('INVALID_ARGUMENT', text, { reason: 'PROVIDER_REJECTED_REQUEST' });
  }
  return new GatewayError('INTERNAL', `${prefix}: ${error instanceof Error ? error.message : String(error)}`);
}
