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
import { prepared, runPreparedOn, type PreparedTarget } from './preparedSql.js';
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

/** A payout the provider certainly refused when asked: nothing made there, no provider id. */
export interface RefusedWithdrawal extends Omit<NewWithdrawal, 'result'> {
  amount: number;
  /** The provider's failure, as the caller was told it. */
  reason: string;
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

/** A refusal's reason as the provider gave it, bounded: it is the provider's text, shown, never parsed. */
const boundedRefusalReason = (reason: string | undefined): string | null => reason?.trim().slice(0, 1000) || null;

/** A reason a later answer gives for a refusal, kept on a refused payout that has none yet (the first stays). */
const RECORD_REFUSAL_REASON = prepared(
  'record_refusal_reason',
  `update withdrawals set refusal_reason = ? where id = ? and status in ('REJECTED', 'CANCELED') and refusal_reason is null`,
);

/** The columns every new payout row takes from what was asked and by whom. */
const askedFields = (input: Pick<NewWithdrawal, 'provider' | 'providerAccountId' | 'paymentMethod' | 'idempotencyKey' | 'request' | 'requestedBy'>) => ({
  providerAccountId: input.providerAccountId,
  provider: input.provider,
  paymentMethod: input.paymentMethod,
  idempotencyKey: input.idempotencyKey ?? null,
  request: (input.request as Record<string, unknown> | undefined) ?? null,
  requestedById: input.requestedBy?.id ?? null,
  requestedByName: input.requestedBy?.name ?? null,
});

type NewRowFields = ReturnType<typeof askedFields> &
  Pick<WithdrawalRow, 'providerWithdrawId' | 'status' | 'amount' | 'approvedAt'> &
  Partial<Pick<WithdrawalRow, 'refusalReason' | 'routing'>>;

/** Inserts a payout row with its first status event, unless `existing` finds one already stored (then returned, no event). */
async function insertOnce(
  em: EntityManager,
  existing: (tx: EntityManager) => Promise<WithdrawalRow | null>,
  fields: NewRowFields,
): Promise<{ row: WithdrawalRow; event?: StatusEvent }> {
  const now = new Date();
  const { row, event } = await onceMoreOnConflict(() =>
    em.fork().transactional(async (tx) => {
      const found = await existing(tx);
      if (found) return { row: found, event: undefined };
      const row = tx.create(WithdrawalEntity, { id: randomUUID(), ...fields, createdAt: now, updatedAt: now });
      tx.persist(row);
      const event = recordStatusEvent(tx, 'WITHDRAWAL', row.id, row.providerAccountId, row.status, 'api', now);
      await tx.flush();
      return { row, event };
    }),
  );
  return { row, event: event && toStatusEvent(event) };
}

/** Payouts with their status history. */
export class WithdrawalsRepository {
  private async toWithdrawal(em: EntityManager, row: WithdrawalRow, connectionType: ConnectionType): Promise<Withdrawal> {
    return { ...withdrawalOf(row), statusHistory: await statusHistory<WithdrawStatus>(em, 'WITHDRAWAL', row.id, connectionType) };
  }

  /** Stores a payout the provider accepted; one already recorded under the same provider id is returned as it is. */
  async insertWithdrawal(em: EntityManager, input: NewWithdrawal): Promise<{ withdrawal: Withdrawal; event?: StatusEvent }> {
    const { result } = input;
    const { row, event } = await insertOnce(
      em,
      (tx) => tx.findOne(WithdrawalEntity, { providerAccountId: input.providerAccountId, providerWithdrawId: result.withdrawId }),
      {
        ...askedFields(input),
        providerWithdrawId: result.withdrawId,
        status: result.status,
        amount: result.amount,
        approvedAt: result.approvedAt ?? null,
        refusalReason: result.status === 'REJECTED' ? boundedRefusalReason(result.refusalReason) : null,
        routing: input.routing ?? null,
      },
    );
    return { withdrawal: await this.toWithdrawal(em, row, 'write'), event };
  }

  /**
   * Stores a payout the provider certainly refused when asked (nothing made there, no provider id): REJECTED with the
   * provider's text as its reason, so that it is listed and exported like any payout, and never counted as paid out.
   */
  async insertRefused(em: EntityManager, input: RefusedWithdrawal): Promise<{ withdrawal: Withdrawal; event?: StatusEvent }> {
    const { row, event } = await insertOnce(em, () => Promise.resolve(null), {
      ...askedFields(input),
      providerWithdrawId: null,
      status: 'REJECTED',
      amount: input.amount,
      approvedAt: null,
      refusalReason: boundedRefusalReason(input.reason),
      routing: input.routing ?? null,
    });
    return { withdrawal: await this.toWithdrawal(em, row, 'write'), event };
  }

  /**
   * Stores a payout held for approval (AWAITING_APPROVAL, nothing sent). The payout already stored under the same
   * idempotency key on the account, held or sent, is returned instead (`existing`), for the caller to compare.
   */
  async insertHeld(em: EntityManager, input: HeldWithdrawal): Promise<{ withdrawal: Withdrawal; existing: boolean; event?: StatusEvent }> {
    const { row, event } = await insertOnce(
      em,
      (tx) => tx.findOne(WithdrawalEntity, { providerAccountId: input.providerAccountId, idempotencyKey: input.idempotencyKey }),
      {
        ...askedFields({ ...input, paymentMethod: input.request.paymentMethod }),
        providerWithdrawId: null,
        status: 'AWAITING_APPROVAL',
        amount: input.request.amount,
        approvedAt: null,
      },
    );
    return { withdrawal: await this.toWithdrawal(em, row, 'write'), existing: !event, event };
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
      alsoSet: () => ({ sql: 'refusal_reason = ?', params: [boundedRefusalReason(reason)] }),
    });
  }

  /** Keeps the reason a provider's later answer gives for refusing or cancelling a payout (in the move's database transaction). */
  async recordRefusalReason(target: PreparedTarget, id: string, reason: string | undefined): Promise<void> {
    const kept = boundedRefusalReason(reason);
    if (kept) await runPreparedOn(target, RECORD_REFUSAL_REASON, [kept, id]);
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
