import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { isDeepStrictEqual } from 'node:util';
import { generate } from 'selfsigned';

/**
 * A fake provider for adapter tests: a loopback server (HTTP, HTTPS or mTLS)
 * that answers only the requests a test declared, records everything that
 * arrived, and answers anything else with a 500 recorded in `unexpected`, so
 * `assertAllDone()` fails the test.
 */

// ---------------------------------------------------------------- matchers

const PARTIAL = Symbol('partial');
const ABSENT = Symbol('absent');

/** Body matcher: these fields (recursively) must be present with these values; others may exist. */
export interface PartialBody {
  readonly [PARTIAL]: unknown;
}
export const partial = (value: object): PartialBody => ({ [PARTIAL]: value });

/** Header matcher: the header must not be sent. */
export const absent: typeof ABSENT = ABSENT;

export type HeaderMatcher = string | RegExp | ((value: string | undefined) => boolean) | typeof ABSENT;

export type BodyPredicate = (body: unknown, request: RecordedRequest) => boolean;
/** A predicate, partial(...), or an exact value (deep equality with the parsed body). */
export type BodyMatcher = BodyPredicate | PartialBody | object | string | number | boolean | null;

export interface CannedResponse {
  /** Default 200. */
  status?: number;
  /** Sent as JSON unless it is a string or Buffer. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Answer only once this settles (after it, `delayMs` if given): a test holds requests to count how many come together. */
  until?: Promise<unknown>;
  /** Close the connection without answering (a network failure). */
  dropConnection?: boolean;
}

export interface Expectation {
  method: string;
  /** Path without the query; a RegExp must match the whole path. */
  path: string | RegExp;
  /** Query parameters that must be present with these values. */
  query?: Record<string, string>;
  /** Header names in any case. */
  headers?: Record<string, HeaderMatcher>;
  body?: BodyMatcher;
  /** How many requests this expectation answers; default 1. Infinity: any number, never pending. */
  times?: number;
  reply?: CannedResponse | ((request: RecordedRequest) => CannedResponse);
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  rawBody: string;
  /** JSON or form bodies parsed; other bodies as text; undefined when empty. */
  body: unknown;
  /** The client certificate's common name (mTLS fakes). */
  clientCertificate?: string;
}

export interface UnexpectedRequest extends RecordedRequest {
  /** Why each declared expectation for this method and path did not match. */
  mismatches: string[];
}

export interface ExpectationHandle {
  readonly calls: RecordedRequest[];
  readonly done: boolean;
}

function matchesPartial(actual: unknown, expected: unknown): boolean {
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    if (Array.isArray(expected)) {
      return Array.isArray(actual) && actual.length === expected.length && expected.every((item, index) => matchesPartial(actual[index], item));
    }
    return Object.entries(expected).every(([key, value]) => matchesPartial((actual as Record<string, unknown>)[key], value));
  }
  return isDeepStrictEqual(actual, expected);
}

function headerMismatch(name: string, matcher: HeaderMatcher, actual: string | undefined): string | undefined {
  const fail = (wanted: string) => `header ${name}: expected ${wanted}, got ${actual === undefined ? 'nothing' : JSON.stringify(actual)}`;
  if (matcher === ABSENT) return actual === undefined ? undefined : fail('no header');
  if (typeof matcher === 'string') return actual === matcher ? undefined : fail(JSON.stringify(matcher));
  if (matcher instanceof RegExp) return actual !== undefined && matcher.test(actual) ? undefined : fail(String(matcher));
  return matcher(actual) ? undefined : fail('a value accepted by the predicate');
}

function bodyMismatch(matcher: BodyMatcher, request: RecordedRequest): string | undefined {
  const shown = request.rawBody.length > 300 ? `${request.rawBody.slice(0, 300)}…` : request.rawBody;
  if (typeof matcher === 'function') return (matcher as BodyPredicate)(request.body, request) ? undefined : `body rejected by the predicate: ${shown}`;
  if (matcher !== null && typeof matcher === 'object' && PARTIAL in matcher) {
    return matchesPartial(request.body, matcher[PARTIAL]) ? undefined : `body does not contain ${JSON.stringify(matcher[PARTIAL])}: ${shown}`;
  }
  return isDeepStrictEqual(request.body, matcher) ? undefined : `body is not ${JSON.stringify(matcher)}: ${shown}`;
}

/** Why an expectation does not match a request; an empty list when it does. */
function mismatches(expectation: Expectation, request: RecordedRequest): string[] {
  const reasons: string[] = [];
  for (const [key, value] of Object.entries(expectation.query ?? {})) {
    if (request.query[key] !== value) reasons.push(`query ${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(request.query[key])}`);
  }
  for (const [name, matcher] of Object.entries(expectation.headers ?? {})) {
    const reason = headerMismatch(name.toLowerCase(), matcher, request.headers[name.toLowerCase()]);
    if (reason) reasons.push(reason);
  }
  if ('body' in expectation) {
    const reason = bodyMismatch(expectation.body as BodyMatcher, request);
    if (reason) reasons.push(reason);
  }
  return reasons;
}

