import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import axios, { type AxiosHeaders, type AxiosRequestConfig } from 'axios';
import { Agent } from 'node:http';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { directTarget, sendDirectly, type DefaultHeaders } from '../../../../server/lib/http/directExchange.js';

/**
 * The direct exchange set against axios itself: each request is sent both ways to one loopback server, which records
 * what arrived, and what the server saw and what the caller got back (or the failure it got) must be the same.
 */

interface Seen {
  method: string;
  url: string;
  headers: string[];
  body: string;
}

const seen: Seen[] = [];
const open = new Set<ServerResponse>();
let server: Server;
let base: string;
const agent = new Agent({ keepAlive: true });
const DEFAULTS: DefaultHeaders = { accept: 'application/json', 'X-Client': 'gateway' };

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const path = new URL(req.url!, 'http://x').pathname.replace(/^\/v1/, '');
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  const compressed = (encoding: string, data: Buffer) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
    res.end(data);
  };
  const payload = Buffer.from(JSON.stringify({ id: 'ch_1', status: 'paid', echo: body }));
  switch (path) {
    case '/json':
      return json(201, { id: 'ch_1', received: body ? (JSON.parse(body) as unknown) : null }, { 'x-request-id': 'r-1', 'set-cookie': 'a=1' });
    case '/text':
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('OK, not JSON');
    case '/bom':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(`\ufeff${JSON.stringify({ bom: true })}`);
    case '/empty':
      res.writeHead(204);
      return void res.end();
    case '/gzip':
      return compressed('gzip', gzipSync(payload));
    case '/deflate':
      return compressed('deflate', deflateSync(payload));
    case '/deflate-raw':
      return compressed('deflate', deflateRawSync(payload));
    case '/br':
      return compressed('br', brotliCompressSync(payload));
    case '/zstd':
      return compressed('zstd', zstdCompressSync(payload));
    case '/unknown-encoding':
      return compressed('identity-ish', payload);
    case '/bad-gzip':
      return compressed('gzip', Buffer.from('not gzip at all'));
    case '/refused':
      return json(400, { errors: [{ code: 'invalid', description: 'Valor inválido' }] });
    case '/down':
      res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '5' });
      return void res.end('<h1>Service Unavailable</h1>');
    case '/moved':
      res.writeHead(302, { location: '/json' });
      return void res.end();
    case '/silent':
      open.add(res);
      return;
    case '/cut':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
      return void setTimeout(() => res.socket?.destroy(), 20);
    case '/half':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
      open.add(res);
      return;
    default:
      return json(404, { message: 'not found' });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: string[] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      seen.push({ method: req.method!, url: req.url!, headers: headers.sort(), body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(() => {
  for (const res of open) res.destroy();
  open.clear();
});

afterAll(async () => {
  agent.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** What a caller can read of an outcome, success or failure. */
function outcome(result: PromiseSettledResult<import('axios').AxiosResponse>): Record<string, unknown> {
  if (result.status === 'fulfilled') {
    const { status, statusText, data, headers } = result.value;
    const flat = { ...(headers as AxiosHeaders).toJSON() } as Record<string, unknown>;
    delete flat.date;
    return { ok: true, status, statusText, data, headers: flat };
  }
  const error = result.reason as import('axios').AxiosError & { __CANCEL__?: boolean };
  const response = error.response;
  const headers = response ? ({ ...response.headers } as Record<string, unknown>) : undefined;
  if (headers) delete headers.date;
  return {
    ok: false,
    axios: axios.isAxiosError(error),
    cancel: axios.isCancel(error),
    name: error.name,
    code: error.code,
    message: error.message,
    status: response?.status,
    data: response?.data,
    headers,
    hasRequest: error.request !== undefined,
  };
}

/** Sends `config` through axios and then directly, and returns both outcomes and what the server saw of each. */
async function bothWays(
  config: AxiosRequestConfig,
  timeoutMs = 2_000,
  signal?: () => AbortSignal,
): Promise<{ viaAxios: Record<string, unknown>; direct: Record<string, unknown>; wire: [Seen?, Seen?] }> {
  const instance = axios.create({ baseURL: base, timeout: timeoutMs, maxRedirects: 0, headers: DEFAULTS });
  const full = (): AxiosRequestConfig => ({ httpAgent: agent, ...config, ...(signal ? { signal: signal() } : {}) });
  seen.length = 0;
  const viaAxios = outcome((await Promise.allSettled([instance.request(full())]))[0]!);
  const first = seen.shift();
  const direct = full();
  const target = directTarget(direct, base, DEFAULTS);
  expect(target).toBeDefined();
  const directOutcome = outcome((await Promise.allSettled([sendDirectly(direct, target!, { defaults: DEFAULTS, timeoutMs })]))[0]!);
  return { viaAxios, direct: directOutcome, wire: [first, seen.shift()] };
}

describe('a provider exchange sent directly', () => {
  it.each<[string, AxiosRequestConfig, number]>([
    [
      'a JSON POST answered 201 with JSON',
      { method: 'POST', url: '/json', data: { amount: 1990, customer: { name: 'Ana Souza' } }, headers: { authorization: 'Bearer t0k3n' } },
      201,
    ],
    ['a GET answered with text that is not JSON', { method: 'GET', url: 'text', headers: {} }, 200],
    ['a GET answered with a byte-order mark before the JSON', { method: 'GET', url: '/bom' }, 200],
    ['a DELETE answered 204 with nothing', { method: 'DELETE', url: '/empty' }, 204],
    ['a PUT of an array', { method: 'PUT', url: '/json', data: [1, 'two', { three: 3 }] }, 201],
    ['a PATCH with no body (axios types it as a form)', { method: 'PATCH', url: '/json' }, 201],
    [
      'a POST with its own JSON type, a header named twice in two cases, and a value to clean',
      {
        method: 'POST',
        url: '/json',
        data: { a: 'ç' },
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'x-client': 'own', 'X-Token': '  abc\u0007def\u2028  ' },
      },
      201,
    ],
    ['an absolute URL, which replaces the base', { method: 'GET', url: 'http://127.0.0.1:PORT/never' }, 404],
    ['a gzip answer', { method: 'GET', url: '/gzip' }, 200],
    ['a deflate answer with its zlib header', { method: 'GET', url: '/deflate' }, 200],
    ['a raw deflate answer', { method: 'GET', url: '/deflate-raw' }, 200],
    ['a brotli answer', { method: 'GET', url: '/br' }, 200],
    ['a zstd answer', { method: 'GET', url: '/zstd' }, 200],
    ['an encoding neither knows, passed through', { method: 'GET', url: '/unknown-encoding' }, 200],
    ['a body that is not the gzip it claims', { method: 'GET', url: '/bad-gzip' }, 200],
    ['a 400 with the provider’s errors', { method: 'POST', url: '/refused', data: { amount: -1 } }, 400],
    ['a 503 with an HTML page', { method: 'GET', url: '/down' }, 503],
    ['a 302, not followed', { method: 'POST', url: '/moved', data: {} }, 302],
    ['a 404', { method: 'GET', url: '/nothing-here?x=1' }, 404],
    ['an answer cut off half way', { method: 'GET', url: '/cut' }, 200],
  ])('is, for %s, what axios sends and answers', async (_, config, status) => {
    const port = new URL(base).port;
    const resolved = typeof config.url === 'string' ? { ...config, url: config.url.replace('PORT', port) } : config;
    const { viaAxios, direct, wire } = await bothWays(resolved);
    expect(viaAxios.status).toBe(status);
    expect(direct).toEqual(viaAxios);
    expect(wire[0]).toBeDefined();
    expect(wire[1]).toEqual(wire[0]);
  });

  it('times out as axios does, with its code and message', async () => {
    const { viaAxios, direct } = await bothWays({ method: 'POST', url: '/silent', data: { a: 1 }, timeout: 150 });
    expect(viaAxios).toMatchObject({ ok: false, code: 'ECONNABORTED', message: 'timeout of 150ms exceeded' });
    expect(direct).toEqual(viaAxios);
  });

  it('times out on an answer that stops half way, as axios does', async () => {
    const { viaAxios, direct } = await bothWays({ method: 'GET', url: '/half' }, 150);
    expect(viaAxios).toMatchObject({ ok: false, code: 'ECONNABORTED' });
    expect(direct).toEqual(viaAxios);
  });

  it('fails on a refused connection with the network error’s code and message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { viaAxios, direct } = await bothWays({ method: 'POST', url: `http://127.0.0.1:${port}/v1/json`, data: {} });
    expect(viaAxios).toMatchObject({ ok: false, code: 'ECONNREFUSED' });
    expect(direct).toEqual(viaAxios);
  });

  it('is canceled by a signal, before it is sent and while it waits, as axios cancels', async () => {
    const before = await bothWays({ method: 'GET', url: '/json', signal: AbortSignal.abort() });
    expect(before.viaAxios).toMatchObject({ ok: false, cancel: true, code: 'ERR_CANCELED', message: 'canceled' });
    expect({ ...before.direct, hasRequest: undefined }).toEqual({ ...before.viaAxios, hasRequest: undefined });
    const during = await bothWays({ method: 'GET', url: '/silent' }, 2_000, () => AbortSignal.timeout(100));
    expect(during.viaAxios).toMatchObject({ ok: false, cancel: true, code: 'ERR_CANCELED' });
    expect(during.direct).toEqual(during.viaAxios);
  });

  it('leaves to axios what it would send otherwise: parameters, forms, strings, Buffers, null, other keys, a proxy, credentials in the URL', () => {
    const target = (config: AxiosRequestConfig, defaults: DefaultHeaders = DEFAULTS, baseUrl = base) => directTarget(config, baseUrl, defaults);
    expect(target({ method: 'GET', url: '/json' })?.href).toBe(`${base}/json`);
    expect(target({ method: 'GET', url: '/json', params: { a: 1 } })).toBeUndefined();
    expect(target({ method: 'POST', url: '/json', data: new URLSearchParams({ a: '1' }) })).toBeUndefined();
    expect(target({ method: 'POST', url: '/json', data: 'a=1' })).toBeUndefined();
    expect(target({ method: 'POST', url: '/json', data: Buffer.from('{}') })).toBeUndefined();
    expect(target({ method: 'POST', url: '/json', data: null })).toBeUndefined();
    expect(target({ method: 'POST', url: '/json', data: { a: 1 }, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).toBeUndefined();
    expect(target({ method: 'POST', url: '/json', data: { a: 1 } }, { 'Content-Type': 'multipart/form-data' })).toBeUndefined();
    expect(target({ method: 'POST', url: '/json', responseType: 'arraybuffer' })).toBeUndefined();
    expect(target({ method: 'GET', url: '/json' }, DEFAULTS, 'http://user:secret@127.0.0.1/v1')).toBeUndefined();
    expect(target({ method: 'GET', url: 'ftp://example.com/file' })).toBeUndefined();
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = 'http://proxy.internal:3128';
    try {
      expect(target({ method: 'GET', url: '/json' })).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });
});
