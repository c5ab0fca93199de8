import type { TransactionStatus } from '../../../domain/types.js';
import { COMMON_WITHDRAWAL_STATUSES } from '../../kit/commonStatuses.js';
import { statusTable } from '../../../lib/statusTable.js';

/**
 * The family's provider status → our status (spec doc 1 §4 table, doc 2 §4
 * "common pattern"); matched case-insensitively. `authorized` is PENDING, as
 * doc 2's common pattern says for this group. `canceled` is CANCELED: the
 * family's spec text does not name it, our vocabulary has it, and PENDING →
 * CANCELED is the only move a canceled, never-paid charge can make. Unknown is
 * REJECTED, the spec's rule for most providers.
 */
export const TRANSACTIONS_API_STATUSES = statusTable<TransactionStatus>(
  {
    waiting: 'PENDING',
    waiting_payment: 'PENDING',
    processing: 'PENDING',
    pending: 'PENDING',
    created: 'PENDING',
    awaiting: 'PENDING',
    authorized: 'PENDING',
    paid: 'APPROVED',
    approved: 'APPROVED',
    confirmed: 'APPROVED',
    received: 'APPROVED',
    completed: 'APPROVED',
    captured: 'APPROVED',
    refunded: 'REFUNDED',
    // Doc 1 §4's table: "refunded, canceled, voided | REFUNDED in some providers": money given back, never REJECTED.
    voided: 'REFUNDED',
    chargeback: 'CHARGEBACK',
    chargedback: 'CHARGEBACK',
    in_protest: 'CHARGEBACK',
    in_dispute: 'CHARGEBACK',
    dispute: 'CHARGEBACK',
    retained: 'CHARGEBACK',
    refused: 'REJECTED',
    failed: 'REJECTED',
    declined: 'REJECTED',
    expired: 'REJECTED',
    canceled: 'CANCELED',
    cancelled: 'CANCELED',
  },
  'REJECTED',
);

/**
 * Document 3's common pattern (doc 3 §4) differs from the family's table in
 * one word: `authorized` is APPROVED there (`confirmed` already is, `created`
 * and `pending` already PENDING, unknown already REJECTED). The doc-3 members
 * declare it once as `statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } }`.
 */
export const DOC3_COMMON_OVERRIDES: Readonly<Record<string, TransactionStatus>> = { authorized: 'APPROVED' };

/** Payouts: the common vocabulary of doc 1 §4 (unknown PENDING: a payout wrongly recorded as failed could be paid twice). */
export const TRANSACTIONS_API_WITHDRAWAL_STATUSES = COMMON_WITHDRAWAL_STATUSES;
