import { circuitStates, type CircuitStateName } from '../lib/http/resilience.js';
import type { HealthOf, TargetHealth } from '../domain/routing.js';
import type { TransactionStatus, WithdrawStatus } from '../domain/types.js';

/** How one provider call ended: the charge's or payout's status, or an error. */
export type AttemptOutcome = TransactionStatus | WithdrawStatus | 'error';
/** Which provider call: a charge's (what `best_approval` weighs) or a payout's (shown, never weighed). */
export type HealthOperation = 'charge' | 'payout';

export interface AccountHealth {
  providerAccountId: string;
  provider: string;
  operation: HealthOperation;
  circuitState: CircuitStateName;
  attempts: number;
  approvalRate: number;
  errorRate: number;
  meanLatencyMs: number;
  /** Upper bounds of the histogram buckets the 50th and 95th percentile fall in (LATENCY_BUCKETS_MS). */
  p50LatencyMs: number;
  p95LatencyMs: number;
}

const WINDOW = 200;
/**
 * Upper bounds of the latency histogram, in ms: a percentile is read as the bound of the bucket it falls in, so it
 * is exact to a bucket and costs a counter per bucket. A call slower than the last bound counts in the last bucket.
 */
export const LATENCY_BUCKETS_MS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000] as const;
const bucketOf = (ms: number) => {
  const index = LATENCY_BUCKETS_MS.findIndex((bound) => ms <= bound);
  return index === -1 ? LATENCY_BUCKETS_MS.length - 1 : index;
};
/** Fewer answers than this in the window: `best_approval` does not trust the rate yet (counts it as unknown). */
export const MIN_ANSWERS_FOR_RATE = 10;
const SEVERITY: Record<CircuitStateName, number> = { closed: 0, 'half-open': 1, open: 2 };

/** One account's last WINDOW attempts as a ring, with running sums so that reading a rate is arithmetic, not a pass. */
class AttemptWindow {
  private readonly outcomes: AttemptOutcome[] = [];
  private readonly times: number[] = [];
  private next = 0;
  answered = 0;
  notRejected = 0;
  errors = 0;
  totalMs = 0;
  private readonly buckets: number[] = LATENCY_BUCKETS_MS.map(() => 0);

  get size(): number {
    return this.outcomes.length;
  }

  /** The bound of the bucket that holds the `share` (0 to 1) quantile of the window's latencies; 0 when empty. */
  percentileMs(share: number): number {
    if (!this.size) return 0;
    const rank = Math.ceil(share * this.size);
    let seen = 0;
    for (const [index, count] of this.buckets.entries()) if ((seen += count) >= rank) return LATENCY_BUCKETS_MS[index]!;
    return LATENCY_BUCKETS_MS.at(-1)!;
  }

  private count(outcome: AttemptOutcome, ms: number, sign: 1 | -1): void {
    if (outcome === 'error') this.errors += sign;
    else {
      this.answered += sign;
      if (outcome !== 'REJECTED') this.notRejected += sign;
    }
    this.totalMs += sign * ms;
    this.buckets[bucketOf(ms)]! += sign;
  }

  push(outcome: AttemptOutcome, ms: number): void {
    if (this.outcomes.length === WINDOW) this.count(this.outcomes[this.next]!, this.times[this.next]!, -1);
    this.outcomes[this.next] = outcome;
    this.times[this.next] = ms;
    this.next = (this.next + 1) % WINDOW;
    this.count(outcome, ms, 1);
  }
}

const worstCircuit = (accountId: string): CircuitStateName =>
  circuitStates()
    .filter((circuit) => circuit.accountId === accountId)
    .reduce<CircuitStateName>((worst, circuit) => (SEVERITY[circuit.state] > SEVERITY[worst] ? circuit.state : worst), 'closed');

/**
 * The last provider calls of charges and of payouts at each account in this process (a ring of WINDOW each), recorded
 * where the call is made, routed or direct, for GetRoutingHealth, /metrics and `best_approval` (charges only). Kept in
 * memory since `since`: a view of the recent past, not a record, and it costs a push per provider call.
 */
export class RoutingHealth {
  private readonly windows: Record<HealthOperation, Map<string, AttemptWindow>> = { charge: new Map(), payout: new Map() };
  readonly since = new Date();

  recorded(providerAccountId: string, outcome: AttemptOutcome, ms: number, operation: HealthOperation = 'charge'): void {
    const windows = this.windows[operation];
    let window = windows.get(providerAccountId);
    if (!window) windows.set(providerAccountId, (window = new AttemptWindow()));
    window.push(outcome, ms);
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

  /** The accounts with a call of either kind in the windows. */
  accountIds(): string[] {
    return [...new Set([...this.windows.charge.keys(), ...this.windows.payout.keys()])];
  }

  /** What `best_approval` weighs: the rate once there are MIN_ANSWERS_FOR_RATE answers, and whether a circuit is open. */
  targetHealth(providerAccountId: string, openCircuits: ReadonlySet<string>): TargetHealth {
    const window = this.windows.charge.get(providerAccountId);
    const approvalRate = window && window.answered >= MIN_ANSWERS_FOR_RATE ? window.notRejected / window.answered : undefined;
    return { approvalRate, circuitOpen: openCircuits.has(providerAccountId) };
  }

  /** A charge row for each account given (none tried yet: zeros), and a payout row for each that made payouts. */
  of(accounts: { id: string; provider: string }[]): AccountHealth[] {
    return accounts.flatMap(({ id, provider }) =>
      (['charge', 'payout'] as const)
        .filter((operation) => operation === 'charge' || this.windows.payout.has(id))
        .map((operation): AccountHealth => {
          const window = this.windows[operation].get(id);
          const attempts = window?.size ?? 0;
          return {
            providerAccountId: id,
            provider,
            operation,
            circuitState: worstCircuit(id),
            attempts,
            approvalRate: window?.answered ? window.notRejected / window.answered : 0,
            errorRate: attempts ? window!.errors / attempts : 0,
            meanLatencyMs: attempts ? window!.totalMs / attempts : 0,
            p50LatencyMs: window?.percentileMs(0.5) ?? 0,
            p95LatencyMs: window?.percentileMs(0.95) ?? 0,
          };
        }),
    );
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
