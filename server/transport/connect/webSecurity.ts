import type { IncomingMessage, ServerResponse } from 'node:http';
import { cors } from '@connectrpc/connect';

/**
 * Headers on every answer of the Connect port, which also serves the
 * back-office: the page may load only its own scripts, styles and calls (and
 * send files to the upload store, `uploadOrigin`), may not be framed
 * (clickjacking), types are not sniffed, and no address leaks in Referer.
 */
export function securityHeaders(uploadOrigin?: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'${uploadOrigin ? ` ${uploadOrigin}` : ''}; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export function setSecurityHeaders(res: ServerResponse, uploadOrigin?: string): void {
  for (const [name, value] of Object.entries(securityHeaders(uploadOrigin))) res.setHeader(name, value);
}

/**
 * A request from a browser page of another site. A request without Origin is
 * not from a cross-origin page. The host is compared, not the scheme: behind a
 * TLS terminator the page is https while this server speaks http, and a page
 * served by the same host is this back-office either way.
 */
export function isCrossOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

const ALLOWED_HEADERS = [...cors.allowedHeaders, 'authorization'].join(', ');
const EXPOSED_HEADERS = cors.exposedHeaders.join(', ');

/**
 * CORS for Connect calls from the configured origins only (CORS_ORIGINS).
 * Credentials (cookies) are never allowed cross-origin: other origins call
 * with bearer tokens, so a page elsewhere cannot ride an operator's session.
 * Answers a preflight itself (true); otherwise adds the headers when the
 * origin is allowed and lets the call go on (false).
 */
export function handleCors(req: IncomingMessage, res: ServerResponse, allowedOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  const allowed = origin !== undefined && isCrossOrigin(req) && allowedOrigins.includes(origin);
  res.setHeader('vary', 'Origin');
  if (req.method === 'OPTIONS') {
    if (!allowed) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('origin not allowed');
      return true;
    }
    res
      .writeHead(204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': cors.allowedMethods.join(', '),
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '7200',
      })
      .end();
    return true;
  }
  if (allowed) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  }
  return false;
}

/**
 * CORS for CreateCardToken, the one call of publishable keys, from any origin:
 * a preflight carries no credential, so the key whose allowed origins count is
 * not known until the call itself, where the gateway checks the Origin against
 * them (callGuard.ts). Answering a page of any origin lets a shop whose origin
 * is missing from its key read the refusal's text rather than a bare network
 * error; a token is only ever issued to an allowed origin. No credentials
 * (cookies) are allowed, so an operator's session never rides along.
 */
export function handleTokenizationCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  res.setHeader('vary', 'Origin');
  if (origin === undefined) return false;
  if (req.method === 'OPTIONS') {
    res
      .writeHead(204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '7200',
      })
      .end();
    return true;
  }
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  return false;
}
