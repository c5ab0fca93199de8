import type { TransactionStatus, WithdrawStatus } from '../../../domain/types.js';
import { statusTable } from '../../../lib/statusTable.js';

/**
 * The platform's order status → ours, matched case-insensitively. The
 * research saw `pending`, `approved` and `failed` (G-A integrations); the rest
 * is the spec's common pattern (doc 2 §4: waiting, processing, authorized
 * PENDING; paid APPROVED; refunded REFUNDED, chargedback CHARGEBACK; unknown
 * REJECTED) and doc 1 §4's families. `infraction` is not here: the spec gives
 * CASHTIME and REFLOWPAY opposite readings, so each member declares its own.
 */
export const CASHTIME_STATUSES = statusTable<TransactionStatus>(
  {
    pending: 'PENDING',
    waiting: 'PENDING',
    waiting_payment: 'PENDING',
    processing: 'PENDING',
    created: 'PENDING',
    authorized: 'PENDING',
    paid: 'APPROVED',
    approved: 'APPROVED',
    confirmed: 'APPROVED',
    completed: 'APPROVED',
    refunded: 'REFUNDED',
    chargeback: 'CHARGEBACK',
    chargedback: 'CHARGEBACK',
    failed: 'REJECTED',
    refused: 'REJECTED',
    expired: 'REJECTED',
    canceled: 'CANCELED',
    cancelled: 'CANCELED',
  },
  'REJECTED',
);

/**
 * Payouts (doc 1 §4's withdraw rules). A payout answered without a status is
 * PENDING (the integrations record an accepted withdraw as processing), and an
 * unknown status stays PENDING: a payout wrongly recorded as failed could be paid twice.
 */
export const CASHTIME_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  {
    pending: 'PENDING',
    processing: 'PENDING',
    created: 'PENDING',
    waiting: 'PENDING',
    paid: 'APPROVED',
    approved: 'APPROVED',
    completed: 'APPROVED',
    transferred: 'APPROVED',
    finalized: 'APPROVED',
    failed: 'REJECTED',
    refused: 'REJECTED',
    rejected: 'REJECTED',
    canceled: 'CANCELED',
    cancelled: 'CANCELED',
  },
  'PENDING',
);
