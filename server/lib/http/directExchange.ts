import axios, { AxiosError, AxiosHeaders, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { request as httpRequest, type Agent as PlainAgent, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type Agent } from 'node:https';
import * as zlib from 'node:zlib';
import { brotliDecompressSync, constants, unzipSync } from 'node:zlib';

/**
 * A provider exchange sent on `node:http` directly, for the requests that make up a charge's path: a JSON body or
 * none, no query parameters, no proxy, no debug log. axios spent about 80 µs of CPU and 70 KB of garbage on each
 * (docs/benchmarks.md: merging its configuration and headers per request, its transforms and interceptors), a tenth
 * of a charge's CPU and two fifths of its garbage. Everything else (forms, Buffers, strings, `params`, a proxy from
 * the environment, the debug log of exchanges, the OAuth2 token's form request) still goes through axios, unchanged.
 *
 * What a caller sees is what axios gives it, so providerError, the circuit, the retries, the spans and the adapters
 * that read `error.response` stay as they are: the same request on the wire (the same headers, `User-Agent:
 * axios/<version>`, `Accept-Encoding`, `Content-Type` and `Content-Length`), the same answer (`AxiosHeaders`, a body
 * decompressed the same ways and read as JSON when it parses, as text otherwise), and the same failures (`AxiosError`
 * with axios's codes and messages: a status outside 2xx, `timeout of N ms exceeded` with ECONNABORTED, a network
 * error's own code, `canceled` with ERR_CANCELED). tests/unit/lib/http/directExchange.test.ts sends each case both
 * ways and compares.
 */

/** The configuration keys ProviderHttp sets on a request; any other key (an OAuth2 token request's) goes to axios. */
const DIRECT_KEYS = new Set(['method', 'url', 'data', 'params', 'headers', 'timeout', 'httpAgent', 'httpsAgent', 'signal']);

/** Variables proxy-from-env reads (axios's proxy from the environment), lower and upper case: any set sends through axios. */
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'all_proxy', 'npm_config_http_proxy', 'npm_config_https_proxy', 'npm_config_proxy'].flatMap((name) => [
  name,
  name.toUpperCase(),
]);

const ACCEPT_ENCODING = 'gzip, compress, deflate, br';
const USER_AGENT = `axios/${axios.VERSION}`;
/** axios's decompression flushes: a body cut short is read as far as it goes, not refused. */
const ZLIB_FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

function proxyFromEnvironment(): boolean {
  for (const name of PROXY_VARIABLES) if (process.env[name]) return true;
  return false;
}

/** A body axios would send as JSON (an array or a plain object), or none (undefined: null is sent as "null" by axios). */
function isPlainBody(data: unknown): boolean {
  if (data === undefined) return true;
  if (Array.isArray(data)) return true;
  if (data === null || typeof data !== 'object') return false;
  const prototype = Object.getPrototypeOf(data) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The instance's headers for every request of a client: its `accept` and the declaration's, as axios.create was given them. */
export type DefaultHeaders = Readonly<Record<string, string>>;

/**
 * The headers axios would send, merged without regard to case (a later name replaces an earlier one's value, the
 * first spelling kept): axios's common `Accept`, the client's defaults, the request's own; then what axios adds when
 * absent. Values undefined or null are left out, as axios leaves them.
 */
function mergedHeaders(method: string, defaults: DefaultHeaders, own: AxiosRequestConfig['headers'], body: Buffer | undefined): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  const put = (name: string, value: unknown, replace = true): void => {
    if (value === undefined || value === null || value === false) return;
    const key = name.toLowerCase();
    const known = merged.get(key);
    if (known && !replace) return;
    merged.set(key, [known ? known[0] : name, headerValue(String(value))]);
  };
  put('Accept', 'application/json, text/plain, */*');
  for (const [name, value] of Object.entries(defaults)) put(name, value);
  for (const [name, value] of Object.entries((own ?? {}) as Record<string, unknown>)) put(name, value);
  if (body) put('Content-Type', 'application/json', false);
  // axios gives every POST, PUT and PATCH a form type when nothing else set one, a body or not.
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') put('Content-Type', 'application/x-www-form-urlencoded', false);
  put('User-Agent', USER_AGENT, false);
  if (body) put('Content-Length', body.length, false);
  put('Accept-Encoding', ACCEPT_ENCODING, false);
  const headers: Record<string, string> = {};
  for (const [name, value] of merged.values()) headers[name] = value;
  return headers;
}

