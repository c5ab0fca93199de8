import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { rawRequest } from '../support/rawHttp.js';

/**
 * The back-office's files over real HTTP from the gateway's Connect port: compressed (brotli, gzip or none, as the
 * request accepts), cached for a year when hashed and revalidated when not (index.html), 304 on a current ETag.
 */

const WEB = 'web/dist';
let stack: TestStack;
let base: string;
/** The entry script and the stylesheet index.html names (hashed by Vite). */
let script: string;
let stylesheet: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = (answer: Answer): Buffer =>
  answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.body)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.body)
      : answer.body;

beforeAll(async () => {
  if (!existsSync(join(WEB, 'index.html'))) throw new Error('the back-office is not built: npm run build:web (npm test does it first)');
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  script = /<script[^>]+src="\.?(\/assets\/index-[^"]+\.js)"/.exec(html)![1]!;
  stylesheet = /<link[^>]+href="\.?(\/assets\/index-[^"]+\.css)"/.exec(html)![1]!;
  stack = await startTestStack();
  base = stack.gateway.httpUrl!;
});

afterAll(async () => {
  await stack?.close();
});

describe('compression', () => {
  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    ['deflate', undefined],
    ['', undefined],
  ])('Accept-Encoding "%s" gets %s, whose bytes decode to the file', async (accept, encoding) => {
    for (const path of [script, stylesheet, '/']) {
      const answer = await get(path, accept ? { 'accept-encoding': accept } : {});
      const file = readFileSync(join(WEB, path === '/' ? 'index.html' : path));
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(decoded(answer).equals(file)).toBe(true);
      // The script and the stylesheet shrink to under half; index.html, 600 bytes mostly of hashed names (which do
      // not repeat), only has to come out smaller: its ratio moves with the names Vite gives each build's chunks.
      if (encoding) expect(answer.body.length).toBeLessThan(path === '/' ? file.length : file.length / 2);
    }
  });

  it('sends the brotli and gzip files the build wrote beside each file (quality 11, level 9), not a compression of its own', async () => {
    for (const [accept, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      const answer = await get(script, { 'accept-encoding': accept });
      expect(answer.body.equals(readFileSync(join(WEB, script + suffix)))).toBe(true);
    }
  });

  it('gives each encoding its own ETag and Content-Length, and HEAD the same headers without a body', async () => {
    const tags = new Set<string>();
    for (const accept of ['br', 'gzip', 'identity']) {
      const [whole, head] = [await get(script, { 'accept-encoding': accept }), await get(script, { 'accept-encoding': accept }, 'HEAD')];
      tags.add(String(whole.headers.etag));
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ['etag', 'content-length', 'content-encoding', 'content-type', 'cache-control', 'vary'])
        expect(head.headers[name]).toEqual(whole.headers[name]);
    }
    expect(tags.size).toBe(3);
  });
});

describe('caching', () => {
  it('keeps a hashed asset for a year (immutable) and revalidates index.html, for the root and for the app routes', async () => {
    for (const path of [script, stylesheet]) expect((await get(path)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = readFileSync(join(WEB, 'index.html'));
    for (const path of ['/', '/index.html', '/transactions', '/payouts/some-id?tab=events']) {
      const answer = await get(path, { 'accept-encoding': 'gzip' });
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(decoded(answer).equals(index)).toBe(true);
    }
  });

  it('answers 304 without a body when If-None-Match names the encoding it would send, and 200 otherwise', async () => {
    for (const path of ['/', script]) {
      const first = await get(path, { 'accept-encoding': 'br' });
      const etag = String(first.headers.etag);
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
        expect(again.status).toBe(304);
        expect(again.body.length).toBe(0);
        expect(again.headers.etag).toBe(etag);
        expect(again.headers.vary).toBe('Accept-Encoding');
        expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      }
      // The copy a client holds is the brotli one; asking for gzip gets the gzip body, not a 304 for bytes it lacks.
      const other = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect(other.status).toBe(200);
      expect(other.headers['content-encoding']).toBe('gzip');
      expect((await get(path, { 'accept-encoding': 'br', 'if-none-match': '"stale"' })).status).toBe(200);
    }
  });
});

describe('what did not change', () => {
  it('keeps the security headers on files and on 304s', async () => {
    const first = await get('/');
    for (const answer of [first, await get('/', { 'if-none-match': String(first.headers.etag) })]) {
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('never serves a file outside web/dist, however the path is written', async () => {
    const index = readFileSync(join(WEB, 'index.html'), 'latin1');
    for (const target of [
      '/../package.json',
      '/assets/../../package.json',
      '/%2e%2e/%2e%2e/package.json',
      '/..%2f..%2fpackage.json',
      '/..%5c..%5cpackage.json',
    ]) {
      const answer = await rawRequest(base, [`GET ${target} HTTP/1.1`, 'Host: localhost', 'Connection: close']);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(index);
    }
  });

  it('answers an RPC as before, and refuses other methods on files', async () => {
    const call = await fetch(`${base}/gateway.v1.AccessService/WhoAmI`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_TOKEN}` },
      body: '{}',
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('cache-control')).toBeNull();
    expect((await get(script, {}, 'POST')).status).toBe(404);
  });
});
