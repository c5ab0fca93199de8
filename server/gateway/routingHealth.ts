import { circuitStates, type CircuitStateName } from '../lib/http/resilience.js';
import type { Logger } from '../lib/logger.js';
import type { Database } from '../db/orm.js';
import { ProviderHealthRepository, type ProviderHealthBucket } from '../db/providerHealthRepository.js';
import type { HealthOf, TargetHealth } from '../domain/routing.js';
import { addCounts, countCall, emptyCounts, percentileMs, type AttemptOutcome, type HealthCounts } from './healthCounts.js';

export { LATENCY_BUCKETS_MS, type AttemptOutcome } from './healthCounts.js';

/** Which provider call: a charge's (what `best_approval` weighs) or a payout's (shown, never weighed). */
export type HealthOperation = 'charge' | 'payout';

export interface AccountHealth {
  providerAccountId: string;
  provider: string;
  operation: HealthOperation;
  /** This process's circuits: a breaker is local to the process that calls through it. */
  circuitState: CircuitStateName;
  attempts: number;
  approvalRate: number;
  errorRate: number;
  meanLatencyMs: number;
  /** Upper bounds of the histogram buckets the 50th and 95th percentile fall in (LATENCY_BUCKETS_MS). */
  p50LatencyMs: number;
  p95LatencyMs: number;
}

const MINUTE_MS = 60_000;
/** What GetRoutingHealth sums: the minutes of the last hour, the current one included. */
export const HEALTH_WINDOW_MS = 60 * MINUTE_MS;
/** How long minute rows are kept in the database before a flush prunes them. */
export const HEALTH_KEEP_MS = 24 * 60 * MINUTE_MS;
const PRUNE_EVERY_MS = 10 * MINUTE_MS;

/** `best_approval` weighs each account's last RING charges in this process. */
const RING = 200;
/** Fewer answers than this in the ring: `best_approval` does not trust the rate yet (counts it as unknown). */
export const MIN_ANSWERS_FOR_RATE = 10;
const SEVERITY: Record<CircuitStateName, number> = { closed: 0, 'half-open': 1, open: 2 };

/** Where minute counts are summed: the database (every process), or memory (one process, for tests). */
export interface HealthStore {
  add(buckets: readonly ProviderHealthBucket[]): Promise<void>;
  since(from: Date): Promise<ProviderHealthBucket[]>;
  prune(before: Date): Promise<unknown>;
}

const keyOf = (bucket: Pick<ProviderHealthBucket, 'providerAccountId' | 'operation' | 'bucketStart'>) =>
  `${bucket.operation} ${bucket.providerAccountId} ${bucket.bucketStart.getTime()}`;

const newBucket = (providerAccountId: string, operation: HealthOperation, bucketStart: Date): ProviderHealthBucket => ({
  providerAccountId,
  operation,
  bucketStart,
  ...emptyCounts(),
});

/** Minute buckets keyed by account, operation and minute, each summed in place. */
class Buckets extends Map<string, ProviderHealthBucket> {
  addAll(buckets: Iterable<ProviderHealthBucket>): void {
    for (const bucket of buckets) {
      const key = keyOf(bucket);
      const mine = this.get(key);
      if (mine) addCounts(mine, bucket);
      else this.set(key, { ...bucket, latencyCounts: [...bucket.latencyCounts] });
    }
  }
}

/** Minute counts kept in this process only: what a RoutingHealth without the database sums (the unit tests). */
export class MemoryHealthStore implements HealthStore {
  private readonly buckets = new Buckets();

  add(buckets: readonly ProviderHealthBucket[]): Promise<void> {
    this.buckets.addAll(buckets);
    return Promise.resolve();
  }

  since(from: Date): Promise<ProviderHealthBucket[]> {
    return Promise.resolve([...this.buckets.values()].filter((bucket) => bucket.bucketStart >= from));
  }

  prune(before: Date): Promise<unknown> {
    for (const [key, bucket] of this.buckets) if (bucket.bucketStart < before) this.buckets.delete(key);
    return Promise.resolve();
  }
}

/** The provider_health table on the primary, shared by every gateway process on the database. */
export function databaseHealthStore(db: Database, repository = new ProviderHealthRepository()): HealthStore {
  return {
    add: (buckets) => repository.add(db.em(), buckets),
    since: (from) => repository.since(db.em(), from),
    prune: (before) => repository.prune(db.em(), before),
  };
}