/** axios's cleaning of a header value: characters outside Latin-1's printable ones dropped, spaces and tabs trimmed. */
function headerValue(value: string): string {
  return value.replace(/[^\t\x20-\x7e\x80-\xff]+/g, '').replace(/^[ \t]+|[ \t]+$/g, '');
}

function contentTypeOf(defaults: DefaultHeaders, own: AxiosRequestConfig['headers']): string {
  let type = '';
  for (const headers of [defaults, (own ?? {}) as Record<string, unknown>])
    for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'content-type' && value != null) type = String(value);
  return type.toLowerCase();
}

/** axios's join of a base URL and a path (an absolute URL is taken alone). */
export function fullUrl(baseUrl: string, path: string): string {
  if (/^([a-z][a-z\d+\-.]*:)?\/\//i.test(path)) return path;
  return path ? `${baseUrl.replace(/\/?\/$/, '')}/${path.replace(/^\/+/, '')}` : baseUrl;
}

/**
 * The URL to send this request to directly, or undefined when it goes through axios: only ProviderHttp's own keys, no query parameters, a JSON body or none (not a
 * form, whose object axios would encode), an http(s) URL without credentials in it, no proxy in the environment.
 */
export function directTarget(config: AxiosRequestConfig, baseUrl: string, defaults: DefaultHeaders): URL | undefined {
  for (const key of Object.keys(config)) if (!DIRECT_KEYS.has(key)) return undefined;
  if (config.params !== undefined || !isPlainBody(config.data)) return undefined;
  if (config.data !== undefined && /x-www-form-urlencoded|multipart\/form-data/.test(contentTypeOf(defaults, config.headers))) return undefined;
  if (proxyFromEnvironment()) return undefined;
  let target: URL;
  try {
    target = new URL(fullUrl(baseUrl, config.url ?? ''));
  } catch {
    return undefined;
  }
  if ((target.protocol !== 'https:' && target.protocol !== 'http:') || target.username || target.password) return undefined;
  return target;
}

interface DirectOptions {
  defaults: DefaultHeaders;
  /** The client's timeout, used when the request sets none (0: none, as axios). */
  timeoutMs: number;
}

/**
 * The answer's content encoding to undo, as axios decides it: its header is removed from the answer for the encodings
 * it undoes (and for HEAD and 204, which have no body), before the answer's headers are read.
 */
function takeEncoding(method: string, response: IncomingMessage): string | undefined {
  const headers = response.headers;
  if (!headers['content-encoding']) return undefined;
  if (method === 'HEAD' || response.statusCode === 204) delete headers['content-encoding'];
  const encoding = (headers['content-encoding'] ?? '').toLowerCase();
  if (!DECODERS[encoding]) return undefined;
  delete headers['content-encoding'];
  return encoding;
}

const unzip = (body: Buffer): Buffer => unzipSync(body, ZLIB_FLUSH);
const zstd = (zlib as { zstdDecompressSync?: (body: Buffer) => Buffer }).zstdDecompressSync;

/** The encodings axios undoes, and how. */
const DECODERS: Record<string, (body: Buffer) => Buffer> = {
  gzip: unzip,
  'x-gzip': unzip,
  compress: unzip,
  'x-compress': unzip,
  // A raw deflate stream (no zlib header) is given one, as axios does.
  deflate: (body) => unzip(body[0] === 0x78 ? body : Buffer.concat([Buffer.from([0x78, 0x9c]), body])),
  br: (body) => brotliDecompressSync(body, BROTLI_FLUSH),
  ...(zstd ? { zstd } : {}),
};

/** The answer's text as axios reads it: decoded, the BOM dropped. */
function decoded(raw: Buffer, encoding: string | undefined): string {
  const body = encoding && raw.length ? DECODERS[encoding]!(raw) : raw;
  const text = body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parsed(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Sends the request on the client's agent and answers as axios would (see the module's comment). */
export function sendDirectly(config: AxiosRequestConfig, target: URL, options: DirectOptions): Promise<AxiosResponse> {
  const method = (config.method ?? 'GET').toUpperCase();
  const signal = config.signal as AbortSignal | undefined;
  if (signal?.aborted) return Promise.reject(new axios.CanceledError(undefined, config as never));
  let body: Buffer | undefined;
  try {
    body = config.data === undefined ? undefined : Buffer.from(JSON.stringify(config.data), 'utf-8');
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  const secure = target.protocol === 'https:';
  const timeout = config.timeout ?? options.timeoutMs;
  const agent = (secure ? config.httpsAgent : config.httpAgent) as Agent | PlainAgent | undefined;

  return new Promise<AxiosResponse>((resolve, reject) => {
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    let req: ClientRequest | undefined;
    const finish = (): void => {
      settled = true;
      if (connectTimer) clearTimeout(connectTimer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: unknown): void => {
      if (settled) return;
      finish();
      reject(error);
      req?.destroy();
    };
    const onAbort = (): void => fail(new axios.CanceledError(undefined, config as never, req));
    const onTimeout = (): void => fail(new AxiosError(`timeout of ${timeout}ms exceeded`, AxiosError.ECONNABORTED, config as never, req));

    try {
      req = (secure ? httpsRequest : httpRequest)(
        {
          protocol: target.protocol,
          hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method,
          headers: mergedHeaders(method, options.defaults, config.headers, body),
          agent,
          insecureHTTPParser: false,
        },
        (response) => {
          if (connectTimer) clearTimeout(connectTimer);
          // As axios: the encoding it undoes leaves the headers first, and a failure while the body streams carries the answer.
          const encoding = takeEncoding(method, response);
          const answer: AxiosResponse = {
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            headers: new AxiosHeaders(response.headers as Record<string, string>),
            config: config as never,
            request: req,
            data: undefined,
          };
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('aborted', () => fail(new AxiosError('stream has been aborted', AxiosError.ERR_BAD_RESPONSE, config as never, req, answer)));
          response.on('error', (error) => fail(AxiosError.from(error, undefined, config as never, req, answer)));
          response.on('end', () => {
            if (settled) return;
            try {
              answer.data = parsed(decoded(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), encoding));
            } catch (error) {
              return fail(AxiosError.from(error, undefined, config as never, req, answer));
            }
            if (signal?.aborted) return fail(new axios.CanceledError(undefined, config as never, req));
            finish();
            const status = answer.status;
            if (!status || (status >= 200 && status < 300)) return resolve(answer);
            reject(
              new AxiosError(
                `Request failed with status code ${status}`,
                status >= 400 && status < 500 ? AxiosError.ERR_BAD_REQUEST : AxiosError.ERR_BAD_RESPONSE,
                config as never,
                req,
                answer,
              ),
            );
          });
        },
      );
    } catch (error) {
      // A request Node refuses to build (a header with a forbidden character) fails as axios lets it: as it is.
      finish();
      reject(error);
      return;
    }
    req.on('error', (error) => fail(AxiosError.from(error, undefined, config as never, req)));
    req.on('socket', (socket) => socket.setKeepAlive(true, 60_000));
    signal?.addEventListener('abort', onAbort);
    if (timeout > 0) {
      // Until the answer's head, the whole wait counts (a connection that never opens); after it, the socket's silence.
      connectTimer = setTimeout(onTimeout, timeout);
      req.setTimeout(timeout, onTimeout);
    }
    req.end(body);
  });
}
