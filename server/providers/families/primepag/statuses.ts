import type { TransactionStatus, WithdrawStatus } from '../../../domain/types.js';
import { statusTable } from '../../../lib/statusTable.js';

/**
 * QR code statuses: the platform's own (`awaiting_payment`, `paid`, research
 * G-B) and doc 2's common pattern (waiting, processing, authorized PENDING;
 * paid APPROVED; refunded REFUNDED, chargedback CHARGEBACK), `expired`
 * REJECTED, `canceled` CANCELED (a charge never paid). Unknown is REJECTED,
 * the spec's rule for this group. A member's spec exceptions are overrides
 * (ZENDRY: canceled PENDING, error CHARGEBACK).
 */
export const PRIMEPAG_QR_CODE_STATUSES = statusTable<TransactionStatus>(
  {
    awaiting_payment: 'PENDING',
    pending: 'PENDING',
    waiting: 'PENDING',
    processing: 'PENDING',
    authorized: 'PENDING',
    paid: 'APPROVED',
    refunded: 'REFUNDED',
    chargedback: 'CHARGEBACK',
    expired: 'REJECTED',
    canceled: 'CANCELED',
  },
  'REJECTED',
);

/**
 * Payout statuses seen in the platform's pix_payment notifications (research
 * G-B): authorization_pending, auto_authorization and sent on the way,
 * completed paid, canceled (with a cancellation_reason) given back; `failed`
 * REJECTED. Unknown is PENDING: a payout wrongly recorded as failed could be paid twice.
 */
export const PRIMEPAG_PAYMENT_STATUSES = statusTable<WithdrawStatus>(
  {
    authorization_pending: 'PENDING',
    auto_authorization: 'PENDING',
    sent: 'PENDING',
    completed: 'APPROVED',
    canceled: 'CANCELED',
    failed: 'REJECTED',
  },
  'PENDING',
);
