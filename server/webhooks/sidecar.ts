import { createServer, type ServerResponse } from 'node:http';
import { isDatabaseUnreachable, isGatewayError, type ErrorCode } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import {
  BodyTooLarge,
  decodePathSegment,
  guardedListener,
  listen,
  readLimitedBody,
  replyError,
  requestPath,
  requestQuery,
  type ListeningServer,
} from '../lib/httpServer.js';
import { withoutCredentialParams } from '../lib/http/redact.js';
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
  /**
   * Failed notifications answered per provider account before the rest are 429 (WEBHOOK_RATE_PER_SECOND,
   * WEBHOOK_RATE_BURST); 0 per second: no limit. Only failures count (see FailureLimit): authentic notifications never do.
   */
  rate: { perSecond: number; burst: number };
  /**
   * Whether the gateway behind it can take notifications yet. The sidecar listens before the services exist (their
   * webhook URLs name its port); until then /healthz answers 503, so a load balancer or a readiness probe sends the
   * notifications elsewhere, and one that arrives anyway is answered 503 with Retry-After. Unset: always ready.
   */
  ready?: () => boolean;
}

/** What a notification refused during a database outage is told to wait: failovers take seconds. */
const DATABASE_RETRY_AFTER_S = 2;
/** What one refused while the gateway starts is told to wait. */
const STARTING_RETRY_AFTER_S = 1;

/** At most this many accounts (and paths) are remembered: a sender spraying made-up ids costs bounded memory. */
const MAX_KEYS = 10_000;

/** A Set that forgets its oldest entry past MAX_KEYS. */
function remember(set: Set<string>, key: string): void {
  set.delete(key);
  if (set.size >= MAX_KEYS) set.delete(set.values().next().value!);
  set.add(key);
}

/**
 * The per-account limit, on failures only: a notification whose signature does not match, or that names an account
 * (or a provider) the gateway does not have. A notification that authenticates, or that the gateway cannot judge
 * before asking the provider (unsigned providers), is never refused by it, however many arrive: a provider's busy hour
 * and a replay after an outage are the gateway's own traffic, and a provider that does not retry would lose what a
 * 429 refused. Each failure takes a token from its account's bucket; once the bucket is empty, failures are answered
 * 429 instead of 401 or 404, and a path that named no account is refused before its body is read.
 */
class FailureLimit {
  private readonly buckets: TokenBuckets;
  /** Paths (provider and account) whose last notification named nothing the gateway has. */
  private readonly unknownPaths = new Set<string>();
  /** Accounts whose failures are being answered 429: the first refusal is logged, not each. */
  private readonly limited = new Set<string>();

  constructor(
    rate: { perSecond: number; burst: number },
    private readonly logger: Logger,
  ) {
    this.buckets = new TokenBuckets({ ...rate, maxKeys: MAX_KEYS });
  }

  /** Seconds to wait before this path is worth reading again (0: read it): only for paths that named no account. */
  beforeReading(provider: string, providerAccountId: string): number {
    return this.unknownPaths.has(`${provider}/${providerAccountId}`) ? this.buckets.peek(providerAccountId) : 0;
  }

  succeeded(provider: string, providerAccountId: string): void {
    this.unknownPaths.delete(`${provider}/${providerAccountId}`);
  }

  /** Counts a failure (`unknown`: it named no account); seconds to wait when it is over the limit (answer 429), else 0. */
  failed(provider: string, providerAccountId: string, unknown: boolean): number {
    if (unknown) remember(this.unknownPaths, `${provider}/${providerAccountId}`);
    const retryAfter = this.buckets.take(providerAccountId);
    if (retryAfter === 0) {
      this.limited.delete(providerAccountId);
    } else if (!this.limited.has(providerAccountId)) {
      remember(this.limited, providerAccountId);
      this.logger.warn({ provider, providerAccountId, retryAfter }, 'too many failed notifications for the account: answering 429 until the rate allows');
    }
    return retryAfter;
  }
}

/** A notification that failed authentication (401) or named no account or provider (404): what the limit counts. */
const failureOf = (error: unknown): 'bad-signature' | 'unknown' | undefined =>
  !isGatewayError(error) ? undefined : error.code === 'UNAUTHENTICATED' ? 'bad-signature' : error.code === 'NOT_FOUND' ? 'unknown' : undefined;

