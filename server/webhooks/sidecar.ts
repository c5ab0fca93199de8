import { createServer, type ServerResponse } from 'node:http';
import { isGatewayError, type ErrorCode } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import { BodyTooLarge, decodePathSegment, guardedListener, listen, readLimitedBody, replyError, requestPath, type ListeningServer } from '../lib/httpServer.js';
import { TokenBuckets } from '../lib/tokenBuckets.js';
import type { NotificationsService } from '../gateway/notifications.js';

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  INVALID_ARGUMENT: 400,
  NOT_FOUND: 404,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  FAILED_PRECONDITION: 422,
};

export interface SidecarOptions {
  notifications: Pick<NotificationsService, 'intake'>;
  logger: Logger;
  host: string;
  port: number;
  /** The largest body read (WEBHOOK_MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /** Notifications taken per provider account (WEBHOOK_RATE_PER_SECOND, WEBHOOK_RATE_BURST); 0 per second: no limit. */
  rate: { perSecond: number; burst: number };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Receives providers' notifications at POST /webhooks/{PROVIDER}/{providerAccountId}.
 * It stores body and headers untouched and answers at once; workers process
 * them from the store. A 5xx answer (nothing stored) tells the provider to
 * deliver again.
 *
 * The port is open to the internet without authentication, so what it spends
 * is bounded before anything is read: a rate per account (429 with
 * Retry-After) and a body size (413, the connection closed rather than the
 * rest read).
 */
export async function startWebhookSidecar(options: SidecarOptions): Promise<ListeningServer> {
  const limiter = options.rate.perSecond > 0 ? new TokenBuckets(options.rate) : undefined;
  const server = createServer(
    guardedListener(options.logger, async (req, res) => {
      const path = requestPath(req);
      if (req.method === 'GET' && path === '/healthz') return reply(res, 200, { status: 'SERVING' });
      const match = /^\/webhooks\/([^/]+)\/([^/]+)\/?$/.exec(path);
      if (!match) return reply(res, 404, { error: 'not found: notifications go to POST /webhooks/{PROVIDER}/{providerAccountId}' });
      if (req.method !== 'POST') return reply(res, 405, { error: 'method not allowed: use POST' });
      const [provider, providerAccountId] = match.slice(1).map(decodePathSegment) as [string, string];
      const retryAfter = limiter?.take(providerAccountId) ?? 0;
      if (retryAfter > 0) {
        options.logger.warn({ provider, providerAccountId, retryAfter }, 'webhook rate limit reached for the account');
        return replyError(res, 429, 'too many notifications for this account; deliver again later', { 'retry-after': String(retryAfter), connection: 'close' });
      }
      try {
        const body = await readLimitedBody(req, options.maxBodyBytes);
        const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
        const notification = await options.notifications.intake({ provider, providerAccountId, body, headers });
        reply(res, 200, { id: notification.id, outcome: notification.outcome });
      } catch (error) {
        if (error instanceof BodyTooLarge) return replyError(res, 413, `body larger than ${options.maxBodyBytes} bytes`, { connection: 'close' });
        const status = isGatewayError(error) ? (HTTP_STATUS[error.code] ?? 500) : 500;
        if (status >= 500) options.logger.error({ err: error, provider, providerAccountId }, 'webhook processing failed');
        reply(res, status, { error: isGatewayError(error) && status < 500 ? error.message : 'processing failed; deliver again later' });
      }
    }),
  );
  return listen(server, options.host, options.port);
}