/** One account's last RING charges as a ring, with running sums so that reading a rate is arithmetic, not a pass. */
class AttemptRing {
  private readonly outcomes: AttemptOutcome[] = [];
  private readonly times: number[] = [];
  private next = 0;
  readonly counts = emptyCounts();

  push(outcome: AttemptOutcome, ms: number): void {
    if (this.outcomes.length === RING) countCall(this.counts, this.outcomes[this.next]!, this.times[this.next]!, -1);
    this.outcomes[this.next] = outcome;
    this.times[this.next] = ms;
    this.next = (this.next + 1) % RING;
    countCall(this.counts, outcome, ms);
  }
}

/** Each account's counts per operation over a window, every process's summed, with the window's first minute. */
export interface HealthFigures {
  since: Date;
  accounts: Map<string, Partial<Record<HealthOperation, HealthCounts>>>;
}

const worstCircuit = (accountId: string): CircuitStateName =>
  circuitStates()
    .filter((circuit) => circuit.accountId === accountId)
    .reduce<CircuitStateName>((worst, circuit) => (SEVERITY[circuit.state] > SEVERITY[worst] ? circuit.state : worst), 'closed');

export interface RoutingHealthOptions {
  store?: HealthStore;
  logger?: Pick<Logger, 'warn' | 'info'>;
  /** The clock, in ms since the epoch (tests move it). */
  now?: () => number;
}

/**
 * Provider calls of charges and payouts at each account, recorded where the call is made, routed or direct, for
 * GetRoutingHealth, /metrics and `best_approval` (charges only).
 *
 * A call costs this process two in-memory additions and no database work: one to the account's ring of its last
 * RING charges (what `best_approval` weighs, per process), one to the account's counts of the current minute. `flush`
 * (on each beat of the process, and on shutdown) adds the minutes counted since the last flush to the store in one
 * statement; a flush that fails keeps them in memory for the next one and is logged once, never failing a call.
 * `figures` sums the store's minutes of the last HEALTH_WINDOW_MS and this process's not yet flushed, so that every
 * process answers alike and a restart forgets nothing it flushed. The circuit stays this process's own.
 */
export class RoutingHealth {
  private readonly rings = new Map<string, AttemptRing>();
  private pending = new Buckets();
  private store: HealthStore;
  private logger?: Pick<Logger, 'warn' | 'info'>;
  private readonly now: () => number;
  /** Flushes and reads one at a time: a read never sees a batch both in the store and still in memory, nor in neither. */
  private turn: Promise<unknown> = Promise.resolve();
  private storing = true;
  private prunedAt = -Infinity;

  constructor(options: RoutingHealthOptions = {}) {
    this.store = options.store ?? new MemoryHealthStore();
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
  }

  /** Sums the counts in `store` from now on (set once, at assembly, before any call is counted). */
  storeIn(store: HealthStore, logger: Pick<Logger, 'warn' | 'info'>): void {
    this.store = store;
    this.logger = logger;
  }

  /** The first minute of the window GetRoutingHealth sums now. */
  get since(): Date {
    return new Date(Math.floor(this.now() / MINUTE_MS) * MINUTE_MS - HEALTH_WINDOW_MS + MINUTE_MS);
  }

  recorded(providerAccountId: string, outcome: AttemptOutcome, ms: number, operation: HealthOperation = 'charge'): void {
    if (operation === 'charge') {
      let ring = this.rings.get(providerAccountId);
      if (!ring) this.rings.set(providerAccountId, (ring = new AttemptRing()));
      ring.push(outcome, ms);
    }
    const minute = Math.floor(this.now() / MINUTE_MS) * MINUTE_MS;
    const key = `${operation} ${providerAccountId} ${minute}`;
    let bucket = this.pending.get(key);
    if (!bucket) this.pending.set(key, (bucket = newBucket(providerAccountId, operation, new Date(minute))));
    countCall(bucket, outcome, ms);
  }

