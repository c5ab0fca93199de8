import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConnectionType } from '@mikro-orm/core';
import { withdrawStatusesMovingTo } from '../domain/statusMachine.js';
import type { StatusEvent, StatusSource, WithdrawMethod, WithdrawResult, WithdrawStatus, Withdrawal } from '../domain/types.js';
import { isUuid } from '../lib/ids.js';
import type { Consistency } from './consistency.js';
import { WithdrawalEntity, type WithdrawalRow } from './entities.js';
import { moveStatus, recordStatusEvent, statusHistory, toStatusEvent, type MoveHooks, type StatusMove, type StatusTable } from './statusRepository.js';
import { dateOf, findWithHistory, historyOf, onceMoreOnConflict, optionalDateOf, orUndefined, withHistory, type SqlRecord } from './subjectRows.js';

export interface NewWithdrawal {
  provider: string;
  providerAccountId: string;
  paymentMethod: WithdrawMethod;
  result: WithdrawResult;
  idempotencyKey?: string;
}

/** A payout's row as the domain sees it, without its history. */
export function withdrawalOf(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
    withdrawId: row.providerWithdrawId,
    paymentMethod: row.paymentMethod as WithdrawMethod,
    status: row.status as WithdrawStatus,
    amount: row.amount,
    approvedAt: orUndefined(row.approvedAt),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    statusHistory: [],
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
    providerWithdrawId: String(row.provider_withdraw_id),
    paymentMethod: String(row.payment_method),
    status: String(row.status),
    amount: Number(row.amount),
    approvedAt: optionalDateOf(row.approved_at),
    idempotencyKey: (row.idempotency_key as string | null) ?? null,
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

  async findWithdrawal(em: EntityManager, id: string, consistency: Consistency = 'replica'): Promise<Withdrawal | null> {
    if (!isUuid(id)) return null;
    return this.loadWithdrawal(em, { id }, consistency);
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
