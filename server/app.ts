import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/orm.js';
import { AccountsRepository } from './db/accountsRepository.js';
import { ACCOUNT_CHANGES_APPLICATION_NAME, AccountChangesListener } from './db/accountChanges.js';
import { TransactionsRepository } from './db/transactionsRepository.js';
import { WithdrawalsRepository } from './db/withdrawalsRepository.js';
import { ReceiversRepository } from './db/receiversRepository.js';
import { ListsRepository } from './db/listsRepository.js';
import { FlowMismatchesRepository } from './db/flowMismatchesRepository.js';
import { NotificationsRepository } from './db/notificationsRepository.js';
import { IdempotencyRepository } from './db/idempotencyRepository.js';
import { ProcessesRepository } from './db/processesRepository.js';
import { ProcessLiveness } from './gateway/processLiveness.js';
import { KeyFingerprintsRepository } from './db/keyFingerprintsRepository.js';
import { BalancesService } from './gateway/balances.js';
import { StatementRepository } from './db/statementRepository.js';
import { AccountsService } from './gateway/accounts.js';
import { StatusEvents } from './gateway/events.js';
import { DEFAULT_PROCESSING, NotificationsService } from './gateway/notifications.js';
import { PaymentsService } from './gateway/payments.js';
import { RoutesService } from './gateway/routes.js';
import { databaseHealthStore } from './gateway/routingHealth.js';
import { RoutesRepository } from './db/routesRepository.js';
import { GatewaySettingsRepository } from './db/gatewaySettingsRepository.js';
import { GatewaySettingsService } from './gateway/gatewaySettings.js';
import { DisputesService } from './gateway/disputes.js';
import { DisputesRepository } from './db/disputesRepository.js';
import { PayoutsService } from './gateway/payouts.js';
import { SandboxService } from './gateway/sandbox.js';
import { OutboundService } from './gateway/outbound.js';
import { transactionStatusChangedBody } from './gateway/outboundMessages.js';
import { ReconciliationService } from './gateway/reconciliation.js';
import { UnknownOutcomesService } from './gateway/unknownOutcomes.js';
import { FlowMismatchesService } from './gateway/flowMismatches.js';
import { ListsService } from './gateway/lists.js';
import { Workers } from './gateway/workers.js';
import { checkSharedKeys } from './gateway/sharedKeys.js';
import { OutboundRepository } from './db/outboundRepository.js';
import { SecretBox } from './lib/secretBox.js';
import { derivedCardTokenKeys } from './lib/gatewayCardToken.js';
import { CardTokenUsesRepository } from './db/cardTokenUsesRepository.js';
import { SavedCardsRepository } from './db/savedCardsRepository.js';
import { savedCardKeyInfo } from './lib/savedCard.js';
import { AuditRepository, ServiceTokensRepository } from './db/accessRepository.js';
import { AccessService } from './gateway/accessControl.js';
import { OperatorsService } from './gateway/operators.js';
import { OperatorTotpService } from './gateway/operatorTotp.js';
import { OperatorsRepository } from './db/operatorsRepository.js';
import type { Logger } from './lib/logger.js';
import { createRegistry, providerFactories } from './providers/catalog.js';
import type { ProviderFactory } from './providers/kit/registration.js';
import type { ProviderAdapter } from './providers/adapter.js';
import { SandboxPsp } from './sandbox/psp.js';
import { SandboxPspThread } from './sandbox/pspThread.js';
import { startConnectServer } from './transport/connect/server.js';
import { startGrpcServer } from './transport/grpc/server.js';
import { InFlightLimit } from './transport/inFlightLimit.js';
import { LoopPressure } from './transport/loopPressure.js';
import { privateKeyPrefixes, UploadsService } from './gateway/uploads.js';
import { ObjectStorage } from './lib/objectStorage.js';
import { startEmbeddedObjectStore } from './lib/embeddedObjectStore.js';
import { CallerRateLimit } from './transport/callerRateLimit.js';
import type { UseCases } from './transport/rpcHandlers.js';
import { startWebhookSidecar } from './webhooks/sidecar.js';
import { GatewayMetrics } from './observability/metrics.js';
import { startMetricsServer } from './observability/metricsServer.js';
import { startTracing } from './observability/tracing.js';
import type { Tracer } from './lib/tracing.js';
import { observedRegistry } from './providers/observedCalls.js';
import { needsDatabase, type Component } from './components.js';
import type { EmbeddedPostgres } from './db/embedded.js';

