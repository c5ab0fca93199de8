import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger.js';

export interface ListeningServer {
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Listens on host:port (0 picks a free port) and knows how to close gracefully. */
export async function listen(server: Server, host: string, port: number, beforeClose: () => void = () => {}): Promise<ListeningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose();
        server.close(() => resolve());
        // Idle keep-alive sockets would hold the close open; busy ones finish their request first.
        server.closeIdleConnections();
      }),
  };
}

/** A body larger than the reader allows: answer 413 (or 400) and close the connection rather than read the rest. */
export class BodyTooLarge extends Error {}

/** The request's body, refused (BodyTooLarge) once it passes `maxBytes`, by its declared length before a byte is read. */
export async function readLimitedBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(req.headers['content-length']) > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A request the server cannot make sense of (a malformed percent-escape, …): answered 400, never thrown past the handler. */
export class BadHttpRequest extends Error {}

/** decodeURIComponent that refuses a malformed escape with BadHttpRequest instead of a URIError. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadHttpRequest(`malformed percent-escape in the path`);
  }
}

/**
 * The longest request target served (path and query). An S3 key is at most 1,024 bytes and a presigned link's query
 * adds about 600 characters; nothing the gateway serves comes near it.
 */
export const MAX_TARGET_LENGTH = 8192;

/**
 * The request target (path and query, still percent-encoded), or BadHttpRequest when it is not one every listener
 * here can serve: only a path (`/…`: not `*`, not an absolute URL, not `//host/…`), no backslash (URL parsers read it
 * as a slash), at most MAX_TARGET_LENGTH characters, and every percent-escape well formed and decoding to UTF-8.
 */
export function checkedTarget(req: IncomingMessage): string {
  const target = req.url ?? '';
  if (target.length > MAX_TARGET_LENGTH) throw new BadHttpRequest(`request target longer than ${MAX_TARGET_LENGTH} characters`);
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\'))
    throw new BadHttpRequest('malformed request target: expected a path such as /healthz');
  try {
    decodeURIComponent(target);
  } catch {
    throw new BadHttpRequest('malformed percent-escape in the request target (or one that is not UTF-8)');
  }
  return target;
}

/** The request's path as sent (still percent-encoded, dot segments resolved); BadHttpRequest when the target is not a path (see checkedTarget). */
export function requestPath(req: IncomingMessage): string {
  return new URL(checkedTarget(req), 'http://request').pathname;
}

/** The request target's query parameters. */
export function requestQuery(req: IncomingMessage): URLSearchParams {
  return new URL(checkedTarget(req), 'http://request').searchParams;
}

/** Answers a plain-HTTP error unless an answer has already started; closes the connection when the body was not read. */
export function replyError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: message }));
}

/**
 * Wraps a request listener so that nothing it throws, synchronously or from a
 * promise, escapes the request: what cannot be parsed (an odd target first of
 * all) is a 400, anything else a logged 500. An error thrown outside every handler would otherwise end the
 * process with every transport in it.
 */
export function guardedListener(logger: Logger, listener: (req: IncomingMessage, res: ServerResponse) => unknown): RequestListener {
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    if (error instanceof BadHttpRequest) return replyError(res, 400, error.message, { connection: 'close' });
    logger.error({ err: error, method: req.method }, 'http request failed with an unexpected error');
    replyError(res, 500, 'internal error', { connection: 'close' });
  };
  return (req, res) => {
    try {
      // Every listener refuses an odd target alike (400), before its own routing reads it.
      checkedTarget(req);
      const result = listener(req, res);
      if (result instanceof Promise) result.catch((error: unknown) => fail(req, res, error));
    } catch (error) {
      fail(req, res, error);
    }
  };
}