  /** Times `call` (a provider call) and records how it ended: its answer's status, or an error (then thrown on). */
  async timed<T extends { status: AttemptOutcome }>(providerAccountId: string, operation: HealthOperation, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const answer = await call();
      this.recorded(providerAccountId, answer.status, performance.now() - started, operation);
      return answer;
    } catch (error) {
      this.recorded(providerAccountId, 'error', performance.now() - started, operation);
      throw error;
    }
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work, work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /**
   * Adds what was counted since the last flush to the store, and every PRUNE_EVERY_MS forgets minutes older than
   * HEALTH_KEEP_MS. Never rejects: when the store fails, the counts go back to memory for the next flush (minutes past
   * HEALTH_KEEP_MS dropped, so that a long outage cannot fill the memory), logged once until a flush succeeds again.
   */
  flush(): Promise<void> {
    return this.inTurn(async () => {
      const batch = this.pending;
      this.pending = new Buckets();
      try {
        await this.store.add([...batch.values()]);
        const now = this.now();
        if (now - this.prunedAt >= PRUNE_EVERY_MS) {
          await this.store.prune(new Date(now - HEALTH_KEEP_MS));
          this.prunedAt = now;
        }
        if (!this.storing) this.logger?.info('provider health is stored again');
        this.storing = true;
      } catch (error) {
        const kept = new Date(this.now() - HEALTH_KEEP_MS);
        this.pending.addAll([...batch.values()].filter((bucket) => bucket.bucketStart >= kept));
        if (this.storing) this.logger?.warn({ err: error }, 'could not store provider health: counting on in memory, tried again at each flush (logged once)');
        this.storing = false;
      }
    });
  }

  /** Every process's counts of the window (from the store) plus this process's not yet flushed. */
  figures(): Promise<HealthFigures> {
    return this.inTurn(async () => {
      const since = this.since;
      const stored = await this.store.since(since);
      const accounts: HealthFigures['accounts'] = new Map();
      for (const bucket of [...stored, ...this.pending.values()]) {
        if (bucket.bucketStart < since) continue;
        let operations = accounts.get(bucket.providerAccountId);
        if (!operations) accounts.set(bucket.providerAccountId, (operations = {}));
        addCounts((operations[bucket.operation] ??= emptyCounts()), bucket);
      }
      return { since, accounts };
    });
  }

  /** What `best_approval` weighs: the rate once there are MIN_ANSWERS_FOR_RATE answers, and whether a circuit is open. */
  targetHealth(providerAccountId: string, openCircuits: ReadonlySet<string>): TargetHealth {
    const counts = this.rings.get(providerAccountId)?.counts;
    const approvalRate = counts && counts.answered >= MIN_ANSWERS_FOR_RATE ? counts.notRejected / counts.answered : undefined;
    return { approvalRate, circuitOpen: openCircuits.has(providerAccountId) };
  }

  /** A charge row for each account given (none tried yet: zeros), and a payout row for each that made payouts. */
  of(accounts: { id: string; provider: string }[], figures: HealthFigures): AccountHealth[] {
    return accounts.flatMap(({ id, provider }) => {
      const operations = figures.accounts.get(id) ?? {};
      return (['charge', 'payout'] as const)
        .filter((operation) => operation === 'charge' || operations.payout)
        .map((operation): AccountHealth => {
          const counts = operations[operation] ?? emptyCounts();
          const attempts = counts.calls;
          return {
            providerAccountId: id,
            provider,
            operation,
            circuitState: worstCircuit(id),
            attempts,
            approvalRate: counts.answered ? counts.notRejected / counts.answered : 0,
            errorRate: attempts ? counts.errors / attempts : 0,
            meanLatencyMs: attempts ? counts.totalMs / attempts : 0,
            p50LatencyMs: percentileMs(counts.latencyCounts, 0.5),
            p95LatencyMs: percentileMs(counts.latencyCounts, 0.95),
          };
        });
    });
  }
}

/** The accounts with an open circuit now (at any of their hosts), read once per decision. */
export function accountsWithOpenCircuit(): Set<string> {
  const open = new Set<string>();
  for (const circuit of circuitStates()) if (circuit.state === 'open') open.add(circuit.accountId);
  return open;
}

/** For one decision: each target's recent approval rate and circuit, the circuits read once and only if asked. */
export function healthForDecision(health: RoutingHealth): HealthOf {
  let open: Set<string> | undefined;
  return (providerAccountId) => health.targetHealth(providerAccountId, (open ??= accountsWithOpenCircuit()));
}
