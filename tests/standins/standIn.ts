import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A provider's stand-in: a loopback server that behaves as the provider's own
 * documentation says (auth, paths, units, required fields, answers, errors,
 * state across calls), written from that primary source and never from the
 * adapter it tests. Unlike tests/support/fakeProvider.ts (canned answers to the
 * requests a test expects), a stand-in keeps state and refuses what the real
 * API refuses, so the gateway is driven end to end through the public contract.
 *
 * Each stand-in names its sources (addresses of the documentation, SDK or
 * platform reference it was written from) in `sources`.
 */

export interface StandInRequest {
  method: string;
  /** Path without the query. */
  path: string;
  /** Values of the route's `{name}` segments. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  rawBody: string;
  /** The body's bytes as sent (multipart files are not text). */
  rawBytes: Buffer;
  /** JSON or form bodies parsed; other bodies as text; undefined when empty. */
  body: unknown;
}

export interface StandInReply {
  /** Default 200. */
  status?: number;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path template: '{name}' matches one segment ('/payments/{id}/refund'). */
  path: string;
  handle(request: StandInRequest): StandInReply | Promise<StandInReply>;
}

export interface StandInOptions {
  /** The provider, for messages. */
  name: string;
  /** Where the behaviour comes from: documentation pages, SDK files, the platform's reference (addresses). */
  sources: readonly string[];
  /** Runs before every route: a reply refuses the request (the provider's own 401), undefined lets it through. */
  authenticate?: (request: StandInRequest) => StandInReply | undefined;
  routes: readonly Route[];
}

export interface StandIn {
  readonly url: string;
  readonly sources: readonly string[];
  /** Every request that arrived, in order. */
  readonly received: StandInRequest[];
  /** Requests no route of the documentation matches (answered 404): a stand-in test expects none. */
  readonly unmatched: StandInRequest[];
  /** Handlers that threw (answered 500): a bug in the stand-in, never expected. */
  readonly crashed: Array<{ request: StandInRequest; error: string }>;
  /** How many requests arrived for this method and path template. */
  count(method: string, path: string): number;
  close(): Promise<void>;
}

function compile(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      const named = /^\{(\w+)\}$/.exec(segment);
      if (!named) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(named[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

async function readRequest(message: IncomingMessage): Promise<Omit<StandInRequest, 'params'>> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const rawBytes = Buffer.concat(chunks);
  const rawBody = rawBytes.toString('utf8');
  const url = new URL(message.url ?? '/', 'http://stand-in');
  const headers = Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
  return {
    method: message.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    rawBody,
    rawBytes,
    body: parseBody(rawBody, headers['content-type']),
  };
}

export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  const routes = options.routes.map((route) => ({ route, ...compile(route.path) }));
  const received: StandInRequest[] = [];
  const unmatched: StandInRequest[] = [];
  const crashed: StandIn['crashed'] = [];
  const server: Server = createServer((message, response) => {
    void (async () => {
      const incoming = await readRequest(message);
      let reply: StandInReply;
      const found = routes
        .filter(({ route }) => route.method === incoming.method)
        .map(({ route, pattern, names }) => ({ route, match: pattern.exec(incoming.path), names }))
        .find(({ match }) => match);
      const params = found?.match ? Object.fromEntries(found.names.map((name, index) => [name, decodeURIComponent(found.match![index + 1]!)])) : {};
      const request: StandInRequest = { ...incoming, params };
      received.push(request);
      if (!found) {
        unmatched.push(request);
        reply = { status: 404, body: { message: `${options.name} stand-in: no documented route ${incoming.method} ${incoming.path}` } };
      } else {
        try {
          reply = options.authenticate?.(request) ?? (await found.route.handle(request));
        } catch (error) {
          crashed.push({ request, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
          reply = { status: 500, body: { message: 'stand-in crashed' } };
        }
      }
      const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
      response.writeHead(reply.status ?? 200, {
        ...(typeof reply.body === 'string' ? {} : { 'content-type': 'application/json' }),
        ...reply.headers,
      });
      response.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sources: options.sources,
    received,
    unmatched,
    crashed,
    count: (method, path) => {
      const { pattern } = compile(path);
      return received.filter((request) => request.method === method && pattern.test(request.path)).length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A sequence of ids for a stand-in's resources ('pay_000001', …). */
export function idSequence(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${String(++next).padStart(6, '0')}`;
}
