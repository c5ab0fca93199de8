import { mkdirSync } from 'node:fs';
import type { RunningGateway } from './app.js';
import { COMPONENTS, needsDatabase, type Component } from './components.js';
import { loadConfig } from './config.js';
import { embeddedDataDir, startEmbeddedPostgres } from './db/embedded.js';
import { createLogger } from './lib/logger.js';
import { installProcessPolicy } from './lib/processPolicy.js';
import { writeScriptEnvironment } from './scriptEnvironment.js';

/**
 * npm start → every component; `tsx server/main.ts grpc` (or connect, webhooks,
 * sandbox) starts one. Separate processes need DATABASE_URL: the embedded
 * database belongs to the one process that opened it.
 */
const requested = process.argv.slice(2);
const components: Component[] =
  requested.length === 0 || requested.includes('all')
    ? [...COMPONENTS]
    : requested.filter((name): name is Component => (COMPONENTS as readonly string[]).includes(name));
if (components.length === 0) {
  console.error(`usage: tsx server/main.ts [all | ${COMPONENTS.join(' | ')} ...]`);
  process.exit(2);
}

const config = loadConfig();
/**
 * The embedded database's process is forked before the gateway's modules load (app.js below, most of a start's CPU):
 * PGlite starts on the other core meanwhile, instead of after them (docs/benchmarks.md, *`npm start` to healthy*).
 * Its failure is the start's, thrown where the start opens the database.
 */
const embeddedDatabase = !config.databaseUrl && needsDatabase(components) ? startEmbeddedPostgres(embeddedDataDir(config.dataDir)) : undefined;
embeddedDatabase?.catch(() => {});
const logger = createLogger(config.logLevel);
let stopping: Promise<void> | undefined;
/** The start, once under way; a fault before it has nothing to close. */
const start: { gateway?: Promise<RunningGateway> } = {};
/**
 * Stops every component once, however many signals or faults ask for it. A signal during the start waits for the
 * start to finish and then closes what it started: the embedded database's process included, which must not be left
 * closing its data folder while a restart opens it again.
 */
function shutdown(reason: string): Promise<void> {
  stopping ??= (async () => {
    logger.info({ reason }, 'shutting down: no new calls, finishing the ones in flight');
    const gateway = await start.gateway?.catch(() => undefined);
    await gateway?.close();
  })();
  return stopping;
}
installProcessPolicy(logger, shutdown);
// Before the start: the health check answers SERVING before the banner below, and a supervisor may stop the
// gateway as soon as it does.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    shutdown(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
start.gateway = import('./app.js').then(({ startGateway }) => startGateway(config, components, logger, { embeddedDatabase }));
const gateway = await start.gateway;

const token = config.apiTokens[0];
/** The addresses for scripts, in DATA_DIR; a folder that cannot be written costs the file, not the start. */
let scriptEnvironment: string | undefined;
try {
  mkdirSync(config.dataDir, { recursive: true });
  scriptEnvironment = writeScriptEnvironment(config.dataDir, {
    connectUrl: gateway.httpUrl,
    grpcAddress: gateway.grpcAddress,
    webhookUrl: gateway.webhookUrl,
    sandboxAccountId: gateway.sandboxAccountId,
    adminEmail: config.firstAdmin.email,
    generatedToken: config.apiTokenGenerated ? token : undefined,
  });
} catch (error) {
  logger.warn({ err: error }, 'the addresses for scripts could not be written to DATA_DIR');
}
/**
 * The example's idempotency key, as shell text: a fixed key would answer the first run's charge on every later run, so
 * the command closes its single quote to take the time and the shell's pid, a new key each time it is pasted.
 */
const TRY_IT_KEY = `try-'"$(date +%s)-$$"'`;
const lines = [
  '',
  'Payment gateway is running',
  gateway.grpcAddress && `  gRPC                ${gateway.grpcAddress}  (health + reflection enabled)`,
  gateway.httpUrl && `  Connect + web       ${gateway.httpUrl}  (back-office at /, GET /healthz)`,
  gateway.webhookUrl && `  Webhook sidecar     ${gateway.webhookUrl}/webhooks/{PROVIDER}/{providerAccountId}`,
  gateway.sandboxUrl && `  Sandbox PSP         ${gateway.sandboxUrl}`,
  gateway.objectStoreUrl && !config.s3.endpoint && `  Object store        ${gateway.objectStoreUrl}  (embedded, for uploads; objects in ${config.dataDir}/s3)`,
  gateway.metricsUrl && `  Metrics             ${gateway.metricsUrl}/metrics  (Prometheus; keep it on an internal network)`,
  `  Database            ${config.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `embedded PGlite in ${config.dataDir}/pgdata`}`,
  config.apiTokenGenerated && `  API token           ${token}   (generated; kept in ${config.dataDir}/api-token)`,
  gateway.firstAdmin &&
    `  First admin         ${gateway.firstAdmin.email} / ${gateway.firstAdmin.password ?? '(ADMIN_PASSWORD)'}   (sign in to the back-office; created now${gateway.firstAdmin.password ? `, password kept in ${config.dataDir}/admin-password` : ''})`,
  gateway.sandboxAccountId && `  SANDBOX account id  ${gateway.sandboxAccountId}`,
  scriptEnvironment &&
    `  For scripts         . ${scriptEnvironment}   (these addresses${config.apiTokenGenerated ? ', the token' : ''} and the account as shell variables)`,
  gateway.httpUrl &&
    gateway.sandboxAccountId &&
    config.apiTokenGenerated &&
    [
      '',
      'Try it (creates a new R$ 19,90 PIX charge on the sandbox each time: the idempotency key is new every run):',
      `  curl -s ${gateway.httpUrl}/gateway.v1.PaymentGatewayService/CreateTransaction \\`,
      `    -H 'authorization: Bearer ${token}' -H 'content-type: application/json' \\`,
      `    -d '{"providerAccountId":"${gateway.sandboxAccountId}","idempotencyKey":"${TRY_IT_KEY}","omitPixQrImage":true,"transaction":{"amount":1990,"paymentMethod":"PAYMENT_METHOD_PIX"}}'`,
    ].join('\n'),
  '',
].filter((line) => typeof line === 'string');
if (!stopping) console.log(lines.join('\n'));