const TOO_MANY_FAILURES = 'too many failed notifications for this account; deliver again later';

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Receives providers' notifications at POST /webhooks/{PROVIDER}/{providerAccountId} (and at that path with /pix
 * appended, where API Pix PSPs post their callbacks).
 * It stores body and headers untouched and answers at once; workers process
 * them from the store. A 5xx answer (nothing stored) tells the provider to
 * deliver again.
 *
 * The port is open to the internet without authentication, so what it spends
 * is bounded: a body size (413, the connection closed rather than the rest
 * read), and a rate of failures per account (429 with Retry-After; see
 * FailureLimit), which never refuses an authentic notification.
 */
export async function startWebhookSidecar(options: SidecarOptions): Promise<ListeningServer> {
  const failures = options.rate.perSecond > 0 ? new FailureLimit(options.rate, options.logger) : undefined;
  const server = createServer(
    guardedListener(options.logger, async (req, res) => {
      const path = requestPath(req);
      const ready = options.ready?.() ?? true;
      if (req.method === 'GET' && path === '/healthz') return reply(res, ready ? 200 : 503, { status: ready ? 'SERVING' : 'NOT_SERVING' });
      // The API Pix (Banco Central's standard, the BACEN family) calls the webhook URL registered at the PSP with "/pix"
      // appended: that path is the same account's.
      const match = /^\/webhooks\/([^/]+)\/([^/]+)(?:\/pix)?\/?$/.exec(path);
      if (!match) return reply(res, 404, { error: 'not found: notifications go to POST /webhooks/{PROVIDER}/{providerAccountId}' });
      if (req.method !== 'POST') return reply(res, 405, { error: 'method not allowed: use POST' });
      if (!ready)
        return replyError(res, 503, 'the gateway is still starting: deliver the notification again shortly', { 'retry-after': String(STARTING_RETRY_AFTER_S) });
      const [provider, providerAccountId] = match.slice(1).map(decodePathSegment) as [string, string];
      // A path that named no account last time, over its account's failures: refused before its body is read.
      const unread = failures?.beforeReading(provider, providerAccountId) ?? 0;
      if (unread > 0) return replyError(res, 429, TOO_MANY_FAILURES, { 'retry-after': String(unread), connection: 'close' });
      try {
        const body = await readLimitedBody(req, options.maxBodyBytes);
        const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
        const query = withoutCredentialParams(requestQuery(req));
        const notification = await options.notifications.intake({ provider, providerAccountId, body, headers, query });
        failures?.succeeded(provider, providerAccountId);
        reply(res, 200, { id: notification.id, outcome: notification.outcome });
      } catch (error) {
        if (error instanceof BodyTooLarge) return replyError(res, 413, `body larger than ${options.maxBodyBytes} bytes`, { connection: 'close' });
        // The database cannot be reached (a failover, a pooler restart): nothing was stored, through no fault of the
        // sender, so it counts as none of its failures. 503 with Retry-After says "deliver again shortly"; a warning,
        // not an error: the database's own alerts page whoever must act.
        if (isDatabaseUnreachable(error)) {
          options.logger.warn({ err: error, provider, providerAccountId }, 'webhook not stored: the database is unreachable');
          return replyError(res, 503, 'the notification was not stored: deliver it again shortly', { 'retry-after': String(DATABASE_RETRY_AFTER_S) });
        }
        const failure = failureOf(error);
        const retryAfter = failure && failures ? failures.failed(provider, providerAccountId, failure === 'unknown') : 0;
        if (retryAfter > 0) return replyError(res, 429, TOO_MANY_FAILURES, { 'retry-after': String(retryAfter) });
        const status = isGatewayError(error) ? (HTTP_STATUS[error.code] ?? 500) : 500;
        if (status >= 500) options.logger.error({ err: error, provider, providerAccountId }, 'webhook processing failed');
        reply(res, status, { error: isGatewayError(error) && status < 500 ? error.message : 'processing failed; deliver again later' });
      }
    }),
  );
  return listen(server, options.host, options.port);
}
