import type { TransactionStatus, WithdrawStatus } from '../../../domain/types.js';
import { statusTable } from '../../../lib/statusTable.js';

/** The cob's statuses are the API Pix's, shared in the kit (TRANSFEERA reads them too). */
export { COB_STATUSES } from '../../kit/apiPix.js';

/** Payout statuses of the payment-initiation API (doc 1 §4 withdraw rules). Unknown is PENDING: a payout wrongly recorded as failed could be paid twice. */
export const PAYOUT_STATUSES = statusTable<WithdrawStatus>(
  {
    PENDING: 'PENDING',
    PROCESSING: 'PENDING',
    QUEUED: 'PENDING',
    ON_QUEUE: 'PENDING',
    LIQUIDATED: 'APPROVED',
    PARTIALLY_REFUNDED: 'APPROVED',
    CANCELED: 'CANCELED',
    REJECTED: 'REJECTED',
    // Avista's "PIX Bacen" TRANSFER webhook: a payout that failed.
    ERROR: 'REJECTED',
    REFUNDED: 'REJECTED',
  },
  'PENDING',
);

/** How a cash-in event yields a status; 'ignore' drops the notification. */
export type CashInEventRule =
  'ignore' | { status: TransactionStatus } | { byDataStatus: Readonly<Record<string, TransactionStatus>>; otherwise: TransactionStatus };

/** The cash-in notification of a Pix received: the one that states the payment's end-to-end id and payer. */
export const RECEIVE_EVENT = 'RECEIVE';

/** doc 1 §4 "Common event pattern for PIX-cob providers", doc 2 §4 for VOLUTI and TREEAL; events not listed are ignored too. */
export const CASH_IN_EVENTS: Readonly<Record<string, CashInEventRule>> = {
  [RECEIVE_EVENT]: { byDataStatus: { LIQUIDATED: 'APPROVED' }, otherwise: 'PENDING' },
  REFUND: { status: 'CHARGEBACK' },
  CANCELED: 'ignore',
};

/** The payout notification's event type. */
export const PAYOUT_EVENT = 'TRANSFER';

/** What became of a refund the PSP answered: done, still carried out, or refused (docs/decisions.md, "A refund has three answers"). */
export type RefundOutcome = 'done' | 'in progress' | 'refused';

/**
 * A refund's status → its outcome: the devolução's DEVOLVIDO done, its
 * NAO_REALIZADO refused, its EM_PROCESSAMENTO (the payer's bank returns the
 * money later) in progress (Bacen's API Pix, Devolucao.status); the refund
 * words Onz and the members' REFUND event use (LIQUIDATED, REFUNDED done;
 * CANCELED, ERROR refused). A status not named is in progress: the PSP took the
 * refund, and releasing its cents on a guess could refund twice.
 */
export const REFUND_OUTCOMES = statusTable<RefundOutcome>(
  {
    DEVOLVIDO: 'done',
    LIQUIDATED: 'done',
    REFUNDED: 'done',
    EM_PROCESSAMENTO: 'in progress',
    PROCESSING: 'in progress',
    NAO_REALIZADO: 'refused',
    REJECTED: 'refused',
    CANCELED: 'refused',
    FAILED: 'refused',
    ERROR: 'refused',
  },
  'in progress',
);
