import axios, { type AxiosRequestConfig, type AxiosResponse } from 'axios';
import type { Agent } from 'node:https';
import { callSignal } from '../callScope.js';
import { GatewayError } from '../errors.js';
import { logger as defaultLogger, type Logger } from '../logger.js';
import { resolveKey, type HttpAccount, type KeyRef } from './account.js';
import { credentialHeaderNames, staticAuthHeaders, type AuthStyle } from './auth.js';
import { recordCertificateExpiry } from './certificateExpiry.js';
import { displayUrl, loadClientCertificate } from './clientCertificate.js';
import { directTarget, fullUrl, sendDirectly, type DefaultHeaders } from './directExchange.js';
import { exchangeSpan } from './exchangeSpan.js';
import { OAuth2Tokens } from './oauth2.js';
import { ProviderCallError } from './providerCallError.js';
import { providerError } from './providerError.js';
import { logExchanges } from './requestLog.js';
import { circuitFor, readRetryPolicy, throughCircuit, type BreakerOptions, type RetryOptions } from './resilience.js';
import { httpAgent, httpsAgentFor } from './tlsAgent.js';

export const DEFAULT_PROVIDER_TIMEOUT_MS = 25_000;

/** Longer URLs are refused before sending: servers answer them with 414 or a reset, and they only come from oversized input. */
export const MAX_PROVIDER_URL_LENGTH = 8192;

/** Which of the platform's certificate URLs the client presents. */
export type CertificateUse = 'cashIn' | 'cashOut';

export interface MtlsOptions {
  certificate: CertificateUse;
  /** For an encrypted key or PKCS#12 bundle. */
  passphrase?: KeyRef;
}

/** What an adapter declares once, as data: everything but the account. */
export interface ProviderHttpDeclaration {
  /** Provider id, for logs. */
  provider?: string;
  /** A host other than the account's (e.g. a provider's separate cash-out host). Default ctx.baseUrl. */
  baseUrl?: string;
  /** Default 25 s. */
  timeoutMs?: number;
  /** Default none. */
  auth?: AuthStyle;
  /** Present the platform's client certificate (fetched from ctx.certCashInUrl / certCashOutUrl). */
  mtls?: CertificateUse | MtlsOptions;
  /** CAs to trust beyond the system's (PEM), e.g. a provider's private CA or a test fake's. */
  ca?: string | readonly string[];
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Backoff for GET retries, or false for none. Other methods are never retried. */
  retry?: RetryOptions | false;
  breaker?: BreakerOptions;
  logger?: Logger;
  /** Clock for token expiry (tests). */
  now?: () => number;
}

export interface ProviderHttpOptions extends ProviderHttpDeclaration {
  /** The account: keys, base URL, certificate URLs. An AdapterContext fits. */
  ctx: HttpAccount;
}

export interface ProviderRequestOptions {
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  /**
   * The specification's prefix for this operation ('Erro ao criar transação').
   * With it every failure arrives as a GatewayError 'prefix: message'; without
   * it the raw failure is thrown for the adapter's own providerError(prefix, error).
   */
  errorPrefix?: string;
  timeoutMs?: number;
}

export interface ProviderResponse<T> {
  status: number;
  data: T;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

export interface ProviderHttp {
  get<T = unknown>(path: string, options?: ProviderRequestOptions): Promise<ProviderResponse<T>>;
  post<T = unknown>(path: string, body?: unknown, options?: ProviderRequestOptions): Promise<ProviderResponse<T>>;
  put<T = unknown>(path: string, body?: unknown, options?: ProviderRequestOptions): Promise<ProviderResponse<T>>;
  patch<T = unknown>(path: string, body?: unknown, options?: ProviderRequestOptions): Promise<ProviderResponse<T>>;
  delete<T = unknown>(path: string, options?: ProviderRequestOptions & { body?: unknown }): Promise<ProviderResponse<T>>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function originOf(baseUrl: string, accountId: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    throw new GatewayError('FAILED_PRECONDITION', `invalid base URL for provider account ${accountId}: '${baseUrl}'`, { reason: 'INVALID_BASE_URL' });
  }
}

const flatHeaders = (headers: AxiosResponse['headers']): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers ?? {})
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]),
  );

const withBearer = (config: AxiosRequestConfig, token: string): AxiosRequestConfig => ({
  ...config,
  headers: { ...config.headers, authorization: `Bearer ${token}` },
});

/**
 * The HTTP client of one provider account: base URL, timeout, authentication,
 * mTLS, retries for reads, a circuit per account and host, redacted debug logs
 * and the specification's error mapping. Cheap to build: adapters may build
 * one per call; tokens, certificates, agents and circuits are shared.
 */
