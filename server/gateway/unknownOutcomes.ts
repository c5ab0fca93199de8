import type { UnknownKey } from '../db/idempotencyRepository.js';
import { refundShownByTotal } from '../domain/refundEvidence.js';
import { DEFAULT_UNKNOWN_CHECK_SCHEDULE_MS, type RefundResult } from '../domain/types.js';
import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { canLookUpByReference, type AdapterContext, type ProviderAdapter } from '../providers/adapter.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { recordRefund, recordTransaction, recordWithdrawal, releaseRefund, type PendingRecord } from './recording.js';

export interface UnknownOutcomesOptions {
  /** Keys checked per round. */
  batch: number;
  /** A key being checked is not checked again by another worker for this long (nor, when asking failed, before it ends). */
  leaseMs: number;
  /** When each check is due, counted from the moment the outcome became unknown (UNKNOWN_CHECK_SCHEDULE_MS). */
  scheduleMs?: readonly number[];
  /** Forgets the gateway processes known to be gone, before keys they held are swept (processLiveness.ts). */
  reapGoneProcesses?: () => Promise<number>;
}

/** What a refund recorded as made by a provider's word (or an operator's) answers a retry. */
const CONFIRMED_REFUND: RefundResult = { refundId: '', status: true };

/** How an operator settles a request whose outcome is unknown. */
export type OperatorSettlement =
  /** The provider did act: its id for the charge or payout (looked up and recorded), or nothing for a refund. */
  | { outcome: 'SUCCEEDED'; providerId?: string }
  /** The provider did not act: the key is freed, and the same request may be sent again. */
  | { outcome: 'FAILED'; note: string };

/**
 * Requests whose provider call ended without a known outcome (timeout, 5xx, or
 * the process holding the call died) hold their idempotency key until this
 * service settles them: by evidence from the provider (a lookup by the gateway's
 * reference, the key it was sent, that finds what it made; a charge's status
 * or refunded total that shows a refund), or by an operator who checked with
 * the provider. One lookup that finds nothing proves nothing (the provider may
 * have queued the request): it frees the key only where the provider declares
 * that it stores references synchronously and enough time has passed
 * (OutcomeEvidence.absentAfterSeconds); otherwise the resolver looks again on
 * its schedule, then leaves the request to an operator. Settling records what
 * the provider did exactly once; a retry with the key then gets the recorded
 * answer (or, when it failed, may go again).
 */