export { COMPONENTS, type Component } from './components.js';

export interface RunningGateway {
  config: Config;
  grpcAddress?: string;
  httpUrl?: string;
  webhookUrl?: string;
  sandboxUrl?: string;
  /** The Prometheus endpoint's base address (GET /metrics), unless METRICS_PORT is off. */
  metricsUrl?: string;
  /** The ready-made SANDBOX account of the embedded default. */
  sandboxAccountId?: string;
  /** The object store uploads go to (the embedded one's address, or S3_ENDPOINT). */
  objectStoreUrl?: string;
  /** The first admin operator, when this start created it. */
  firstAdmin?: { email: string; password?: string };
  useCases?: UseCases;
  db?: Database;
  /** The SANDBOX provider's fake PSP, when this process runs it on its own event loop (tests inject faults into it). */
  sandboxPsp?: SandboxPsp;
  /** The SANDBOX provider's fake PSP, when this process runs it in a worker thread (SANDBOX_THREAD). */
  sandboxThread?: SandboxPspThread;
  /** The load shedder (SHED_EVENT_LOOP_DELAY_MS, SHED_POOL_WAIT_MS), when on: tests wait for its limit to fall. */
  pressure?: LoopPressure;
  close(): Promise<void>;
}

/**
 * The configured S3-compatible store, or, without S3_ENDPOINT, an embedded one
 * on loopback whose CORS lets the back-office (and CORS_ORIGINS) upload.
 */
async function objectStorage(config: Config, closers: (() => Promise<void>)[]): Promise<{ storage: ObjectStorage; endpoint: string }> {
  const { s3 } = config;
  let endpoint = s3.endpoint;
  const credentials = { accessKeyId: s3.accessKeyId ?? '', secretAccessKey: s3.secretAccessKey ?? '' };
  if (!endpoint) {
    const origins = [`http://${config.host}:${config.httpPort}`, `http://localhost:${config.httpPort}`, ...config.corsOrigins];
    const store = await startEmbeddedObjectStore({
      host: config.host,
      port: s3.port,
      directory: join(config.dataDir, 's3'),
      bucket: s3.bucket,
      origins,
      // The key pair of this data folder (config.ts generates it): the gateway signs with it, the store checks it.
      credentials,
      // Private uploads: no object is read without a signature.
      publicReads: !s3.privateUploads,
      // Dispute evidence: never read without a signature, whatever UPLOADS_PRIVATE says.
      privatePrefixes: privateKeyPrefixes(s3.folder),
    });
    closers.push(() => store.close());
    endpoint = store.endpoint;
    config.s3.port = Number(new URL(store.endpoint).port);
  }
  const storage = new ObjectStorage({ ...s3, endpoint, ...credentials });
  closers.push(async () => storage.close());
  return { storage, endpoint };
}

/** Runs once, however often it is called. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

export interface GatewayOptions {
  /** Adapters registered beside the catalogue's (tests use this for providers that exist only in a test). */
  extraProviders?: readonly ProviderAdapter[];
  /**
   * The embedded database's process, already starting (main.ts forks it before the gateway's modules load, so that
   * PGlite starts on the other core meanwhile); without it, and without DATABASE_URL, the start forks it itself.
   */
  embeddedDatabase?: Promise<EmbeddedPostgres>;
}

/** What every step of a start shares: the configuration it fills in, its logger, what it has started and how to stop it. */
interface Start {
  config: Config;
  logger: Logger;
  running: RunningGateway;
  /** Stops, run in reverse on close: a step registers its own after what it depends on. */
  closers: (() => Promise<void>)[];
}

/**
 * Runs steps that do not depend on one another at once (a worker thread, a child process and this thread's module
 * loading overlap), each registering its stops apart; once all have ended, their stops are registered in the order
 * of `steps`, as if they had run one after another, and the first failure is thrown.
 */