const samePlace = (expectation: Expectation, request: RecordedRequest): boolean =>
  expectation.method.toUpperCase() === request.method &&
  (typeof expectation.path === 'string'
    ? expectation.path === request.path
    : new RegExp(`^(?:${expectation.path.source})$`, expectation.path.flags).test(request.path));

const label = (expectation: Expectation): string => `${expectation.method.toUpperCase()} ${String(expectation.path)}`;

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

// ---------------------------------------------------------------- certificates

export interface TestCertificates {
  /** The throwaway CA that signed both certificates: what the adapter side must trust. */
  ca: string;
  serverCert: string;
  serverKey: string;
  /** The client certificate the platform would store (CN 'platform-client'). */
  clientCert: string;
  clientKey: string;
  /** Certificate and key in one PEM file, as served from a platform certificate URL. */
  clientPem: string;
}

let certificates: Promise<TestCertificates> | undefined;

/** A CA, a server certificate for 127.0.0.1/localhost and a client certificate; generated once per test file. */
export function testCertificates(): Promise<TestCertificates> {
  certificates ??= (async () => {
    const options = { keyType: 'ec' as const, algorithm: 'sha256', notBeforeDate: new Date(Date.now() - 60_000) };
    const ca = await generate([{ name: 'commonName', value: 'Fake Provider Test CA' }], {
      ...options,
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    });
    const signer = { key: ca.private, cert: ca.cert };
    const server = await generate([{ name: 'commonName', value: 'localhost' }], {
      ...options,
      ca: signer,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    const client = await generate([{ name: 'commonName', value: 'platform-client' }], {
      ...options,
      ca: signer,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true },
        { name: 'extKeyUsage', clientAuth: true },
      ],
    });
    return {
      ca: ca.cert,
      serverCert: server.cert,
      serverKey: server.private,
      clientCert: client.cert,
      clientKey: client.private,
      clientPem: `${client.cert.trim()}\n${client.private.trim()}\n`,
    };
  })();
  return certificates;
}

