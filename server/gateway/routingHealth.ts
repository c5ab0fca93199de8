import { circuitStates, type CircuitStateName } from '../lib/http/resilience.js';
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
const SEVERITY: Record<CircuitStateName, number> = { closed: 0, 'half-open': 1, open: 2 };

/**
 * The last attempts at each account in this process (a ring of WINDOW), for GetRoutingHealth. Kept in memory: it is
 * a view of the recent past, not a record, and costs a push per charge.
 */
export class RoutingHealth {
  private readonly windows = new Map<string, { outcome: AttemptOutcome; ms: number }[]>();

  recorded(providerAccountId: string, outcome: AttemptOutcome, ms: number): void {
    let window = this.windows.get(providerAccountId);
    if (!window) this.windows.set(providerAccountId, (window = []));
    window.push({ outcome, ms });
    if (window.length > WINDOW) window.shift();
  }

  of(accounts: { id: string; provider: string }[]): AccountHealth[] {
    const circuits = circuitStates();
    return accounts.map(({ id, provider }) => {
      const window = this.windows.get(id) ?? [];
      const answered = window.filter((attempt) => attempt.outcome !== 'error');
      const circuitState = circuits
        .filter((circuit) => circuit.accountId === id)
        .reduce<CircuitStateName>((worst, circuit) => (SEVERITY[circuit.state] > SEVERITY[worst] ? circuit.state : worst), 'closed');
      return {
        providerAccountId: id,
        provider,
        circuitState,
        attempts: window.length,
        approvalRate: answered.length ? answered.filter((attempt) => attempt.outcome !== 'REJECTED').length / answered.length : 0,
        errorRate: window.length ? (window.length - answered.length) / window.length : 0,
        meanLatencyMs: window.length ? window.reduce((sum, attempt) => sum + attempt.ms, 0) / window.length : 0,
      };
    });
  }
}
