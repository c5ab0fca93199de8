import axios, { type AxiosResponse } from 'axios';
import { failed, inSpan, SpanKind, traced, type Attributes, type Span } from '../tracing.js';

/**
 * A path segment kept as it is: a word of the API (`transactions`,
 * `request_withdraw`, `galaxPayId`, `refund-in`, `oauth2`, `v2`): lower-case
 * words joined by - or _ or in camelCase, each with a vowel. Anything else (an
 * id, a document number, a PIX key, an e-mail, a phone, a token) becomes `{}`,
 * so that a span carries no personal data or credentials a path may hold, and
 * few ids: a random id passes for a word about once in 20,000.
 */
const WORD = /^[a-z]{2,}(?:[A-Z][a-z]+|[-_][a-z]{2,})*\d?$/;
const VERSION = /^v\d{1,3}$/;
const VOWEL = /[aeiouy]/i;

const isWord = (segment: string): boolean =>
  VERSION.test(segment) ||
  (segment.length <= 40 &&
    WORD.test(segment) &&
    segment
      .replace(/\d$/, '')
      .split(/[-_]|(?=[A-Z])/)
      .every((part) => VOWEL.test(part)));

/** The path with its variable parts blanked (`/transactions/{}/refund`); the query is never read. */
export function pathTemplate(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (segment === '' || isWord(segment) ? segment : '{}'))
    .join('/');
}

function requestAttributes(method: string, url: string): Attributes {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return {
      'http.request.method': method,
      'server.address': parsed.hostname,
      'server.port': port,
      'url.scheme': parsed.protocol.replace(/:$/, ''),
      'url.template': pathTemplate(parsed.pathname),
    };
  } catch {
    return { 'http.request.method': method };
  }
}

/** Why an exchange got no answer, in OpenTelemetry's error.type words: the network error's code (ECONNREFUSED, ECONNABORTED, …). */
function errorType(error: unknown): string {
  if (axios.isAxiosError(error)) return error.code ?? 'network';
  return error instanceof Error ? error.name : 'error';
}

function answered(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 400) {
    span.setAttribute('error.type', String(status));
    failed(span, String(status));
  }
}

/**
 * One HTTP exchange with a provider, in a CLIENT span under the provider call
 * under way (an operation may make several: a token request, a read's
 * retries, a resend after a refreshed token). Outside a traced call it is
 * sent as it is. `url` is only read when traced.
 */
export function exchangeSpan(provider: string | undefined, method: string, url: () => string, send: () => Promise<AxiosResponse>): Promise<AxiosResponse> {
  if (!traced()) return send();
  const attributes: Attributes = { ...requestAttributes(method, url()), ...(provider ? { 'gateway.provider': provider } : {}) };
  const template = attributes['url.template'];
  const name = template ? `${method} ${String(template)}` : method;
  return inSpan(
    undefined,
    name,
    () => ({ kind: SpanKind.CLIENT, attributes }),
    async (span) => {
      try {
        const response = await send();
        answered(span, response.status);
        return response;
      } catch (error) {
        const status = axios.isAxiosError(error) ? error.response?.status : undefined;
        if (status !== undefined) answered(span, status);
        else {
          const type = errorType(error);
          span.setAttribute('error.type', type);
          failed(span, type);
        }
        throw error;
      }
    },
  );
}
