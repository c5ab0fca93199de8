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
    REFUNDED: 'REJECTED',
  },
  'PENDING',
);

/** How a cash-in event yields a status; 'ignore' drops the notification. */
export type CashInEventRule =
  'ignore' | { status: TransactionStatus } | { byDataStatus: Readonly<Record<string, TransactionStatus>>; otherwise: TransactionStatus };

/** doc 1 §4 "Common event pattern for PIX-cob providers", doc 2 §4 for VOLUTI and TREEAL; events not listed are ignored too. */
export const CASH_IN_EVENTS: Readonly<Record<string, CashInEventRule>> = {
  RECEIVE: { byDataStatus: { LIQUIDATED: 'APPROVED' }, otherwise: 'PENDING' },
  REFUND: { status: 'CHARGEBACK' },
  CANCELED: 'ignore',
};

/** The payout notification's event type. */
export const PAYOUT_EVENT = 'TRANSFER';

/** Devolução outcomes that did not happen; anything else counts as a refund made or under way. */
export const REFUND_FAILED: ReadonlySet<string> = new Set(['NAO_REALIZADO', 'REJECTED', 'CANCELED', 'FAILED', 'ERROR']);
