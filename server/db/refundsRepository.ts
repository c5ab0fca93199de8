import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor, RefundRecord, RefundRecordStatus } from '../domain/types.js';
import { RefundEntity, type RefundRow } from './entities.js';

export interface RefundAnswer {
  transactionId: string;
  amount: number;
  status: RefundRecordStatus;
  providerRefundId?: string;
  /** Names the refund request: a later answer to the same request (a pending refund settled) updates its record. */
  idempotencyKey?: string;
  requestedBy?: Actor;
}

const refundOf = (row: RefundRow): RefundRecord => ({
  id: row.id,
  amount: row.amount,
  status: row.status as RefundRecordStatus,
  ...(row.providerRefundId ? { providerRefundId: row.providerRefundId } : {}),
  ...(row.requestedById ? { requestedBy: { id: row.requestedById, name: row.requestedByName ?? '' } } : {}),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A charge's refunds as records: one per refund request, written when its provider answers. */
export class RefundsRepository {
  /** The record of a provider's answer; the same request answered again (settled later) updates it. */
  async saveAnswer(em: EntityManager, answer: RefundAnswer): Promise<void> {
    const now = new Date();
    await em.getConnection('write').execute(
      `insert into refunds (id, transaction_id, amount, status, provider_refund_id, idempotency_key, requested_by_id, requested_by_name, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (transaction_id, idempotency_key) do update
         set status = excluded.status, provider_refund_id = coalesce(excluded.provider_refund_id, refunds.provider_refund_id), updated_at = excluded.updated_at`,
      [
        randomUUID(),
        answer.transactionId,
        answer.amount,
        answer.status,
        answer.providerRefundId || null,
        answer.idempotencyKey ?? null,
        answer.requestedBy?.id ?? null,
        answer.requestedBy?.name ?? null,
        now,
        now,
      ],
    );
  }

  /** Oldest first; from the primary, since a refund just answered is what an operator then looks for. */
  async refundsOf(em: EntityManager, transactionId: string): Promise<RefundRecord[]> {
    const rows = await em.find(RefundEntity, { transactionId }, { orderBy: { createdAt: 'asc', id: 'asc' }, connectionType: 'write' });
    return rows.map(refundOf);
  }
}