export class UnknownOutcomesService {
  private readonly scheduleMs: readonly number[];

  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: UnknownOutcomesOptions,
  ) {
    this.scheduleMs = options.scheduleMs ?? deps.unknownCheckScheduleMs ?? DEFAULT_UNKNOWN_CHECK_SCHEDULE_MS;
  }

  /** One round of the background resolver: requests whose process is gone join the unknown ones, then those due are checked. */
  async resolveDue(now = new Date()): Promise<number> {
    const swept = await this.sweep();
    const due = await this.deps.idempotency.claimUnknownDue(this.deps.db.em(), this.options.batch, this.options.leaseMs, now);
    for (const key of due) {
      try {
        await this.askProvider(key);
      } catch (error) {
        // Left as it is: checked again once the lease ends.
        this.deps.logger.warn({ idempotencyKeyId: key.id, operation: key.operation, err: error }, 'could not confirm an unknown outcome with the provider yet');
      }
    }
    return swept + due.length;
  }

  /** How many requests wait for their outcome to be confirmed, and since when the oldest has (for the metrics). */
  summary(): Promise<{ count: number; oldestSince?: Date }> {
    return this.deps.idempotency.unknownSummary(this.deps.db.em());
  }

  /** Requests held by a gateway process that is gone become unknown outcomes (listed, checked, settled); returns how many. */
  async sweep(): Promise<number> {
    await this.options.reapGoneProcesses?.();
    const swept = await this.deps.idempotency.sweepOrphans(this.deps.db.em());
    if (swept > 0) this.deps.logger.warn({ requests: swept }, 'requests whose gateway process stopped during the provider call are held until confirmed');
    return swept;
  }

  /** The requests waiting for confirmation, oldest first; those of a process that is gone are swept in first. */
  async list(providerAccountId?: string): Promise<UnknownKey[]> {
    await this.sweep();
    return this.deps.idempotency.findUnknown(this.deps.db.em(), { providerAccountId });
  }

  /** An operator's word on what the provider did. */
  async settle(id: string, settlement: OperatorSettlement): Promise<{ subjectId?: string }> {
    const [key] = await this.deps.idempotency.findUnknown(this.deps.db.em(), { id });
    if (!key) throw notFound(`no request with an unknown outcome has id ${id}`);
    const pending = key.pending as PendingRecord | null;
    if (settlement.outcome === 'FAILED') {
      if (!settlement.note.trim()) throw invalidArgument('note', 'note is required: say how the provider confirmed that nothing happened', 'REQUIRED');
      const settled = await this.deps.idempotency.settleUnknown(this.deps.db.em(), key.id, { failure: `settled by an operator: ${settlement.note}` });
      if (settled && pending?.kind === 'refund') await releaseRefund(this.deps, pending);
      this.deps.logger.info({ idempotencyKeyId: key.id, operation: key.operation }, 'unknown outcome settled by an operator as failed');
      return {};
    }
    if (!pending)
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `request ${id} kept nothing to record a result from; settle it as FAILED after checking with the provider`,
        { reason: 'NOTHING_TO_RECORD' },
      );
    const { adapter, ctx } = await resolveAccount(this.deps, key.providerAccountId, { includeDeleted: true });
    if (pending.kind === 'refund')
      return { subjectId: await this.complete(key, (await recordRefund(this.deps, pending, CONFIRMED_REFUND)).id, CONFIRMED_REFUND) };
    if (!settlement.providerId) throw invalidArgument('provider_id', "provider_id is required: the provider's id of the charge or payout it made", 'REQUIRED');
    if (pending.kind === 'transaction') {
      const result = await adapter.getTransaction(ctx, settlement.providerId);
      return { subjectId: await this.complete(key, (await recordTransaction(this.deps, key.providerAccountId, pending, result, key.key)).id) };
    }
    const result = await adapter.getWithdraw(ctx, settlement.providerId);
    return { subjectId: await this.complete(key, (await recordWithdrawal(this.deps, key.providerAccountId, pending, result, key.key)).id) };
  }

  private async askProvider(key: UnknownKey): Promise<void> {
    const pending = key.pending as PendingRecord | null;
    if (!pending) return this.leaveToOperator(key, 'nothing was kept to record a result from');
    const { adapter, ctx } = await resolveAccount(this.deps, key.providerAccountId, { includeDeleted: true });
    if (pending.kind === 'refund') return this.askAboutRefund(key, pending, adapter, ctx);
    if (!canLookUpByReference(adapter)) return this.leaveToOperator(key, 'the provider cannot be asked for a request by its reference');
    if (pending.kind === 'transaction') {
      const found = await adapter.findTransactionByReference(ctx, key.key);
      if (found) await this.complete(key, (await recordTransaction(this.deps, key.providerAccountId, pending, found, key.key)).id);
      else await this.foundNothing(key, adapter);
      return;
    }
    const found = await adapter.findWithdrawalByReference(ctx, key.key);
    if (found) await this.complete(key, (await recordWithdrawal(this.deps, key.providerAccountId, pending, found, key.key)).id);
    else await this.foundNothing(key, adapter);
  }

  /**
   * A refund shows in the provider's read of its charge: by the charge's REFUNDED when it empties the charge (the
   * reservations keep refunds in flight within the charge, so no other one can be what emptied it), or, where the read
   * says how much of the charge was refunded, by that total (refundEvidence.ts). A read that does not show it yet is
   * asked again on the schedule; a partial refund at a provider whose read says no total is left to an operator.
   */
  private async askAboutRefund(key: UnknownKey, pending: Extract<PendingRecord, { kind: 'refund' }>, adapter: ProviderAdapter, ctx: AdapterContext) {
    const transaction = await this.deps.transactions.findTransaction(this.deps.db.em(), pending.transactionId, 'primary');
    if (!transaction || !adapter.supports('getTransaction')) return this.leaveToOperator(key, 'the provider cannot be asked for the charge');
    // The provider first, the gateway's ledger after: a refund sent after the read cannot be in the provider's total.
    const current = await adapter.getTransaction(ctx, transaction.transactionId, { providerFee: transaction.providerFee });
    const ledger = await this.deps.transactions.refundLedger(this.deps.db.em(), transaction.id);
    if (!ledger) return this.leaveToOperator(key, 'the charge is gone');
    const emptiesCharge = ledger.refunded + pending.amount >= ledger.amount;
    const shown =
      (emptiesCharge && current.status === 'REFUNDED') ||
      (current.providerRefundedAmount !== undefined && refundShownByTotal(current.providerRefundedAmount, ledger, pending.amount));
    if (shown) {
      await this.complete(key, (await recordRefund(this.deps, pending, CONFIRMED_REFUND)).id, CONFIRMED_REFUND);
      return;
    }
    if (!emptiesCharge && current.providerRefundedAmount === undefined)
      return this.leaveToOperator(key, "a partial refund does not show in the charge's status, and the provider's read says no refunded total");
    return this.checkAgainLater(key);
  }

  /** A lookup that found nothing: proof that the provider did not act only where it declares so and enough time has passed. */
  private async foundNothing(key: UnknownKey, adapter: ProviderAdapter): Promise<void> {
    const absentAfterSeconds = adapter.capabilities.outcomeEvidence?.absentAfterSeconds;
    if (absentAfterSeconds === undefined || Date.now() - key.createdAt.getTime() < absentAfterSeconds * 1000) return this.checkAgainLater(key);
    await this.deps.idempotency.settleUnknown(this.deps.db.em(), key.id, {
      failure: `the provider has nothing for this idempotency key ${absentAfterSeconds} s or more after it was sent, and stores references with the request: the request never took effect`,
    });
    this.deps.logger.info({ idempotencyKeyId: key.id, operation: key.operation }, 'unknown outcome confirmed: the provider did not act');
  }

  /** Nothing proves either outcome yet: the next check on the schedule, or, after the last, an operator. */
  private async checkAgainLater(key: UnknownKey): Promise<void> {
    const offset = this.scheduleMs[key.resolveAttempts];
    if (offset === undefined) return this.leaveToOperator(key, `${key.resolveAttempts} checks with the provider confirmed nothing`);
    await this.deps.idempotency.scheduleCheck(this.deps.db.em(), key.id, new Date(key.updatedAt.getTime() + offset));
  }

  private async leaveToOperator(key: UnknownKey, why: string): Promise<void> {
    await this.deps.idempotency.scheduleCheck(this.deps.db.em(), key.id, null);
    this.deps.logger.warn(
      { idempotencyKeyId: key.id, operation: key.operation, providerAccountId: key.providerAccountId, why },
      'unknown outcome left to an operator (ListUnconfirmedRequests, SettleUnconfirmedRequest)',
    );
  }

  private async complete(key: UnknownKey, subjectId: string, response?: unknown): Promise<string> {
    await this.deps.idempotency.settleUnknown(this.deps.db.em(), key.id, { subjectId, response });
    this.deps.logger.info({ idempotencyKeyId: key.id, operation: key.operation, subjectId }, 'unknown outcome confirmed: the provider acted, result recorded');
    return subjectId;
  }
}