export function createProviderHttp(options: ProviderHttpOptions): ProviderHttp {
  const { ctx, provider, auth = { type: 'none' }, timeoutMs = DEFAULT_PROVIDER_TIMEOUT_MS, logger = defaultLogger, now } = options;
  const baseUrl = options.baseUrl ?? ctx.baseUrl;
  const origin = originOf(baseUrl, ctx.accountId);
  const mtls: MtlsOptions | undefined = typeof options.mtls === 'string' ? { certificate: options.mtls } : options.mtls;
  const ca = options.ca === undefined ? [] : typeof options.ca === 'string' ? [options.ca] : [...options.ca];

  // Redirects are not followed (maxRedirects 0): a provider's API answers, it does not send a charge's body to another
  // host (307/308 would resend it there; 301/302 would turn a POST into a GET). A 3xx fails the call like any non-2xx.
  const defaultHeaders: DefaultHeaders = { accept: 'application/json', ...options.headers };
  const instance = axios.create({ baseURL: baseUrl, timeout: timeoutMs, maxRedirects: 0, headers: defaultHeaders });
  logExchanges(instance, logger, { provider, accountId: ctx.accountId }, credentialHeaderNames(auth));
  const breaker = circuitFor({ provider, accountId: ctx.accountId, origin }, options.breaker ?? {}, logger);
  const retryPolicy = options.retry === false ? undefined : readRetryPolicy(options.retry);
  /**
   * Every exchange goes through here, each in a span of its own when the call is traced: a charge's usual request
   * (a JSON body or none, no parameters, no proxy, no debug log) on node:http directly, as axios would send and answer
   * it (directExchange.ts), anything else through axios.
   */
  const send = (config: AxiosRequestConfig): Promise<AxiosResponse> => {
    const target = logger.isLevelEnabled('debug') ? undefined : directTarget(config, baseUrl, defaultHeaders);
    return exchangeSpan(
      provider,
      (config.method ?? 'GET').toUpperCase(),
      () => (target ? fullUrl(baseUrl, config.url ?? '') : instance.getUri(config)),
      () => (target ? sendDirectly(config, target, { defaults: defaultHeaders, timeoutMs }) : instance.request(config)),
    );
  };

  async function agent(): Promise<Agent> {
    if (!mtls) return httpsAgentFor(undefined, ca);
    const url = mtls.certificate === 'cashIn' ? ctx.certCashInUrl : ctx.certCashOutUrl;
    // The specification's text when a platform has no certificate for this direction.
    if (!url) throw new GatewayError('FAILED_PRECONDITION', 'Unauthorized.', { reason: 'CLIENT_CERTIFICATE_MISSING' });
    const passphrase = mtls.passphrase ? resolveKey(mtls.passphrase, ctx) || undefined : undefined;
    const certificate = await loadClientCertificate(url, { passphrase, timeoutMs, readUrl: ctx.certificateReadUrl });
    if (certificate.notAfter)
      recordCertificateExpiry({ provider: provider ?? '', accountId: ctx.accountId, certificate: mtls.certificate, notAfter: certificate.notAfter });
    logger.debug({ provider, accountId: ctx.accountId, certificate: displayUrl(url), kind: certificate.kind }, 'client certificate ready');
    return httpsAgentFor(certificate, ca);
  }

  /** Sends once; with OAuth2, a 401 refreshes the token once and sends once more. */
  async function sendAuthenticated(config: AxiosRequestConfig, tokens: OAuth2Tokens | undefined): Promise<AxiosResponse> {
    if (!tokens) return send(config);
    const token = await tokens.get();
    try {
      return await send(withBearer(config, token));
    } catch (error) {
      if (!(axios.isAxiosError(error) && error.response?.status === 401)) throw error;
      tokens.invalidate(token);
      return send(withBearer(config, await tokens.get()));
    }
  }

  async function request<T>(method: Method, path: string, body: unknown, requestOptions: ProviderRequestOptions = {}): Promise<ProviderResponse<T>> {
    try {
      const httpsAgent = await agent();
      const tokens = auth.type === 'oauth2' ? new OAuth2Tokens(auth, ctx, (config) => send({ ...config, httpAgent: httpAgent(), httpsAgent }), now) : undefined;
      const config: AxiosRequestConfig = {
        method,
        url: path,
        data: body,
        params: requestOptions.params,
        headers: { ...staticAuthHeaders(auth, ctx), ...requestOptions.headers },
        timeout: requestOptions.timeoutMs,
        httpAgent: httpAgent(),
        httpsAgent,
        // A read nobody waits for any more stops; a write finishes, so that what the provider did is recorded.
        signal: method === 'GET' ? callSignal() : undefined,
      };
      // The base URL, a slash and the path bound the URL's length from above (axios joins them with one slash, or
      // takes an absolute path alone), so the exact URL is built (axios merges its whole configuration for that,
      // about 2 % of the gateway's busy time in a profile of the charge bench) only with parameters or near the limit.
      const length = requestOptions.params === undefined && baseUrl.length + 1 + path.length <= MAX_PROVIDER_URL_LENGTH ? 0 : instance.getUri(config).length;
      if (length > MAX_PROVIDER_URL_LENGTH) {
        throw new ProviderCallError(
          'INVALID_ARGUMENT',
          'PROVIDER_REQUEST_TOO_LARGE',
          `request URL too long for the provider (${length} characters, at most ${MAX_PROVIDER_URL_LENGTH}): an id or parameter is oversized`,
        );
      }
      const attempt = () => sendAuthenticated(config, tokens);
      // Only reads are retried: a call that moves money must never reach the provider twice.
      const call = method === 'GET' && retryPolicy ? () => retryPolicy.execute(attempt) : attempt;
      const response = await throughCircuit(breaker, call);
      return { status: response.status, data: response.data as T, headers: flatHeaders(response.headers) };
    } catch (error) {
      throw requestOptions.errorPrefix ? providerError(requestOptions.errorPrefix, error) : error;
    }
  }

  return {
    get: (path, requestOptions) => request('GET', path, undefined, requestOptions),
    post: (path, body, requestOptions) => request('POST', path, body, requestOptions),
    put: (path, body, requestOptions) => request('PUT', path, body, requestOptions),
    patch: (path, body, requestOptions) => request('PATCH', path, body, requestOptions),
    delete: (path, { body, ...requestOptions } = {}) => request('DELETE', path, body, requestOptions),
  };
}
