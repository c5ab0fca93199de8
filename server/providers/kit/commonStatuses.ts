import type { WithdrawStatus } from '../../domain/types.js';
import { statusTable } from '../../lib/statusTable.js';

/**
 * The payout vocabulary most providers share (doc 1 §4's withdraw rules),
 * matched case-insensitively: a family starts from it. Unknown is PENDING: a
 * payout wrongly recorded as failed could be paid twice.
 */
export const COMMON_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  {
    pending: 'PENDING',
    processing: 'PENDING',
    created: 'PENDING',
    waiting: 'PENDING',
    paid: 'APPROVED',
    approved: 'APPROVED',
    completed: 'APPROVED',
    done: 'APPROVED',
    transferred: 'APPROVED',
    finalized: 'APPROVED',
    refused: 'REJECTED',
    rejected: 'REJECTED',
    failed: 'REJECTED',
    canceled: 'CANCELED',
    cancelled: 'CANCELED',
  },
  'PENDING',
);
