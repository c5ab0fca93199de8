import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { certificateExpiries, circuitStates, type CircuitStateName } from '../lib/http/index.js';
import type { Logger } from '../lib/logger.js';

interface PoolUsage {
  pool: string;
  used: number;
  idle: number;
  pending: number;
  max: number;
}

/** One account some route targets, as GetRoutingHealth answers it (gateway/routingHealth.ts). */
interface RoutedAccountHealth {
  providerAccountId: string;
  provider: string;
  attempts: number;
  approvalRate: number;
  errorRate: number;
  meanLatencyMs: number;
}

/** What is read from the database on each scrape (the use cases and the ORM answer it). */
export interface ScrapeSources {
  /** The queue's size by state, and when the oldest notification no worker has taken yet was received. */
  notificationQueue(): Promise<{ received: number; processing: number; retrying: number; oldestReceivedAt?: Date }>;
  outboundBacklog(): Promise<{ due: number; scheduled: number }>;
  poolUsage(): Promise<PoolUsage[]>;
  /** The accounts routes target, with their recent routed attempts in this process. */
  routingHealth?(): Promise<RoutedAccountHealth[]>;
  /** Requests whose provider call ended without a known outcome, and when the oldest of them became unknown. */
  unknownOutcomes?(): Promise<{ count: number; oldestSince?: Date }>;
  /** How far behind the primary each replica pool's server replays, in seconds. */
  replicaLag?(): Promise<{ pool: string; seconds: number }[]>;
}

/**
 * Sets a gauge without labels, or leaves it out of the scrape when its value could not be read: prom-client shows
 * such a gauge as 0 once reset, which would say "nothing waits" when nobody knows.
 */
function showOrOmit(gauge: Gauge, value: number | undefined): void {
  if (value === undefined) gauge.remove();
  else gauge.set(value);
}

/** Seconds from `since` to now; 0 when there is nothing waiting. */
const ageSeconds = (since: Date | undefined, now = Date.now()) => (since ? Math.max(0, (now - since.getTime()) / 1000) : 0);

/** gateway_circuit_state's values: the higher, the worse. */
const CIRCUIT_VALUES: Record<CircuitStateName, number> = { closed: 0, 'half-open': 1, open: 2 };