async function concurrently<T extends readonly unknown[]>(start: Start, steps: { [K in keyof T]: (start: Start) => Promise<T[K]> }): Promise<T> {
  const own = steps.map(() => [] as (() => Promise<void>)[]);
  const settled = await Promise.allSettled(steps.map((step, index) => step({ ...start, closers: own[index]! })));
  start.closers.push(...own.flat());
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * Starts the chosen components on one database; `close()` stops them in reverse. The steps, in order: the SANDBOX's
 * fake PSP, tracing, the webhook sidecar (its port names the webhook URLs), the database and the providers' modules
 * (these five at once: none needs another), the use cases, the workers, the transports, the object store and the
 * metrics endpoint.
 */
export async function startGateway(input: Config, components: readonly Component[], logger: Logger, options: GatewayOptions = {}): Promise<RunningGateway> {
  // Port 0 means "any free port". Every server binds its own port itself and
  // the port is read back from it: a port picked first and bound later can be
  // taken in between (by another process or an outgoing connection).
  const config = { ...input };
  const closers: (() => Promise<void>)[] = [];
  const running: RunningGateway = {
    config,
    async close() {
      for (const close of closers.splice(0).reverse()) {
        try {
          await close();
        } catch (error) {
          logger.error({ err: error }, 'error while shutting down');
        }
      }
    },
  };
  const start: Start = { config, logger, running, closers };
  const { embeddedDatabase } = options;
  // Stopped last: a start that fails before the database opens leaves no database process behind (once the database
  // has opened, its own close stops the process first, and this finds it stopped).
  if (embeddedDatabase) closers.push(async () => (await embeddedDatabase.catch(() => undefined))?.stop());
  try {
    const withDatabase = needsDatabase(components);
    const none = async () => undefined;
    const [, tracing, sidecar, db, factories] = await concurrently(start, [
      components.includes('sandbox') ? (step: Start) => startSandboxPsp(step, components) : none,
      withDatabase ? startTracingStep : none,
      withDatabase && components.includes('webhooks') ? startSidecar : none,
      withDatabase ? (step: Start) => openStore(step, embeddedDatabase) : none,
      withDatabase ? providerFactories : none,
    ] as const);
    if (!db || !factories) return running;
    const sandboxUrl = config.sandboxPublicUrl ?? running.sandboxUrl ?? `http://${config.host}:${config.sandboxPort}`;
    const { useCases, transactions, metrics, reconciliation } = await assembleUseCases(start, db, {
      sandboxUrl,
      tracer: tracing?.tracer,
      factories,
      options,
    });
    if (components.includes('webhooks') && config.webhookWorkers > 0) startWorkers(start, useCases, transactions, reconciliation);
    if (sidecar) {
      sidecar.serve(useCases.notifications);
      // Registered again here, so that on shutdown it stops taking notifications before the workers stop.
      closers.push(sidecar.close);
    }
    await startTransports(start, components, useCases, db, { metrics, tracer: tracing?.tracer });
    // A configured store serves every process; the embedded one starts with the back-office (Connect), after its
    // port is known so that its CORS lets that origin upload (two processes would fight over S3_PORT otherwise).
    if (config.s3.endpoint || components.includes('connect')) {
      const storage = await objectStorage(config, closers);
      await useCases.uploads.attach(storage.storage);
      running.objectStoreUrl = storage.endpoint;
    }
    if (config.metricsPort !== undefined) {
      // Started last, so it stops first: no scrape reaches a component being shut down.
      const listener = await startMetricsServer({ metrics, logger, host: config.host, port: config.metricsPort });
      closers.push(() => listener.close());
      running.metricsUrl = listener.url;
      config.metricsPort = Number(new URL(listener.url).port);
    }
    return running;
  } catch (error) {
    await running.close();
    throw error;
  }
}

/** Tracing, closed last of the gateway's own parts: once the servers and workers have stopped, their last spans are sent too. */
async function startTracingStep({ config, logger, closers }: Start): Promise<Awaited<ReturnType<typeof startTracing>>> {
  const tracing = await startTracing(config.tracing, logger);
  if (tracing) closers.push(() => tracing.close());
  return tracing;
}

/**
 * The SANDBOX provider's fake PSP, on its own port: in a worker thread when the process also runs the gateway (its
 * work then never takes the gateway's event loop), on this one when it runs alone or SANDBOX_THREAD is off.
 */
async function startSandboxPsp({ config, logger, running, closers }: Start, components: readonly Component[]): Promise<void> {
  const options = {
    host: config.host,
    port: config.sandboxPort,
    stateFile: join(config.dataDir, 'sandbox-state.json'),
    settleDelayMs: config.sandboxSettleMs,
    wholeRecords: config.sandboxWholeRecords,
    pixTtlMs: config.sandboxPixTtlSeconds * 1000,
  };
  let psp: SandboxPspThread | SandboxPsp;
  if (config.sandboxThread && components.some((component) => component !== 'sandbox'))
    psp = running.sandboxThread = await new SandboxPspThread(options, logger).start();
  else psp = running.sandboxPsp = await new SandboxPsp({ ...options, logger }).start();
  closers.push(() => psp.stop());
  running.sandboxUrl = psp.url;
  config.sandboxPort = Number(new URL(psp.url).port);
}

/**
 * The webhook sidecar listens before the services exist because their webhook URLs name its port; until `serve` hands
 * it the notifications use case, it is not ready: /healthz and notifications are answered 503, and providers deliver again.
 */
async function startSidecar({
  config,
  logger,
  running,
  closers,
}: Start): Promise<{ serve(notifications: NotificationsService): void; close(): Promise<void> }> {
  let notifications: NotificationsService | undefined;
  const sidecar = await startWebhookSidecar({
    notifications: {
      intake: (input) => {
        if (!notifications) throw new Error('the gateway is still starting');
        return notifications.intake(input);
      },
    },
    ready: () => notifications !== undefined,
    logger,
    host: config.host,
    port: config.webhookPort,
    maxBodyBytes: config.webhookMaxBodyBytes,
    rate: { perSecond: config.webhookRatePerSecond, burst: config.webhookRateBurst },
  });
  const close = once(() => sidecar.close());
  closers.push(close); // closes it if starting fails further on
  running.webhookUrl = sidecar.url;
  config.webhookPort = Number(new URL(sidecar.url).port);
  return {
    serve(use) {
      notifications = use;
    },
    close,
  };
}

/** The database (embedded without DATABASE_URL), migrated, and the shared keys checked against it. */
async function openStore({ config, logger, running, closers }: Start, embedded: Promise<EmbeddedPostgres> | undefined): Promise<Database> {
  const db = await openDatabase({
    embedded,
    databaseUrl: config.databaseUrl,
    replicaUrls: config.databaseReplicaUrls,
    listenUrl: config.databaseListenUrl,
    dataDir: config.dataDir,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    preparedStatements: config.dbPreparedStatements,
    poolMax: config.dbPoolMax,
    log: (message) => logger.info(stripVTControlCharacters(message)),
  });
  closers.push(() => db.close());
  running.db = db;
  await checkSharedKeys(
    db,
    new KeyFingerprintsRepository(),
    {
      secrets: SecretBox.fromEncodedKey(config.secretsKey, config.secretsKeyOther),
      outboundSecret: config.outboundWebhookSecret,
      outboundSecretChanged: config.outboundWebhookSecretChanged,
    },
    logger,
  );
  return db;
}

/** The use cases on their repositories and the provider registry, this process's liveness and metrics, and the first accounts. */
async function assembleUseCases(
  { config, logger, running, closers }: Start,
  db: Database,
  { sandboxUrl, tracer, factories, options }: { sandboxUrl: string; tracer: Tracer | undefined; factories: ProviderFactory[]; options: GatewayOptions },
): Promise<{ useCases: UseCases; transactions: TransactionsRepository; metrics: GatewayMetrics; reconciliation: ReconciliationService }> {
  const secrets = SecretBox.fromEncodedKey(config.secretsKey, config.secretsKeyOther);
  const events = new StatusEvents(db);
  const outbound = new OutboundRepository();
  // This instance's own metrics registry: one process may run several gateways (the tests do).
  const metrics = new GatewayMetrics(logger);
  const catalogue = await createRegistry({ sandboxUrl, sandboxTimeoutMs: config.sandboxTimeoutMs }, factories);
  for (const adapter of options.extraProviders ?? []) catalogue.register(adapter);
  const registry = observedRegistry(catalogue, metrics, tracer);
  const receivers = new ReceiversRepository(secrets);
  const uploads = new UploadsService({ folder: config.s3.folder, privateUploads: config.s3.privateUploads }, { db, receivers });
  const accounts = new AccountsRepository(secrets, config.accountCacheMs);
  const primaryClient = db.primaryClient;
  if (primaryClient && config.accountCacheMs > 0) {
    // Other processes' changes of accounts drop this one's cached copies; closed before the database.
    const listener = new AccountChangesListener({ connect: () => primaryClient(ACCOUNT_CHANGES_APPLICATION_NAME), target: accounts, logger });
    closers.push(() => listener.close());
    await listener.start();
  }
  // Names this process on the keys it claims; a key whose process stops marking itself alive is confirmed, not left waiting.
  const liveness = new ProcessLiveness(
    { db, logger, processes: new ProcessesRepository() },
    { heartbeatMs: config.processHeartbeatMs, forgetAfterMs: 10 * config.processStaleMs },
  );
  const settingsRepository = new GatewaySettingsRepository();
  const deps = {
    ownUploads: uploads,
    db,
    registry,
    accounts,
    transactions: new TransactionsRepository(outbound, transactionStatusChangedBody),
    withdrawals: new WithdrawalsRepository(),
    outbound,
    receivers,
    notifications: new NotificationsRepository(),
    mismatches: new FlowMismatchesRepository(),
    idempotency: new IdempotencyRepository({ ownerId: liveness.id, staleMs: config.processStaleMs }),
    unknownCheckScheduleMs: config.unknownCheckScheduleMs,
    payoutApprovalAboveCents: config.payoutApprovalAboveCents,
    settings: settingsRepository,
    cardTokens: {
      keys: derivedCardTokenKeys((info) => secrets.deriveKeys(info), config.cardTokens.keyVersion),
      ttlSeconds: config.cardTokens.ttlSeconds,
      uses: new CardTokenUsesRepository(),
    },
    savedCards: { repository: new SavedCardsRepository(), keysFor: (accountId: string) => secrets.deriveKeys(savedCardKeyInfo(accountId)) },
    events,
    webhookBaseUrl: config.webhookPublicUrl ?? `http://${config.host}:${config.webhookPort}`,
    urlPolicy: { privateProviderUrls: config.allowPrivateProviderUrls, privateWebhookUrls: config.allowPrivateWebhookUrls },
    logger,
    observer: metrics,
  };
  const routes = new RoutesService(deps, new RoutesRepository(), config.routeCacheMs);
  const operatorsDeps = {
    db,
    operators: new OperatorsRepository(),
    // From the key as written (not its bytes): how the CSRF key was always made, so sessions' tokens survive an upgrade.
    csrfKeys: [config.secretsKey, ...(config.secretsKeyOther === undefined ? [] : [config.secretsKeyOther])].map((key) =>
      createHmac('sha256', key).update('operator-csrf').digest(),
    ) as [Buffer, ...Buffer[]],
    logger,
    secrets,
  };
  const useCases: UseCases = {
    payments: new PaymentsService(deps, routes),
    routes,
    payouts: new PayoutsService(deps, routes),
    disputes: new DisputesService(deps, new DisputesRepository()),
    settings: new GatewaySettingsService({ ...deps, settings: settingsRepository }),
    accounts: new AccountsService(deps),
    balances: new BalancesService({ ...deps, statements: new StatementRepository() }),
    notifications: new NotificationsService(deps, { ...DEFAULT_PROCESSING, concurrency: config.webhookConcurrency }, config.webhookBadSignatureStoreLimit),
    sandbox: new SandboxService(deps),
    outbound: new OutboundService(deps, { secret: config.outboundWebhookSecret, retryScheduleMs: config.outboundRetryScheduleMs, timeoutMs: 10_000 }),
    events,
    unknownOutcomes: new UnknownOutcomesService(deps, { batch: config.reconcileBatch, leaseMs: 60_000, reapGoneProcesses: () => liveness.reapLocal() }),
    flowMismatches: new FlowMismatchesService(deps),
    access: new AccessService({
      db,
      tokens: new ServiceTokensRepository(),
      audit: new AuditRepository(),
      accounts: deps.accounts,
      apiTokens: config.apiTokens,
      logger,
    }),
    lists: new ListsService({ db, lists: new ListsRepository() }),
    uploads,
    operators: new OperatorsService(operatorsDeps, config.sessions),
    operatorTotp: new OperatorTotpService(operatorsDeps, config.sessions),
  };
  const reconciliation = new ReconciliationService(deps, {
    staleAfterMs: config.reconcileAfterMs,
    pollEveryMs: config.reconcileEveryMs,
    batch: config.reconcileBatch,
  });
  running.useCases = useCases;
  // Registered before the servers start, so that it stops after they have (and before the database closes).
  // A key this process claimed and lost (the database went away mid-call) is settled even if no retry asks for it.
  liveness.onEachBeat(() => deps.idempotency.settleOwnLost(db.em()));
  // What this process counted of provider health joins every process's rows on each beat, and once more on shutdown
  // (registered after liveness, so it runs before it: after the servers stopped, before the database closes).
  routes.health.storeIn(databaseHealthStore(db), logger);
  liveness.onEachBeat(() => routes.health.flush());
  await liveness.start();
  closers.push(() => liveness.stop());
  closers.push(() => routes.health.flush());
  metrics.readFrom({
    notificationQueue: () => useCases.notifications.queueDepth(),
    outboundBacklog: () => useCases.outbound.backlog(),
    poolUsage: () => db.poolUsage(),
    // The routing gauges are per account: charges (what routes weigh), not payouts.
    routingHealth: async () => (await useCases.routes.routingHealth()).filter((row) => row.operation === 'charge'),
    unknownOutcomes: () => useCases.unknownOutcomes.summary(),
    replicaLag: () => db.replicaLag(),
  });
  // Runs before the database closes: a scrape then asks nothing of it.
  closers.push(async () => metrics.stopReading());
  if (db.embedded) {
    running.sandboxAccountId = (await useCases.accounts.ensureSandboxAccount(randomBytes(24).toString('base64url'), randomBytes(24).toString('base64url'))).id;
  }
  const admin = await useCases.operators.ensureFirstAdmin(config.firstAdmin.email, config.firstAdmin.password);
  if (admin) running.firstAdmin = { email: admin.email, ...(config.firstAdmin.generated ? { password: config.firstAdmin.password } : {}) };
  return { useCases, transactions: deps.transactions, metrics, reconciliation };
}

/** The background workers: notifications, outbound deliveries, reconciliation and unknown outcomes. */
function startWorkers(
  { config, logger, closers }: Start,
  useCases: UseCases,
  transactions: TransactionsRepository,
  reconciliation: ReconciliationService,
): void {
  // Started before the sidecar serves, so they stop after it: in-flight notifications still get processed.
  const workers = new Workers(logger)
    .start({ name: 'notifications', run: () => useCases.notifications.processDue(), idleMs: config.workerIdleMs }, config.webhookWorkers)
    .start({ name: 'outbound', run: () => useCases.outbound.deliverDue(), idleMs: config.workerIdleMs })
    .start({ name: 'reconciliation', run: () => reconciliation.reconcileDue(), idleMs: Math.max(config.workerIdleMs, 5_000) })
    .start({
      name: 'unknown-outcomes',
      run: () => useCases.unknownOutcomes.resolveDue(),
      // Also finds the calls of processes that are gone: at least as often as the first check and a process's silence.
      idleMs: Math.max(config.workerIdleMs, Math.min(5_000, config.unknownCheckScheduleMs[0] ?? 5_000, config.processStaleMs)),
    });
  useCases.notifications.onStored(() => workers.wake('notifications'));
  transactions.onOutboundQueued(() => workers.wake('outbound'));
  closers.push(() => workers.stop());
}

/** The gRPC and Connect servers, behind one rate limit, one in-flight limit and one load shedder. */
async function startTransports(
  { config, logger, running, closers }: Start,
  components: readonly Component[],
  useCases: UseCases,
  db: Database,
  { metrics, tracer }: { metrics: GatewayMetrics; tracer: Tracer | undefined },
): Promise<void> {
  // One limit for both transports: a caller switching from gRPC to Connect keeps one budget.
  const rateLimit = CallerRateLimit.of(
    {
      tokens: { perSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst },
      operators: { perSecond: config.operatorRateLimitPerSecond, burst: config.operatorRateLimitBurst },
      publishable: config.publishableRateLimit,
    },
    logger,
  );
  const inFlight = InFlightLimit.of(config.maxInFlight);
  const pressure = LoopPressure.of(config.shedEventLoopDelayMs, { limitMs: config.shedPoolWaitMs, waitMs: () => db.primaryWaits().windowMs() });
  if (pressure) {
    closers.push(async () => pressure.close());
    running.pressure = pressure;
  }
  const server = { useCases, logger, host: config.host, maxRequestBytes: config.maxRequestBytes, rateLimit, inFlight, pressure, rpcObserver: metrics, tracer };
  if (components.includes('grpc')) {
    const grpc = await startGrpcServer({ ...server, port: config.grpcPort });
    closers.push(() => grpc.close());
    running.grpcAddress = `${config.host}:${grpc.port}`;
    config.grpcPort = grpc.port;
  }
  if (components.includes('connect')) {
    const connect = await startConnectServer({
      ...server,
      port: config.httpPort,
      webDir: config.webDir,
      checkout: { checkoutDir: config.checkoutDir, demoMerchantUrl: config.checkoutDemoMerchantUrl },
      sessions: config.sessions,
      corsOrigins: config.corsOrigins,
    });
    closers.push(() => connect.close());
    running.httpUrl = connect.url;
    config.httpPort = Number(new URL(connect.url).port);
  }
}