/** A PKCS#12 bundle of a certificate and key (openssl CLI), for certificate URLs ending in .p12/.pfx. */
export function toPkcs12(certPem: string, keyPem: string, passphrase: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'fake-provider-p12-'));
  try {
    writeFileSync(join(dir, 'cert.pem'), certPem);
    writeFileSync(join(dir, 'key.pem'), keyPem, { mode: 0o600 });
    execFileSync(
      'openssl',
      ['pkcs12', '-export', '-in', join(dir, 'cert.pem'), '-inkey', join(dir, 'key.pem'), '-out', join(dir, 'bundle.p12'), '-passout', `pass:${passphrase}`],
      {
        stdio: 'pipe',
      },
    );
    return readFileSync(join(dir, 'bundle.p12'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- servers

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export interface FakeProvider {
  /** Origin, e.g. https://127.0.0.1:40123. */
  readonly url: string;
  /** The CA the adapter side must trust (HTTPS and mTLS fakes). */
  readonly ca?: string;
  /** Every request that arrived, in order. */
  readonly received: RecordedRequest[];
  /** Requests no expectation matched (each was answered 500). */
  readonly unexpected: UnexpectedRequest[];
  /** Requests whose sender closed the connection before the (delayed) answer was sent. */
  readonly abandoned: RecordedRequest[];
  /** Declares an expected request and its canned answer; first declared, first matched. */
  expect(expectation: Expectation): ExpectationHandle;
  /** Expectations still waiting for requests. */
  pending(): string[];
  /** Throws when a request was unexpected or an expectation is still pending. */
  assertAllDone(): void;
  /** Forgets expectations and recordings (between tests sharing one fake). */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeProviderOptions {
  /** 'http' (default), 'https' (server certificate from the test CA) or 'mtls' (also requires a client certificate from it). */
  tls?: 'http' | 'https' | 'mtls';
}

export async function startFakeProvider({ tls = 'http' }: FakeProviderOptions = {}): Promise<FakeProvider> {
  const received: RecordedRequest[] = [];
  const unexpected: UnexpectedRequest[] = [];
  const abandoned: RecordedRequest[] = [];
  let declared: Array<{ expectation: Expectation; calls: RecordedRequest[] }> = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (response: ServerResponse, canned: CannedResponse) => {
    if (canned.dropConnection) {
      response.socket?.destroy();
      return;
    }
    const { status = 200, body, headers = {} } = canned;
    const raw = body === undefined ? '' : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const type = typeof body === 'string' || Buffer.isBuffer(body) || body === undefined ? {} : { 'content-type': 'application/json' };
    response.writeHead(status, { ...type, ...headers });
    response.end(raw);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const rawBody = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
    const peer = tls === 'mtls' ? (request.socket as TLSSocket).getPeerCertificate() : undefined;
    const recorded: RecordedRequest = {
      method: (request.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      rawBody,
      body: parseBody(rawBody, headers['content-type']),
      ...(peer?.subject ? { clientCertificate: String(peer.subject.CN) } : {}),
    };
    received.push(recorded);
    const candidates = declared.filter(({ expectation, calls }) => calls.length < (expectation.times ?? 1) && samePlace(expectation, recorded));
    const match = candidates.find(({ expectation }) => mismatches(expectation, recorded).length === 0);
    if (!match) {
      const reasons = candidates.flatMap(({ expectation }) => mismatches(expectation, recorded).map((reason) => `${label(expectation)}: ${reason}`));
      unexpected.push({ ...recorded, mismatches: reasons.length ? reasons : ['no expectation declared for this method and path'] });
      send(response, { status: 500, body: { message: `unexpected request to the fake provider: ${recorded.method} ${recorded.path}` } });
      return;
    }
    match.calls.push(recorded);
    const { reply = { status: 200, body: {} } } = match.expectation;
    const canned = typeof reply === 'function' ? reply(recorded) : reply;
    if (!canned.delayMs && !canned.until) return send(response, canned);
    response.once('close', () => {
      if (!response.writableEnded) abandoned.push(recorded);
    });
    if (canned.until) await canned.until;
    if (!canned.delayMs) {
      if (!response.destroyed) send(response, canned);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!response.destroyed) send(response, canned);
    }, canned.delayMs);
    timers.add(timer);
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) send(response, { status: 500, body: { message: `fake provider failed: ${String(error)}` } });
    });
  };

  let ca: string | undefined;
  let server: Server;
  if (tls === 'http') {
    server = createHttpServer(listener);
  } else {
    const pki = await testCertificates();
    ca = pki.ca;
    const client = tls === 'mtls' ? { ca: pki.ca, requestCert: true, rejectUnauthorized: true } : {};
    server = createHttpsServer({ key: pki.serverKey, cert: pki.serverCert, ...client }, listener) as unknown as Server;
  }
  const port = await listen(server);

  const pending = () =>
    declared
      .filter(({ expectation, calls }) => Number.isFinite(expectation.times ?? 1) && calls.length < (expectation.times ?? 1))
      .map(({ expectation, calls }) => `${label(expectation)} (${calls.length}/${expectation.times ?? 1} received)`);

  return {
    url: `${tls === 'http' ? 'http' : 'https'}://127.0.0.1:${port}`,
    ca,
    received,
    unexpected,
    abandoned,
    expect(expectation) {
      const entry = { expectation, calls: [] as RecordedRequest[] };
      declared.push(entry);
      return {
        get calls() {
          return entry.calls;
        },
        get done() {
          return entry.calls.length >= (expectation.times ?? 1);
        },
      };
    },
    pending,
    assertAllDone() {
      const problems = [
        ...unexpected.map((request) => `unexpected ${request.method} ${request.path}\n    ${request.mismatches.join('\n    ')}`),
        ...pending().map((line) => `expected but not received: ${line}`),
      ];
      if (problems.length) throw new Error(`fake provider:\n  ${problems.join('\n  ')}`);
    },
    reset() {
      declared = [];
      received.length = 0;
      unexpected.length = 0;
      abandoned.length = 0;
    },
    async close() {
      timers.forEach((timer) => clearTimeout(timer));
      timers.clear();
      await closeServer(server);
    },
  };
}

export interface FileServer {
  /** The file's URL, e.g. http://127.0.0.1:40124/platform/cert.pem. */
  url(path: string): string;
  /** How many times each path was downloaded. */
  readonly hits: Record<string, number>;
  close(): Promise<void>;
}

/**
 * Serves fixed files over plain HTTP on loopback: the platform's certificate
 * store, for certificate URLs. Unknown paths are 404.
 */
export async function startFileServer(files: Record<string, string | Buffer>): Promise<FileServer> {
  const hits: Record<string, number> = {};
  const server = createHttpServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://files').pathname;
    const content = files[path];
    if (content === undefined || request.method !== 'GET') {
      response.writeHead(404).end();
      return;
    }
    hits[path] = (hits[path] ?? 0) + 1;
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(content);
  });
  const port = await listen(server);
  return { url: (path) => `http://127.0.0.1:${port}${path}`, hits, close: () => closeServer(server) };
}

/** 2xx bodies that are not the resource a provider was asked for: an outage in disguise, never a status or an "ok". */
export const BODIES_WITHOUT_RESOURCE: ReadonlyArray<[label: string, body: unknown]> = [
  ['an HTML page', '<html><body>Bad gateway</body></html>'],
  ['null', null],
  ['an empty object', {}],
];

/** The same, plus a 2xx whose body says it failed (a refusal, not a resource). */
export const GARBAGE_2XX_BODIES: ReadonlyArray<[label: string, body: unknown]> = [
  ...BODIES_WITHOUT_RESOURCE,
  ['a failure flag', { success: false, error: 'falha interna' }],
];