/** Calls in milliseconds to tens of seconds (a provider may take up to its 25 s timeout). */
const RPC_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const PROVIDER_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 30];

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, event loop, GC, handles), once per
 * process: they describe the process, whichever gateway serves them, and
 * prom-client's collectors for them are never released (an event-loop monitor
 * and a GC observer per call), so collecting them per gateway would leak
 * where one process starts many (the tests).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The metrics of one gateway instance, in a registry of its own (never
 * prom-client's global one: one process may run several gateways). It is the
 * observer the transports, the provider registry and the use cases report to,
 * and reads queue sizes and pool usage from the database on each scrape.
 */
export class GatewayMetrics {
  private readonly registry = new Registry();
  private sources?: ScrapeSources;
  /** The pools as the current scrape found them. */
  private pools: PoolUsage[] = [];
  /** The routed accounts as the current scrape found them. */
  private routed: RoutedAccountHealth[] = [];
  /** The notification queue as the current scrape found it; undefined when it could not be read. */
  private queue?: Awaited<ReturnType<ScrapeSources['notificationQueue']>>;
  /** The unknown outcomes as the current scrape found them; undefined when they could not be read. */
  private unknown?: { count: number; oldestSince?: Date };
  /** Each replica's lag as the current scrape found it. */
  private replicaLags: { pool: string; seconds: number }[] = [];

  private readonly rpcRequests = new Counter({
    name: 'gateway_rpc_requests_total',
    help: 'RPCs over gRPC and Connect, by method and the code they ended with (streams count when they end).',
    labelNames: ['method', 'code'] as const,
    registers: [this.registry],
  });
  private readonly rpcDuration = new Histogram({
    name: 'gateway_rpc_duration_seconds',
    help: 'How long unary RPCs took in the gateway, from admission to answer, by method and the code they ended with.',
    labelNames: ['method', 'code'] as const,
    buckets: RPC_BUCKETS,
    registers: [this.registry],
  });
  private readonly providerCalls = new Counter({
    name: 'gateway_provider_calls_total',
    help: 'Calls to providers by provider, operation and outcome (ok, rejected, unavailable, unknown, circuit_open).',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly providerDuration = new Histogram({
    name: 'gateway_provider_call_duration_seconds',
    help: 'How long calls to providers took, by provider, operation and outcome.',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    buckets: PROVIDER_BUCKETS,
    registers: [this.registry],
  });
  private readonly notificationsReceived = new Counter({
    name: 'gateway_webhook_notifications_received_total',
    help: 'Provider notifications received for a known account, by provider.',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  private readonly notificationsProcessed = new Counter({
    name: 'gateway_webhook_notifications_processed_total',
    help: 'Provider notifications processed, by provider and outcome (APPLIED, DUPLICATE, MISMATCH, …; REJECTED includes bad signatures refused at intake).',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly outboundDeliveries = new Counter({
    name: 'gateway_outbound_deliveries_total',
    help: "Delivery attempts to callers' webhook_url, by outcome (delivered; failed, to be retried; gave_up, failed for the last time).",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(private readonly logger: Logger) {
    processMetrics();
    new Gauge({
      name: 'gateway_circuit_state',
      help: "Each provider account's circuit breaker: 0 closed, 1 half-open, 2 open (the worst of the account's hosts). Circuits are per process.",
      labelNames: ['provider', 'provider_account_id'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const worst = new Map<string, { provider: string; provider_account_id: string; value: number }>();
        for (const circuit of circuitStates()) {
          const labels = { provider: circuit.provider || 'unknown', provider_account_id: circuit.accountId };
          const key = `${labels.provider}\n${labels.provider_account_id}`;
          worst.set(key, { ...labels, value: Math.max(worst.get(key)?.value ?? 0, CIRCUIT_VALUES[circuit.state]) });
        }
        for (const { value, ...labels } of worst.values()) this.set(labels, value);
      },
    });
    new Gauge({
      name: 'gateway_provider_certificate_expiry_timestamp_seconds',
      help: 'When the client certificate a provider account presents over mTLS expires (Unix time), per certificate (cashIn, cashOut); known once this process has loaded it for a call.',
      labelNames: ['provider', 'provider_account_id', 'certificate'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const expiry of certificateExpiries())
          this.set(
            { provider: expiry.provider || 'unknown', provider_account_id: expiry.accountId, certificate: expiry.certificate },
            expiry.notAfter.getTime() / 1000,
          );
      },
    });
    const queue: Gauge<'state'> = new Gauge({
      name: 'gateway_webhook_queue_depth',
      help: 'Provider notifications waiting to be processed: received (new), processing (held by a worker), retrying (failed or unknown subject, retry scheduled).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: () => {
        queue.reset();
        const depth = this.queue;
        if (depth) for (const state of ['received', 'processing', 'retrying'] as const) queue.set({ state }, depth[state]);
      },
    });
    const oldestWaiting: Gauge = new Gauge({
      name: 'gateway_webhook_queue_oldest_seconds',
      help: 'Age of the oldest provider notification no worker has taken yet (state received), in seconds; 0 when none waits.',
      registers: [this.registry],
      collect: () => {
        showOrOmit(oldestWaiting, this.queue && ageSeconds(this.queue.oldestReceivedAt));
      },
    });
    const unknownCount: Gauge = new Gauge({
      name: 'gateway_unknown_outcomes',
      help: 'Requests whose provider call ended without a known outcome, held until the provider or an operator confirms them (ListUnconfirmedRequests).',
      registers: [this.registry],
      collect: () => {
        showOrOmit(unknownCount, this.unknown?.count);
      },
    });
    const unknownOldest: Gauge = new Gauge({
      name: 'gateway_unknown_outcome_oldest_seconds',
      help: 'How long the oldest of those requests has waited since its outcome became unknown, in seconds; 0 when none waits.',
      registers: [this.registry],
      collect: () => {
        showOrOmit(unknownOldest, this.unknown && ageSeconds(this.unknown.oldestSince));
      },
    });
    const replicaLag: Gauge = new Gauge({
      name: 'gateway_db_replica_lag_seconds',
      help: 'How far each replica (pool replica-n) replays behind the primary, in seconds: 0 when it has replayed all it received.',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect: () => {
        replicaLag.reset();
        for (const { pool, seconds } of this.replicaLags) replicaLag.set({ pool }, seconds);
      },
    });
    const backlog: Gauge<'state'> = new Gauge({
      name: 'gateway_outbound_backlog',
      help: "Deliveries to callers' webhook_url not yet made nor given up: due (their time has come) or scheduled (waiting for a retry).",
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: async () => {
        backlog.reset();
        const pending = await this.fromDatabase('gateway_outbound_backlog', (sources) => sources.outboundBacklog());
        if (pending) for (const state of ['due', 'scheduled'] as const) backlog.set({ state }, pending[state]);
      },
    });
    const poolGauge = (name: string, help: string, labelNames: readonly string[], read: (usage: PoolUsage) => [Record<string, string>, number][]) => {
      const gauge: Gauge = new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        collect: () => {
          gauge.reset();
          for (const usage of this.pools) for (const [labels, value] of read(usage)) gauge.set({ pool: usage.pool, ...labels }, value);
        },
      });
    };
    poolGauge(
      'gateway_db_pool_connections',
      'Database connections of each pool (primary, replica-n): used (lent to a query) or idle.',
      ['pool', 'state'],
      (usage) => [
        [{ state: 'used' }, usage.used],
        [{ state: 'idle' }, usage.idle],
      ],
    );
    poolGauge('gateway_db_pool_pending_acquires', 'Queries waiting for a database connection, per pool.', ['pool'], (usage) => [[{}, usage.pending]]);
    poolGauge('gateway_db_pool_max_connections', 'The most connections each pool opens.', ['pool'], (usage) => [[{}, usage.max]]);
    const routingGauge = (name: string, help: string, read: (health: RoutedAccountHealth) => number) => {
      const gauge: Gauge = new Gauge({
        name,
        help: `${help} Over the last hour, summed over every gateway process on the database (GetRoutingHealth); the circuit is gateway_circuit_state.`,
        labelNames: ['provider', 'provider_account_id'],
        registers: [this.registry],
        collect: () => {
          gauge.reset();
          for (const health of this.routed) gauge.set({ provider: health.provider || 'unknown', provider_account_id: health.providerAccountId }, read(health));
        },
      });
    };
    routingGauge('gateway_routing_attempts', 'Routed charge attempts in the window, per account some route targets.', (health) => health.attempts);
    routingGauge(
      'gateway_routing_approval_rate',
      'Share of the answered routed attempts the provider did not reject (0 to 1), what best_approval ranks by.',
      (health) => health.approvalRate,
    );
    routingGauge(
      'gateway_routing_error_rate',
      'Share of the routed attempts that ended in an error: not sent, refused or unknown (0 to 1).',
      (health) => health.errorRate,
    );
    routingGauge('gateway_routing_attempt_mean_seconds', 'Mean time of a routed attempt, in seconds.', (health) => health.meanLatencyMs / 1000);
  }

  /** From now on, scrapes read the queues and pools from these. */
  readFrom(sources: ScrapeSources): void {
    this.sources = sources;
  }

  /** Scrapes stop reading the database (before it closes: asking a closed ORM would open it again). */
  stopReading(): void {
    this.sources = undefined;
  }

  /** A value read from the database; undefined when the database is gone or the read fails (the gauge is then absent: an absent series alerts, a stale one lies). */
  private async fromDatabase<T>(name: string, read: (sources: ScrapeSources) => Promise<T>): Promise<T | undefined> {
    const sources = this.sources;
    if (!sources) return undefined;
    try {
      return await read(sources);
    } catch (error) {
      this.logger.warn({ err: error, metric: name }, 'could not read a metric from the database');
      return undefined;
    }
  }

  rpcHandled(method: string, code: string, seconds?: number): void {
    this.rpcRequests.inc({ method, code });
    if (seconds !== undefined) this.rpcDuration.observe({ method, code }, seconds);
  }

  providerCall(call: { provider: string; operation: string; outcome: string; seconds: number }): void {
    this.providerCalls.inc({ provider: call.provider, operation: call.operation, outcome: call.outcome });
    this.providerDuration.observe({ provider: call.provider, operation: call.operation, outcome: call.outcome }, call.seconds);
  }

  notificationReceived(provider: string): void {
    this.notificationsReceived.inc({ provider });
  }

  notificationProcessed(provider: string, outcome: string): void {
    this.notificationsProcessed.inc({ provider, outcome });
  }

  outboundAttempt(outcome: string): void {
    this.outboundDeliveries.inc({ outcome });
  }

  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;

  /** The text a scrape gets: the process's metrics, then this gateway's. */
  async exposition(): Promise<string> {
    // The pools are read first, before this scrape's own queries borrow connections from them.
    this.pools = (await this.fromDatabase('gateway_db_pool_*', (sources) => sources.poolUsage())) ?? [];
    this.queue = await this.fromDatabase('gateway_webhook_queue_depth', (sources) => sources.notificationQueue());
    this.routed = (await this.fromDatabase('gateway_routing_*', async (sources) => (await sources.routingHealth?.()) ?? [])) ?? [];
    this.unknown = await this.fromDatabase('gateway_unknown_outcome*', async (sources) => sources.unknownOutcomes?.());
    this.replicaLags = (await this.fromDatabase('gateway_db_replica_lag_seconds', async (sources) => (await sources.replicaLag?.()) ?? [])) ?? [];
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${process}${own}`;
  }
}
