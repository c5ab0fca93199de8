import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_RETRY_SCHEDULE_MS, DEFAULT_UNKNOWN_CHECK_SCHEDULE_MS } from './domain/types.js';
import { SecretBox } from './lib/secretBox.js';

/** Every setting the gateway reads, with its default (README lists them). */
export interface Config {
  host: string;
  grpcPort: number;
  httpPort: number;
  webhookPort: number;
  sandboxPort: number;
  /** METRICS_PORT: the Prometheus endpoint's port; undefined (`off`): no metrics listener. */
  metricsPort?: number;
  dataDir: string;
  databaseUrl?: string;
  /**
   * DATABASE_LISTEN_URL: a session-level connection to the primary for LISTEN (account changes), where DATABASE_URL goes
   * through a pooler in transaction mode that does not deliver notifications; unset: DATABASE_URL.
   */
  databaseListenUrl?: string;
  /** Streaming replicas of DATABASE_URL for reads. */
  databaseReplicaUrls: string[];
  apiTokens: string[];
  /** True when the token was generated into the data folder, so it is worth printing. */
  apiTokenGenerated: boolean;
  /** The first admin operator, created at start when there is no operator yet (ADMIN_EMAIL, ADMIN_PASSWORD). */
  firstAdmin: { email: string; password: string; generated: boolean };
  /** Operator sessions: idle and absolute expiry, lock-out after failed sign-ins, and whether the cookie is Secure (SESSION_COOKIE_SECURE; else only over TLS). */
  sessions: {
    idleMs: number;
    absoluteMs: number;
    maxFailures: number;
    lockMs: number;
    secureCookie: boolean;
    signInsPerMinute: number;
    /** OPERATOR_TOTP_REQUIRED_FOR_ADMINS: an admin without two-step verification may only turn it on. */
    totpRequiredForAdmins: boolean;
  };
  /** CORS_ORIGINS: browser origins, besides the back-office's own, that may call Connect (with bearer tokens; session cookies stay same-origin). */
  corsOrigins: string[];
  secretsKey: string;
  /**
   * SECRETS_KEY_OTHER: during a rotation of SECRETS_KEY, the key on the rotation's other side (the new one before
   * processes seal under it, the old one after): values sealed under it still open; nothing is sealed under it.
   */
  secretsKeyOther: string | undefined;
  /**
   * The gateway's card tokens: CARD_TOKEN_TTL_SECONDS, how long one opens after it is made (default one hour);
   * CARD_TOKEN_KEY_VERSION, the version of the per-account key new ones are sealed under (raise it to rotate; tokens of
   * older versions open until they expire).
   */
  cardTokens: { ttlSeconds: number; keyVersion: number };
  /** How providers reach the webhook sidecar. */
  /** WEBHOOK_PUBLIC_URL; unset means http://HOST:WEBHOOK_PORT, decided once the port is known. */
  webhookPublicUrl?: string;
  /** SANDBOX_URL; unset means http://HOST:SANDBOX_PORT. */
  sandboxPublicUrl?: string;
  sandboxSettleMs: number;
  /** SANDBOX_WHOLE_RECORDS: how many charges, settled payouts and cards the fake PSP keeps whole (SandboxPspOptions.wholeRecords). */
  sandboxWholeRecords: number;
  /** SANDBOX_PIX_TTL_SECONDS: how long a fake PSP's PIX charge can be paid (SandboxPspOptions.pixTtlMs). */
  sandboxPixTtlSeconds: number;
  /** SANDBOX_THREAD: the fake PSP in a worker thread of its own when it shares the process with other components (default); false: on the gateway's event loop. */
  sandboxThread: boolean;
  /** How long the SANDBOX adapter waits for the fake PSP's answer. */
  sandboxTimeoutMs: number;
  webDir: string;
  /** CHECKOUT_DIR: the browser tokenizer's folder (checkout/), served at /checkout/checkout.js with its demo page. */
  checkoutDir: string;
  /** CHECKOUT_DEMO_MERCHANT_URL: where the demo checkout page (/checkout-demo/) sends the card token to be charged. */
  checkoutDemoMerchantUrl: string;
  logLevel: string;
  /** Notification-processing loops in this process (0: the sidecar only stores; another process processes). */
  webhookWorkers: number;
  /** WEBHOOK_CONCURRENCY: notifications each of those loops processes at once. */
  webhookConcurrency: number;
  /** Key of the x-gateway-signature header on notifications to callers' webhook_url. */
  outboundWebhookSecret: string;
  /** OUTBOUND_WEBHOOK_SECRET_CHANGED: this process records its outbound secret as the database's (a change made on purpose). */
  outboundWebhookSecretChanged: boolean;
  outboundRetryScheduleMs: readonly number[];
  reconcileAfterMs: number;
  reconcileEveryMs: number;
  reconcileBatch: number;
  /** PROCESS_HEARTBEAT_MS: how often a process marks itself alive for the provider calls it has in flight. */
  processHeartbeatMs: number;
  /** PROCESS_STALE_MS: a process silent this long is gone; the calls it held in flight are confirmed like unknown outcomes. */
  processStaleMs: number;
  /** UNKNOWN_CHECK_SCHEDULE_MS: when an unknown outcome is checked with its provider, from the moment it became unknown. */
  unknownCheckScheduleMs: readonly number[];
  /**
   * PAYOUT_APPROVAL_ABOVE_CENTS: a payout an operator asks for above this many cents waits for a second operator's
   * approval (four-eyes); unset, none waits.
   */
  payoutApprovalAboveCents?: number;
  /** How often idle background loops look for work (other processes' notifications, due retries). */
  workerIdleMs: number;
  /** DB_ACQUIRE_TIMEOUT_MS: how long a query waits for a free database connection before failing. */
  dbAcquireTimeoutMs: number;
  /** DB_CONNECT_TIMEOUT_MS: how long opening a new database connection may take before it fails. */
  dbConnectTimeoutMs: number;
  /** DB_POOL_MAX: connections to PostgreSQL (the primary, and each replica) this process opens at most. */
  dbPoolMax: number;
  /** DB_PREPARED_STATEMENTS: hot statements as named prepared statements (false: unnamed, for a pooler that cannot keep them). */
  dbPreparedStatements: boolean;
  /**
   * ACCOUNT_CACHE_MS: how long an account and its opened secrets are served from memory at most. Other processes' changes
   * drop the copy as they commit (LISTEN/NOTIFY); only while that connection is down, on the embedded database, or for a
   * change written by hand in SQL, do they wait this long.
   */
  accountCacheMs: number;
  /** How long a process serves a route from memory after reading it; a change made by another process shows within this (ROUTE_CACHE_MS). */
  routeCacheMs: number;
  /** MAX_REQUEST_BYTES: the largest request body (message) Connect and gRPC read. */
  maxRequestBytes: number;
  /** WEBHOOK_MAX_BODY_BYTES: the largest notification body the sidecar reads. */
  webhookMaxBodyBytes: number;
  /** Failed notifications (bad signature, unknown account) the sidecar answers per provider account before it answers 429: a sustained rate and a burst (0 per second: no limit). Authentic ones never count. */
  webhookRatePerSecond: number;
  webhookRateBurst: number;
  /** Notifications with a bad signature stored per account and hour; past it they are refused, counted and logged, not stored. */
  webhookBadSignatureStoreLimit: number;
  /**
   * RPCs each token (a service token, an API_TOKENS entry) may make, over gRPC and Connect together: a sustained rate and
   * a burst (RATE_LIMIT_*; 0 per second, the default: no limit).
   */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** The same for each operator's session (OPERATOR_RATE_LIMIT_*): 50 a second, 100 at once by default. */
  operatorRateLimitPerSecond: number;
  operatorRateLimitBurst: number;
  /**
   * CreateCardToken calls per publishable key and network address (PUBLISHABLE_RATE_LIMIT_*): 1 a second, 10 at once
   * by default. The key is public: this is what slows a card-testing script that copied it.
   */
  publishableRateLimit: { perSecond: number; burst: number };
  /**
   * Object storage for uploads (S3_*): any S3-compatible store. Without
   * S3_ENDPOINT the gateway starts its own on loopback (s3rver on S3_PORT,
   * objects in DATA_DIR/s3).
   */
  s3: {
    endpoint?: string;
    region: string;
    bucket: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    publicUrl?: string;
    forcePathStyle: boolean;
    port: number;
    folder: string;
    /**
     * UPLOADS_PRIVATE: uploads (receivers' documents) are stored without public-read and read only through a presigned
     * link an operator asks for (CreateDocumentReadLink); false: public-read, as the specification has them.
     */
    privateUploads: boolean;
  };
  /** MAX_IN_FLIGHT: unary calls answered at once by this process (gRPC and Connect together); past it RESOURCE_EXHAUSTED; 0: no cap. */
  maxInFlight: number;
  /** SHED_EVENT_LOOP_DELAY_MS: new calls are refused while the event loop's median delay is above it; 0: off. */
  shedEventLoopDelayMs: number;
  /** SHED_POOL_WAIT_MS: new calls are refused while the primary pool's queries wait longer than this for a connection (a window's median); 0: off. */
  shedPoolWaitMs: number;
  /** ALLOW_PRIVATE_PROVIDER_URLS: accounts' base_url and certificate URLs may point at loopback, private, link-local or metadata addresses (development, tests). */
  allowPrivateProviderUrls: boolean;
  /** ALLOW_PRIVATE_WEBHOOK_URLS: the same for charges' webhook_url. */
  allowPrivateWebhookUrls: boolean;
  /** OpenTelemetry tracing, on when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT); undefined: off. */
  tracing?: TracingConfig;
}

