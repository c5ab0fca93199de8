import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConnectionType } from '@mikro-orm/core';
import { withdrawStatusesMovingTo } from '../domain/statusMachine.js';
import type {
  Actor,
  PayoutRequest,
  PayoutReview,
  StatusEvent,
  StatusSource,
  WithdrawMethod,
  WithdrawResult,
  WithdrawStatus,
  Withdrawal,
} from '../domain/types.js';
import { isUuid } from '../lib/ids.js';
import type { RoutingRecord } from '../domain/routing.js';
import type { Consistency } from './consistency.js';
import { WithdrawalEntity, type WithdrawalRow } from './entities.js';
import { moveStatus, recordStatusEvent, statusHistory, toStatusEvent, type MoveHooks, type StatusMove, type StatusTable } from './statusRepository.js';
import {
  dateOf,
  findWithHistory,
  historyOf,
  leaseDueForPoll,
  onceMoreOnConflict,
  optionalDateOf,
  orUndefined,
  withHistory,
  type PollPace,
  type SqlRecord,
} from './subjectRows.js';

export interface NewWithdrawal {
  provider: string;
  providerAccountId: string;
  paymentMethod: WithdrawMethod;
  result: WithdrawResult;
  idempotencyKey?: string;
  /** What was asked and by whom, where known (a payout settled from an unknown outcome kept before this has neither). */
  request?: PayoutRequest;
  requestedBy?: Actor;
  /** A payout that named a route: what the route decided and which accounts were tried. */
  routing?: RoutingRecord;
}

/** A payout held for a second operator's approval: nothing sent, no provider id. */
export interface HeldWithdrawal {
  provider: string;
  providerAccountId: string;
  request: PayoutRequest;
  requestedBy: Actor;
  idempotencyKey: string;
}

const actorOf = (id: string | null | undefined, name: string | null | undefined): Actor | undefined => (id ? { id, name: name ?? '' } : undefined);

function reviewOf(row: WithdrawalRow): PayoutReview | undefined {
  const by = actorOf(row.reviewedById, row.reviewedByName);
  if (!by || !row.reviewedAt || (row.review !== 'APPROVED' && row.review !== 'REJECTED')) return undefined;
  return { outcome: row.review, by, at: row.reviewedAt };
}

/** A payout's row as the domain sees it, without its history. */
export function withdrawalOf(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
    withdrawId: row.providerWithdrawId ?? '',
    paymentMethod: row.paymentMethod as WithdrawMethod,
    status: row.status as WithdrawStatus,
    amount: row.amount,
    approvedAt: orUndefined(row.approvedAt),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    statusHistory: [],
    request: orUndefined(row.request as PayoutRequest | null | undefined),
    requestedBy: actorOf(row.requestedById, row.requestedByName),
    review: reviewOf(row),
    refusalReason: orUndefined(row.refusalReason),
    ...(row.routing ? { routing: row.routing } : {}),
  };
}

const WITHDRAWAL_BY_ID = withHistory('withdrawal_by_id', 'withdrawals', 'WITHDRAWAL', 't.id = ?');
const WITHDRAWAL_BY_PROVIDER_ID = withHistory(
  'withdrawal_by_provider_id',
  'withdrawals',
  'WITHDRAWAL',
  't.provider_account_id = ? and t.provider_withdraw_id = ?',
);

function withdrawalRowOf(row: SqlRecord): WithdrawalRow {
  return {
    id: String(row.id),
    providerAccountId: String(row.provider_account_id),
    provider: String(row.provider),
    providerWithdrawId: (row.provider_withdraw_id as string | null) ?? null,
    paymentMethod: String(row.payment_method),
    status: String(row.status),
    amount: Number(row.amount),
    approvedAt: optionalDateOf(row.approved_at),
    idempotencyKey: (row.idempotency_key as string | null) ?? null,
    request: (row.request as Record<string, unknown> | null) ?? null,
    requestedById: (row.requested_by_id as string | null) ?? null,
    requestedByName: (row.requested_by_name as string | null) ?? null,
    review: (row.review as string | null) ?? null,
    reviewedById: (row.reviewed_by_id as string | null) ?? null,
    reviewedByName: (row.reviewed_by_name as string | null) ?? null,
    reviewedAt: optionalDateOf(row.reviewed_at),
    refusalReason: (row.refusal_reason as string | null) ?? null,
    routing: (typeof row.routing === 'string' ? JSON.parse(row.routing) : row.routing) ?? null,
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
  } as WithdrawalRow;
}

