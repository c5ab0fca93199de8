import { isGatewayError } from '../lib/errors.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { refusedAnswer } from './flowIntegrity.js';
import { moveSubjectStatus, TRANSACTIONS } from './subjects.js';

export interface ReconciliationOptions {
  /** A pending charge with no news for this long is asked about (expired ones at once). */
  staleAfterMs: number;
  /** The same charge is asked about at most this often. */
  pollEveryMs: number;
  /** At most this many provider calls per round: a bounded rate. */
  batch: number;
}

/** Heals lost notifications: asks providers about charges still PENDING past their expiry or long silent. */
export class ReconciliationService {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: ReconciliationOptions,
  ) {}

  async reconcileDue(): Promise<number> {
    const due = await this.deps.transactions.claimForReconciliation(this.deps.db.em(), { ...this.options, limit: this.options.batch });
    for (const transaction of due) {
      try {
        const { adapter, ctx } = await resolveAccount(this.deps, transaction.providerAccountId, { includeDeleted: true });
        if (!adapter.supports('getTransaction')) continue;
        const current = await TRANSACTIONS.askProvider(adapter, ctx, transaction.transactionId);
        if (!(await refusedAnswer(this.deps, TRANSACTIONS, transaction, current, 'poll')))
          await moveSubjectStatus(this.deps, TRANSACTIONS, transaction.id, current.status, 'poll');
      } catch (error) {
        this.deps.logger.warn(
          { transactionId: transaction.id, err: isGatewayError(error) ? error.message : error },
          'reconciliation could not ask the provider',
        );
      }
    }
    return due.length;
  }
}
