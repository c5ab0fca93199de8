import type { ReceiverStatus, TransactionStatus, WithdrawStatus } from '../../domain/types.js';
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

/**
 * Document 3's common pattern for charges (§4): waiting, processing, created,
 * pending PENDING; paid, approved, completed, authorized, confirmed APPROVED;
 * refunded REFUNDED; chargeback, chargedback, in_protest, in_dispute, retained
 * CHARGEBACK; unknown REJECTED. A bespoke adapter of that document starts from it.
 * `voided` is refunded money, as document 1 §4's common table says for every
 * provider ("refunded, canceled, voided | REFUNDED in some providers;
 * CHARGEBACK for refunded in others"): REFUNDED beside `refunded`, never the
 * unknown rule's REJECTED.
 */
export const DOC3_COMMON_STATUSES = statusTable<TransactionStatus>(
  {
    waiting: 'PENDING',
    processing: 'PENDING',
    created: 'PENDING',
    pending: 'PENDING',
    paid: 'APPROVED',
    approved: 'APPROVED',
    completed: 'APPROVED',
    authorized: 'APPROVED',
    confirmed: 'APPROVED',
    refunded: 'REFUNDED',
    voided: 'REFUNDED',
    chargeback: 'CHARGEBACK',
    chargedback: 'CHARGEBACK',
    in_protest: 'CHARGEBACK',
    in_dispute: 'CHARGEBACK',
    retained: 'CHARGEBACK',
  },
  'REJECTED',
);

/**
 * The receiver rule (doc 1 §4's third receiver rule, doc 3 §4's "Receiver
 * statuses"): active or approved ACTIVE; rejected or cancelled (canceled)
 * REJECTED; anything else PENDING. ABMEXSPLIT's marketplaces,
 * PAYSHARKGATEWAY's and MAKEYOURBANK's receivers read their statuses through
 * it, and the orders family's recipients (PAGARME, with its own `refused`).
 */
export const COMMON_RECEIVER_STATUSES = statusTable<ReceiverStatus>(
  { active: 'ACTIVE', approved: 'ACTIVE', rejected: 'REJECTED', cancelled: 'REJECTED', canceled: 'REJECTED' },
  'PENDING',
);