const WITHDRAWAL_STATUSES: StatusTable<WithdrawalRow> = {
  table: 'withdrawals',
  subject: 'WITHDRAWAL',
  rowOf: (record) => withdrawalRowOf(record as SqlRecord),
};

/** Payouts with their status history. */
export class WithdrawalsRepository {
  private async toWithdrawal(em: EntityManager, row: WithdrawalRow, connectionType: ConnectionType): Promise<Withdrawal> {
    return { ...withdrawalOf(row), statusHistory: await statusHistory<WithdrawStatus>(em, 'WITHDRAWAL', row.id, connectionType) };
  }

  /** Stores a payout the provider accepted; one already recorded under the same provider id is returned as it is. */
  async insertWithdrawal(em: EntityManager, input: NewWithdrawal): Promise<{ withdrawal: Withdrawal; event?: StatusEvent }> {
    const { result } = input;
    const now = new Date();
    const { row, event } = await onceMoreOnConflict(() =>
      em.fork().transactional(async (tx) => {
        const existing = await tx.findOne(WithdrawalEntity, { providerAccountId: input.providerAccountId, providerWithdrawId: result.withdrawId });
        if (existing) return { row: existing, event: undefined };
        const row = tx.create(WithdrawalEntity, {
          id: randomUUID(),
          providerAccountId: input.providerAccountId,
          provider: input.provider,
          providerWithdrawId: result.withdrawId,
          paymentMethod: input.paymentMethod,
          status: result.status,
          amount: result.amount,
          approvedAt: result.approvedAt ?? null,
          idempotencyKey: input.idempotencyKey ?? null,
          request: (input.request as Record<string, unknown> | undefined) ?? null,
          requestedById: input.requestedBy?.id ?? null,
          requestedByName: input.requestedBy?.name ?? null,
          routing: input.routing ?? null,
          createdAt: now,
          updatedAt: now,
        });
        tx.persist(row);
        const event = recordStatusEvent(tx, 'WITHDRAWAL', row.id, row.providerAccountId, row.status, 'api', now);
        await tx.flush();
        return { row, event };
      }),
    );
    return { withdrawal: await this.toWithdrawal(em, row, 'write'), event: event && toStatusEvent(event) };
  }

  /**
   * Stores a payout held for approval (AWAITING_APPROVAL, nothing sent). The payout already stored under the same
   * idempotency key on the account, held or sent, is returned instead (`existing`), for the caller to compare.
   */
  async insertHeld(em: EntityManager, input: HeldWithdrawal): Promise<{ withdrawal: Withdrawal; existing: boolean; event?: StatusEvent }> {
    const now = new Date();
    const { row, event } = await onceMoreOnConflict(() =>
      em.fork().transactional(async (tx) => {
        const existing = await tx.findOne(WithdrawalEntity, { providerAccountId: input.providerAccountId, idempotencyKey: input.idempotencyKey });
        if (existing) return { row: existing, event: undefined };
        const row = tx.create(WithdrawalEntity, {
          id: randomUUID(),
          providerAccountId: input.providerAccountId,
          provider: input.provider,
          providerWithdrawId: null,
          paymentMethod: input.request.paymentMethod,
          status: 'AWAITING_APPROVAL',
          amount: input.request.amount,
          approvedAt: null,
          idempotencyKey: input.idempotencyKey,
          request: input.request as unknown as Record<string, unknown>,
          requestedById: input.requestedBy.id,
          requestedByName: input.requestedBy.name,
          createdAt: now,
          updatedAt: now,
        });
        tx.persist(row);
        const event = recordStatusEvent(tx, 'WITHDRAWAL', row.id, row.providerAccountId, row.status, 'api', now);
        await tx.flush();
        return { row, event };
      }),
    );
    return { withdrawal: await this.toWithdrawal(em, row, 'write'), existing: !event, event: event && toStatusEvent(event) };
  }

  /**
   * A second operator's decision on a held payout, taken once: only a payout still AWAITING_APPROVAL moves (the row
   * lock of the move serializes concurrent reviews), approved to PENDING (it is being sent) and rejected to CANCELED
   * with the reason. Null when it did not move (another review came first, or it was never held).
   */
  async review(
    em: EntityManager,
    id: string,
    decision: { outcome: 'APPROVED' | 'REJECTED'; by: Actor; reason?: string },
  ): Promise<StatusMove<WithdrawStatus> | null> {
    const move = await moveStatus<WithdrawStatus, WithdrawalRow>(
      em,
      WITHDRAWAL_STATUSES,
      id,
      decision.outcome === 'APPROVED' ? 'PENDING' : 'CANCELED',
      'api',
      ['AWAITING_APPROVAL'],
      {
        alsoSet: (at) => ({
          sql: 'review = ?, reviewed_by_id = ?, reviewed_by_name = ?, reviewed_at = ?, refusal_reason = ?',
          params: [decision.outcome, decision.by.id, decision.by.name, at, decision.reason ?? null],
        }),
      },
    );
    return move?.changed ? move : null;
  }

