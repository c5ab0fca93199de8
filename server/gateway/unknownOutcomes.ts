import type { UnknownKey } from '../db/idempotencyRepository.js';
import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { canLookUpByReference } from '../providers/adapter.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { recordRefund, recordTransaction, recordWithdrawal, releaseRefund, type PendingRecord } from './recording.js';

export interface UnknownOutcomesOptions {
  /** Keys checked per round. */
  batch: number;
  /** A key being checked is not checked again by another worker for this long; also the pause between checks of one key. */
  leaseMs: number;
}

/** How an operator settles a request whose outcome is unknown. */
export type OperatorSettlement =
  /** The provider did act: its id for the charge or payout (looked up and recorded), or nothing for a refund. */
  | { outcome: 'SUCCEEDED'; providerId?: string }
  /** The provider did not act: the key is freed, and the same request may be sent again. */
  | { outcome: 'FAILED'; note: string };

/**
 * Requests whose provider call ended without a known outcome (timeout, 5xx)
 * hold their idempotency key until this service settles them: automatically, by
 * asking a provider that can look its resources up by the gateway's reference
 * (the key it was sent), or by an operator who checked with the provider.
 * Settling records what the provider did exactly once; a retry with the key
 * then gets the recorded answer (or, when it failed, may go again).
 */
export class UnknownOutcomesService {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: UnknownOutcomesOptions,
  ) {}

  /** One round of the background resolver. */
  async resolveDue(now = new Date()): Promise<number> {
    const due = await this.deps.idempotency.claimUnknownDue(this.deps.db.em(), this.options.batch, this.options.leaseMs, now);
    for (const key of due) {
      try {
        await this.askProvider(key);
      } catch (error) {
        // Left as it is: checked again once the lease ends.
        this.deps.logger.warn({ idempotencyKeyId: key.id, operation: key.operation, err: error }, 'could not confirm an unknown outcome with the provider yet');
      }
    }
    return due.length;
  }

  list(providerAccountId?: string): Promise<UnknownKey[]> {
    return this.deps.idempotency.findUnknown(this.deps.db.em(), { providerAccountId });
  }

  /** An operator's word on what the provider did. */
  async settle(id: string, settlement: OperatorSettlement): Promise<{ subjectId?: string }> {
    const [key] = await this.deps.idempotency.findUnknown(this.deps.db.em(), { id });
    if (!key) throw notFound(`no request with an unknown outcome has id ${id}`);
    const pending = key.pending as PendingRecord | null;
    if (settlement.outcome === 'FAILED') {
      if (!settlement.note.trim()) throw invalidArgument('note', 'note is required: say how the provider confirmed that nothing happened');
      const settled = await this.deps.idempotency.settleUnknown(this.deps.db.em(), key.id, { failure: `settled by an operator: ${settlement.note}` });
      if (settled && pending?.kind === 'refund') await releaseRefund(this.deps, pending);
      this.deps.logger.info({ idempotencyKeyId: key.id, operation: key.operation }, 'unknown outcome settled by an operator as failed');
      return {};
    }
    if (!pending)
      throw new GatewayError('FAILED_PRECONDITION', `request ${id} kept nothing to record a result from; settle it as FAILED after checking with the provider`);
    const { adapter, ctx } = await resolveAccount(this.deps, key.providerAccountId, { includeDeleted: true });
    if (pending.kind === 'refund') {
      const refund = { refundId: '', status: true };
      return { subjectId: await this.complete(key, (await recordRefund(this.deps, pending, refund)).id, refund) };
    }
    if (!settlement.providerId) throw invalidArgument('provider_id', "provider_id is required: the provider's id of the charge or payout it made");
    if (pending.kind === 'transaction') {
      const result = await adapter.getTransaction(ctx, settlement.providerId);
      return { subjectId: await this.complete(key, (await recordTransaction(this.deps, key.providerAccountId, pending, result, key.key)).id) };
    }
    const result = await adapter.getWithdraw(ctx, settlement.providerId);
    return { subjectId: await this.complete(key, (await recordWithdrawal(this.deps, key.providerAccountId, pending, result, key.key)).id) };
  }

  private async askProvider(key: UnknownKey): Promise<void> {
    const pending = key.pending as PendingRecord | null;
    // Refunds have no lookup by reference anywhere: an operator settles them.
    if (!pending || pending.kind === 'refund') return;
    const { adapter, ctx } = await resolveAccount(this.deps, key.providerAccountId, { includeDeleted: true });
    if (!canLookUpByReference(adapter)) return;
    if (pending.kind === 'transaction') {
      const found = await adapter.findTransactionByReference(ctx, key.key);
      if (!found) return this.providerHasNone(key);
      await this.complete(key, (await recordTransaction(this.deps, key.providerAccountId, pending, found, key.key)).id);
      return;
    }
    const found = await adapter.findWithdrawalByReference(ctx, key.key);
    if (!found) return this.providerHasNone(key);
    await this.complete(key, (await recordWithdrawal(this.deps, key.providerAccountId, pending, found, key.key)).id);
  }

  private async providerHasNone(key: UnknownKey): Promise<void> {
    await this.deps.idempotency.settleUnknown(this.deps.db.em(), key.id, {
      failure: 'the provider has nothing for this idempotency key: the request never took effect',
    });
    this.deps.logger.info({ idempotencyKeyId: key.id, operation: key.operation }, 'unknown outcome confirmed: the provider did not act');
  }

  private async complete(key: UnknownKey, subjectId: string, response?: unknown): Promise<string> {
    await this.deps.idempotency.settleUnknown(this.deps.db.em(), key.id, { subjectId, response });
    this.deps.logger.info({ idempotencyKeyId: key.id, operation: key.operation, subjectId }, 'unknown outcome confirmed: the provider acted, result recorded');
    return subjectId;
  }
}
