import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor, RefundRecord, RefundRecordStatus } from '../domain/types.js';
import { dateOf } from './subjectRows.js';

export interface RefundAnswer {
  transactionId: string;
  amount: number;
  status: RefundRecordStatus;
  providerRefundId?: string;
  /** Names the refund request: a later answer to the same request (a pending refund settled) updates its record. */
  idempotencyKey?: string;
  requestedBy?: Actor;
}

/** A refund as the statements below answer it: a row (bigints as text) or a JSON object (timestamps as text). */
interface RefundSqlRow {
  id: string;
  amount: string | number;
  status: string;
  provider_refund_id: string | null;
  requested_by_id: string | null;
  requested_by_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const refundOf = (row: RefundSqlRow): RefundRecord => ({
  id: row.id,
  amount: Number(row.amount),
  status: row.status as RefundRecordStatus,
  ...(row.provider_refund_id ? { providerRefundId: row.provider_refund_id } : {}),
  ...(row.requested_by_id ? { requestedBy: { id: row.requested_by_id, name: row.requested_by_name ?? '' } } : {}),
  createdAt: dateOf(row.created_at),
  updatedAt: dateOf(row.updated_at),
});

const REFUND_COLUMNS = 'id, amount, status, provider_refund_id, requested_by_id, requested_by_name, created_at, updated_at';

/**
 * A select column of the charge `t`'s refunds as one JSON array, oldest first: GetTransaction reads them with the
 * charge in one statement (a second statement cost it a third of its CPU), so both come from one snapshot.
 */
export const REFUNDS_OF_ROW_T = `coalesce((select json_agg(r order by r.created_at, r.id) from (select ${REFUND_COLUMNS} from refunds where transaction_id = t.id) r), '[]') as refunds`;

/** The records of the column above. */
export function refundsOfColumn(value: unknown): RefundRecord[] {
  const rows = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as RefundSqlRow[];
  return rows.map(refundOf);
}

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
}
