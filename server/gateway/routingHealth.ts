import { circuitStates, type CircuitStateName } from '../lib/http/resilience.js';
import type { HealthOf, TargetHealth } from '../domain/routing.js';
import type { TransactionStatus } from '../domain/types.js';

/** How one attempt at an account ended: the charge's status, or an error. */
export type AttemptOutcome = TransactionStatus | 'error';

export interface AccountHealth {
  providerAccountId: string;
  provider: string;
  circuitState: CircuitStateName;
  attempts: number;
  approvalRate: number;
  errorRate: number;
  meanLatencyMs: number;
}

const WINDOW = 200;
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

  get size(): number {
    return this.outcomes.length;
  }

  private count(outcome: AttemptOutcome, ms: number, sign: 1 | -1): void {
    if (outcome === 'error') this.errors += sign;
    else {
      this.answered += sign;
      if (outcome !== 'REJECTED') this.notRejected += sign;
    }
    this.totalMs += sign * ms;
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
 * The last attempts at each account in this process (a ring of WINDOW), for GetRoutingHealth, /metrics and
 * `best_approval`. Kept in memory: it is a view of the recent past, not a record, and costs a push per charge.
 */
export class RoutingHealth {
  private readonly windows = new Map<string, AttemptWindow>();

  recorded(providerAccountId: string, outcome: AttemptOutcome, ms: number): void {
    let window = this.windows.get(providerAccountId);
    if (!window) this.windows.set(providerAccountId, (window = new AttemptWindow()));
    window.push(outcome, ms);
  }

  /** What `best_approval` weighs: the rate once there are MIN_ANSWERS_FOR_RATE answers, and whether a circuit is open. */
  targetHealth(providerAccountId: string, openCircuits: ReadonlySet<string>): TargetHealth {
    const window = this.windows.get(providerAccountId);
    const approvalRate = window && window.answered >= MIN_ANSWERS_FOR_RATE ? window.notRejected / window.answered : undefined;
    return { approvalRate, circuitOpen: openCircuits.has(providerAccountId) };
  }

  of(accounts: { id: string; provider: string }[]): AccountHealth[] {
    return accounts.map(({ id, provider }) => {
      const window = this.windows.get(id);
      const attempts = window?.size ?? 0;
      return {
        providerAccountId: id,
        provider,
        circuitState: worstCircuit(id),
        attempts,
        approvalRate: window?.answered ? window.notRejected / window.answered : 0,
        errorRate: attempts ? window!.errors / attempts : 0,
        meanLatencyMs: attempts ? window!.totalMs / attempts : 0,
      };
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
