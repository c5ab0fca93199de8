import { isGatewayError } from '../lib/errors.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { refusedAnswer } from './flowIntegrity.js';
import { moveSubjectAsAnswered, TRANSACTIONS, WITHDRAWALS, type SubjectKind, type Tracked } from './subjects.js';

export interface ReconciliationOptions {
  /** A pending charge or payout with no news for this long is asked about (expired charges at once). */
  staleAfterMs: number;
  /** The same charge or payout is asked about at most this often. */
  pollEveryMs: number;
  /** At most this many provider calls per round for charges, and as many for payouts: a bounded rate. */
  batch: number;
}

/**
 * Heals lost notifications: asks providers about charges still PENDING past their expiry or long silent, and about
 * payouts long silent (a provider that notifies a payout once, into an outage, would otherwise leave it PENDING).
 */
export class ReconciliationService {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: ReconciliationOptions,
  ) {}

  async reconcileDue(): Promise<number> {
    const em = this.deps.db.em();
    const pace = { staleAfterMs: this.options.staleAfterMs, pollEveryMs: this.options.pollEveryMs, limit: this.options.batch };
    const charges = await this.deps.transactions.claimForReconciliation(em, pace);
    for (const charge of charges) await this.ask(TRANSACTIONS, charge);
    const payouts = await this.deps.withdrawals.claimForReconciliation(em, pace);
    for (const payout of payouts) await this.ask(WITHDRAWALS, payout);
    return charges.length + payouts.length;
  }

  private async ask<S extends string, T extends Tracked<S>>(kind: SubjectKind<S, T>, subject: T): Promise<void> {
    try {
      const { adapter, ctx } = await resolveAccount(this.deps, subject.providerAccountId, { includeDeleted: true });
      if (!adapter.supports(kind.lookup)) return;
      const current = await kind.askProvider(adapter, ctx, kind.providerId(subject), subject);
      if (!(await refusedAnswer(this.deps, kind, subject, current, 'poll'))) await moveSubjectAsAnswered(this.deps, kind, subject.id, current, 'poll');
    } catch (error) {
      this.deps.logger.warn(
        { [`${kind.name}Id`]: subject.id, err: isGatewayError(error) ? error.message : error },
        'reconciliation could not ask the provider',
      );
    }
  }
}