export interface TracingConfig {
  /** Where spans are POSTed (OTLP over HTTP, JSON). */
  url: string;
  /** OTEL_SERVICE_NAME. */
  serviceName: string;
  /** OTEL_BSP_SCHEDULE_DELAY: the longest a finished span waits before it is sent. */
  scheduledDelayMs: number;
}

/**
 * The standard OpenTelemetry variables that concern this gateway's traces.
 * The exporter itself also reads OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT,
 * _COMPRESSION and the certificate variables from the process's environment.
 */
function tracing(env: NodeJS.ProcessEnv): TracingConfig | undefined {
  if (flag(env, 'OTEL_SDK_DISABLED')) return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim());
  if (exporters.includes('none')) return undefined;
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  // The general endpoint is a base: traces go to its /v1/traces; the specific one is used as it is.
  const url = specific || (general ? `${general.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!url) return undefined;
  const name = specific ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new Error(`${name} must be an http:// or https:// URL, got ${JSON.stringify(specific || general)}`);
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || '').trim();
  if (protocol === 'grpc')
    throw new Error(
      "OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: the gateway exports OTLP over HTTP (http/json); point the endpoint at the collector's HTTP port (4318)",
    );
  return {
    url,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'payment-gateway',
    scheduledDelayMs: count(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000),
  };
}