  /**
   * An approved payout the provider answered: its id and status are recorded on the held row (which has none yet).
   * Null when the row is not a held one waiting for its answer (already recorded).
   */
  async attachSent(em: EntityManager, id: string, result: WithdrawResult): Promise<{ withdrawal: Withdrawal; event?: StatusEvent } | null> {
    const attached = await em
      .getConnection('write')
      .execute<{ id: string }[]>(
        'update withdrawals set provider_withdraw_id = ?, amount = ?, approved_at = ?, updated_at = ? where id = ? and provider_withdraw_id is null returning id',
        [result.withdrawId, result.amount, result.approvedAt ?? null, new Date(), id],
        'all',
      );
    if (!attached.length) return null;
    const move = result.status === 'PENDING' ? null : await this.moveWithdrawalStatus(em, id, result.status, 'api');
    return { withdrawal: (await this.findWithdrawal(em, id, 'primary'))!, event: move?.event };
  }

  /** An approved payout the provider certainly refused: REJECTED, with the provider's failure as the refusal reason. */
  refuseSent(em: EntityManager, id: string, reason: string): Promise<StatusMove<WithdrawStatus> | null> {
    return moveStatus<WithdrawStatus, WithdrawalRow>(em, WITHDRAWAL_STATUSES, id, 'REJECTED', 'api', ['PENDING'], {
      alsoSet: () => ({ sql: 'refusal_reason = ?', params: [reason.slice(0, 1000)] }),
    });
  }

  /** The idempotency key a payout was asked under (a held payout is sent under it). */
  async idempotencyKeyOf(em: EntityManager, id: string): Promise<string | null> {
    const row = await em.fork().findOne(WithdrawalEntity, { id }, { fields: ['idempotencyKey'], connectionType: 'write' });
    return row?.idempotencyKey ?? null;
  }

  async findWithdrawal(em: EntityManager, id: string, consistency: Consistency = 'replica'): Promise<Withdrawal | null> {
    if (!isUuid(id)) return null;
    return this.loadWithdrawal(em, { id }, consistency);
  }

  /**
   * Payouts sent to their provider and still PENDING with no news for `staleAfterMs`, leased for a provider poll. A
   * payout held for approval has no provider id and is not PENDING, so it is never asked about.
   */
  async claimForReconciliation(em: EntityManager, pace: PollPace): Promise<Withdrawal[]> {
    const ids = await leaseDueForPoll(em, 'withdrawals', pace, undefined, 'provider_withdraw_id is not null');
    const found = await Promise.all(ids.map((id) => this.findWithdrawal(em.fork(), id, 'primary')));
    return found.filter((withdrawal): withdrawal is Withdrawal => withdrawal !== null);
  }

  async findWithdrawalByProviderId(em: EntityManager, providerAccountId: string, providerWithdrawId: string): Promise<Withdrawal | null> {
    return this.loadWithdrawal(em, { providerAccountId, providerWithdrawId }, 'replica');
  }

  private async loadWithdrawal(em: EntityManager, where: Partial<WithdrawalRow>, consistency: Consistency): Promise<Withdrawal | null> {
    const row =
      where.id !== undefined
        ? await findWithHistory(em, WITHDRAWAL_BY_ID, [where.id], consistency)
        : await findWithHistory(em, WITHDRAWAL_BY_PROVIDER_ID, [where.providerAccountId, where.providerWithdrawId], consistency);
    return row && { ...withdrawalOf(withdrawalRowOf(row)), statusHistory: historyOf<WithdrawStatus>(row.history) };
  }

  moveWithdrawalStatus(
    em: EntityManager,
    id: string,
    to: WithdrawStatus,
    source: StatusSource,
    finish?: MoveHooks<WithdrawStatus>['finish'],
  ): Promise<StatusMove<WithdrawStatus> | null> {
    return moveStatus(em, WITHDRAWAL_STATUSES, id, to, source, withdrawStatusesMovingTo(to), {
      finish,
      // The first approval's time is kept.
      alsoSet: to === 'APPROVED' ? (at) => ({ sql: 'approved_at = coalesce(t.approved_at, ?)', params: [at] }) : undefined,
    });
  }
}