/** An http:// or https:// URL setting. */
function httpUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name]?.trim() || fallback;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new Error(`${name} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === '0' || raw === 'false' || raw === 'no') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes') return true;
  throw new Error(`${name} must be true or false, got ${JSON.stringify(env[name])}`);
}

/** SANDBOX_WHOLE_RECORDS' default: the charges, settled payouts and cards the fake PSP keeps whole (docs/decisions.md). */
export const SANDBOX_WHOLE_RECORDS = 5_000;

function count(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return value;
}

function rate(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of at least 0, got ${JSON.stringify(raw)}`);
  return value;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number, got ${JSON.stringify(raw)}`);
  return value;
}

/** A port, or `off` for a listener that is not started. */
function optionalPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number | undefined {
  return env[name]?.trim().toLowerCase() === 'off' ? undefined : port(env, name, fallback);
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = count(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be at least 1`);
  return value;
}

/** Comma-separated origins (scheme://host[:port]), each checked. */
function origins(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, ''))
        throw new Error(`${name} must list origins such as https://backoffice.example.com, got ${JSON.stringify(origin)}`);
      return parsed.origin;
    });
}

/** ADMIN_EMAIL and ADMIN_PASSWORD; an unset password is generated into the data folder, like the API token. */
function firstAdmin(env: NodeJS.ProcessEnv, dataDir: string): Config['firstAdmin'] {
  const email = env.ADMIN_EMAIL || 'admin@localhost';
  if (env.ADMIN_PASSWORD) return { email, password: env.ADMIN_PASSWORD, generated: false };
  return { email, password: persisted(dataDir, 'admin-password', () => randomBytes(18).toString('base64url')).value, generated: true };
}

/** A rate and a burst (`<prefix>_PER_SECOND`, `<prefix>_BURST`); a limit with no call at once would refuse every call. */
function rateLimit(env: NodeJS.ProcessEnv, prefix: string, defaultPerSecond: number, defaultBurst = 100): { perSecond: number; burst: number } {
  const perSecond = rate(env, `${prefix}_PER_SECOND`, defaultPerSecond);
  const burst = count(env, `${prefix}_BURST`, defaultBurst);
  if (perSecond > 0 && burst < 1)
    throw new Error(
      `${prefix}_BURST must be at least 1 while ${prefix}_PER_SECOND is above 0 (0 turns the limit off), got ${JSON.stringify(env[`${prefix}_BURST`])}`,
    );
  return { perSecond, burst };
}

/**
 * RATE_LIMIT_* for tokens (the checkout's services: off unless set, since a service's volume is the business's) and
 * OPERATOR_RATE_LIMIT_* for operators' sessions (people: 50 a second, 100 at once).
 */
function callerRateLimits(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'rateLimitPerSecond' | 'rateLimitBurst' | 'operatorRateLimitPerSecond' | 'operatorRateLimitBurst' | 'publishableRateLimit'> {
  const tokens = rateLimit(env, 'RATE_LIMIT', 0);
  const operators = rateLimit(env, 'OPERATOR_RATE_LIMIT', 50);
  return {
    rateLimitPerSecond: tokens.perSecond,
    rateLimitBurst: tokens.burst,
    operatorRateLimitPerSecond: operators.perSecond,
    operatorRateLimitBurst: operators.burst,
    publishableRateLimit: rateLimit(env, 'PUBLISHABLE_RATE_LIMIT', 1, 10),
  };
}

/**
 * SHED_POOL_WAIT_MS. It replaced SHED_POOL_WAITING, a count of waiting queries, which refused healthy traffic (32
 * callers on 10 connections; any 21 on the embedded database's one): a deployment still setting the count is told
 * what to set instead rather than left with a setting that silently does nothing.
 */
function shedPoolWaitMs(env: NodeJS.ProcessEnv): number {
  if (env.SHED_POOL_WAITING?.trim())
    throw new Error(
      'SHED_POOL_WAITING is no longer read: load shedding at the database now judges how long queries wait for a connection; set SHED_POOL_WAIT_MS (milliseconds, default 100; 0: off) and remove SHED_POOL_WAITING',
    );
  return count(env, 'SHED_POOL_WAIT_MS', 100);
}

/** PROCESS_HEARTBEAT_MS, PROCESS_STALE_MS and UNKNOWN_CHECK_SCHEDULE_MS. */
function inFlightTimings(env: NodeJS.ProcessEnv): Pick<Config, 'processHeartbeatMs' | 'processStaleMs' | 'unknownCheckScheduleMs'> {
  const processHeartbeatMs = positive(env, 'PROCESS_HEARTBEAT_MS', 5_000);
  const processStaleMs = positive(env, 'PROCESS_STALE_MS', 30_000);
  // A live process must never look gone between two of its beats: a few missed beats are allowed for.
  if (processStaleMs < 2 * processHeartbeatMs)
    throw new Error(`PROCESS_STALE_MS (${processStaleMs}) must be at least twice PROCESS_HEARTBEAT_MS (${processHeartbeatMs})`);
  const raw = env.UNKNOWN_CHECK_SCHEDULE_MS?.trim();
  const unknownCheckScheduleMs = raw ? raw.split(',').map((ms) => count({ v: ms.trim() }, 'v', 0)) : DEFAULT_UNKNOWN_CHECK_SCHEDULE_MS;
  if (unknownCheckScheduleMs.some((ms, i) => i > 0 && ms < unknownCheckScheduleMs[i - 1]!))
    throw new Error(`UNKNOWN_CHECK_SCHEDULE_MS must be ascending (times from the moment an outcome became unknown), got ${JSON.stringify(raw)}`);
  return { processHeartbeatMs, processStaleMs, unknownCheckScheduleMs };
}

/**
 * S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY. Without S3_ENDPOINT and without them, the embedded store's own key pair,
 * generated into the data folder on first use like the other secrets: never s3rver's well-known S3RVER/S3RVER.
 */
function objectStoreCredentials(env: NodeJS.ProcessEnv, dataDir: string): { accessKeyId?: string; secretAccessKey?: string } {
  const configured = { accessKeyId: env.S3_ACCESS_KEY_ID || undefined, secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined };
  if (env.S3_ENDPOINT) return configured;
  if (configured.accessKeyId || configured.secretAccessKey) {
    if (!configured.accessKeyId || !configured.secretAccessKey)
      throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both for the embedded store, or neither to have a pair generated');
    return configured;
  }
  // An access key id names the key in every signature's credential scope (`<id>/<date>/…`): letters and digits only.
  const generated = persisted(
    dataDir,
    's3-credentials',
    () => `GW${randomBytes(9).toString('hex').toUpperCase()}:${randomBytes(30).toString('base64url')}`,
  ).value;
  const [accessKeyId = '', secretAccessKey = ''] = generated.split(':');
  if (!/^[A-Z0-9]{16,128}$/.test(accessKeyId) || secretAccessKey.length < 20)
    throw new Error(`${join(dataDir, 's3-credentials')} must hold <access key id>:<secret access key>; delete it to have a new pair generated`);
  return { accessKeyId, secretAccessKey };
}

/** SECRETS_KEY (generated into DATA_DIR when unset) and SECRETS_KEY_OTHER, checked without naming either value. */
function secretsKeys(env: NodeJS.ProcessEnv, dataDir: string): { secretsKey: string; secretsKeyOther: string | undefined } {
  const secretsKey = env.SECRETS_KEY || persisted(dataDir, 'secrets.key', () => randomBytes(32).toString('base64')).value;
  const secretsKeyOther = env.SECRETS_KEY_OTHER?.trim() || undefined;
  // Checked here, before anything starts: malformed, or the same key twice.
  if (secretsKeyOther !== undefined) SecretBox.fromEncodedKey(secretsKey, secretsKeyOther);
  return { secretsKey, secretsKeyOther };
}

/** Reads a value kept in the data folder, creating it on first use. */
function persisted(dataDir: string, file: string, create: () => string): { value: string; created: boolean } {
  const path = join(dataDir, file);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), created: false };
  mkdirSync(dataDir, { recursive: true });
  const value = create();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return { value, created: true };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const dataDir = resolve(env.DATA_DIR || './data');
  const webhookPort = port(env, 'WEBHOOK_PORT', 8081);
  const sandboxPort = port(env, 'SANDBOX_PORT', 8082);
  const tokens = (env.API_TOKENS ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  const generatedToken = tokens.length ? undefined : persisted(dataDir, 'api-token', () => randomBytes(24).toString('base64url'));
  return {
    host,
    grpcPort: port(env, 'GRPC_PORT', 50051),
    httpPort: port(env, 'HTTP_PORT', 8080),
    webhookPort,
    sandboxPort,
    // 9464: the port OpenTelemetry's Prometheus exporter uses.
    metricsPort: optionalPort(env, 'METRICS_PORT', 9464),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseListenUrl: env.DATABASE_LISTEN_URL?.trim() || undefined,
    databaseReplicaUrls: (env.DATABASE_REPLICA_URLS ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
    apiTokens: generatedToken ? [generatedToken.value] : tokens,
    apiTokenGenerated: generatedToken !== undefined,
    firstAdmin: firstAdmin(env, dataDir),
    sessions: {
      idleMs: positive(env, 'SESSION_IDLE_MINUTES', 30) * 60_000,
      absoluteMs: positive(env, 'SESSION_MAX_HOURS', 12) * 3_600_000,
      maxFailures: positive(env, 'SIGN_IN_MAX_FAILURES', 5),
      lockMs: positive(env, 'SIGN_IN_LOCK_MINUTES', 15) * 60_000,
      secureCookie: flag(env, 'SESSION_COOKIE_SECURE'),
      signInsPerMinute: positive(env, 'SIGN_IN_RATE_PER_MINUTE', 30),
      totpRequiredForAdmins: flag(env, 'OPERATOR_TOTP_REQUIRED_FOR_ADMINS'),
    },
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    ...secretsKeys(env, dataDir),
    cardTokens: { ttlSeconds: positive(env, 'CARD_TOKEN_TTL_SECONDS', 3600), keyVersion: positive(env, 'CARD_TOKEN_KEY_VERSION', 1) },
    webhookPublicUrl: env.WEBHOOK_PUBLIC_URL || undefined,
    payoutApprovalAboveCents: env.PAYOUT_APPROVAL_ABOVE_CENTS?.trim() ? count(env, 'PAYOUT_APPROVAL_ABOVE_CENTS', 0) : undefined,
    sandboxPublicUrl: env.SANDBOX_URL || undefined,
    sandboxSettleMs: Number(env.SANDBOX_SETTLE_MS ?? 1000),
    sandboxThread: flag(env, 'SANDBOX_THREAD', true),
    sandboxWholeRecords: positive(env, 'SANDBOX_WHOLE_RECORDS', SANDBOX_WHOLE_RECORDS),
    sandboxPixTtlSeconds: positive(env, 'SANDBOX_PIX_TTL_SECONDS', 86_400),
    sandboxTimeoutMs: count(env, 'SANDBOX_TIMEOUT_MS', 10_000),
    webDir: resolve(env.WEB_DIR || 'web/dist'),
    checkoutDir: resolve(env.CHECKOUT_DIR || 'checkout'),
    checkoutDemoMerchantUrl: httpUrl(env, 'CHECKOUT_DEMO_MERCHANT_URL', 'http://127.0.0.1:4242/charge'),
    logLevel: env.LOG_LEVEL || 'info',
    webhookWorkers: count(env, 'WEBHOOK_WORKERS', 1),
    webhookConcurrency: positive(env, 'WEBHOOK_CONCURRENCY', 8),
    outboundWebhookSecret: env.OUTBOUND_WEBHOOK_SECRET || persisted(dataDir, 'outbound-webhook.secret', () => randomBytes(32).toString('base64url')).value,
    outboundWebhookSecretChanged: flag(env, 'OUTBOUND_WEBHOOK_SECRET_CHANGED'),
    outboundRetryScheduleMs: env.OUTBOUND_RETRY_SCHEDULE_MS
      ? env.OUTBOUND_RETRY_SCHEDULE_MS.split(',').map((ms) => count({ v: ms.trim() }, 'v', 0))
      : DEFAULT_RETRY_SCHEDULE_MS,
    reconcileAfterMs: count(env, 'RECONCILE_AFTER_MS', 15 * 60_000),
    reconcileEveryMs: count(env, 'RECONCILE_EVERY_MS', 5 * 60_000),
    reconcileBatch: count(env, 'RECONCILE_BATCH', 20),
    ...inFlightTimings(env),
    workerIdleMs: count(env, 'WORKER_IDLE_MS', 1000),
    accountCacheMs: count(env, 'ACCOUNT_CACHE_MS', 5000),
    routeCacheMs: count(env, 'ROUTE_CACHE_MS', 5000),
    dbAcquireTimeoutMs: count(env, 'DB_ACQUIRE_TIMEOUT_MS', 10_000),
    dbConnectTimeoutMs: count(env, 'DB_CONNECT_TIMEOUT_MS', 10_000),
    dbPoolMax: positive(env, 'DB_POOL_MAX', 10),
    dbPreparedStatements: flag(env, 'DB_PREPARED_STATEMENTS', true),
    maxRequestBytes: count(env, 'MAX_REQUEST_BYTES', 4 * 1024 * 1024),
    webhookMaxBodyBytes: count(env, 'WEBHOOK_MAX_BODY_BYTES', 1024 * 1024),
    webhookRatePerSecond: rate(env, 'WEBHOOK_RATE_PER_SECOND', 20),
    webhookRateBurst: count(env, 'WEBHOOK_RATE_BURST', 100),
    webhookBadSignatureStoreLimit: count(env, 'WEBHOOK_BAD_SIGNATURE_STORE_LIMIT', 100),
    ...callerRateLimits(env),
    maxInFlight: count(env, 'MAX_IN_FLIGHT', 256),
    shedEventLoopDelayMs: count(env, 'SHED_EVENT_LOOP_DELAY_MS', 100),
    shedPoolWaitMs: shedPoolWaitMs(env),
    s3: {
      endpoint: env.S3_ENDPOINT || undefined,
      region: env.S3_REGION || 'us-east-1',
      bucket: env.S3_BUCKET || 'gateway-uploads',
      ...objectStoreCredentials(env, dataDir),
      publicUrl: env.S3_PUBLIC_URL || undefined,
      // Path style by default: S3-compatible stores (and the embedded one) serve it; AWS still does.
      forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', true),
      port: port(env, 'S3_PORT', 8083),
      folder: env.S3_FOLDER || 'uploads',
      privateUploads: flag(env, 'UPLOADS_PRIVATE'),
    },
    allowPrivateProviderUrls: flag(env, 'ALLOW_PRIVATE_PROVIDER_URLS'),
    allowPrivateWebhookUrls: flag(env, 'ALLOW_PRIVATE_WEBHOOK_URLS'),
    tracing: tracing(env),
  };
}
