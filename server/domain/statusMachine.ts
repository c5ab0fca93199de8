import type { TransactionStatus, WithdrawStatus } from './types.js';

/**
 * Allowed status moves (DESIGN §6). Anything not listed is refused, so a late or
 * repeated notification can never move a status backwards.
 */
const TRANSACTION_MOVES: Record<TransactionStatus, readonly TransactionStatus[]> = {
  PENDING: ['APPROVED', 'REJECTED', 'CANCELED'],
  APPROVED: ['REFUNDED', 'CHARGEBACK'],
  REJECTED: [],
  REFUNDED: [],
  CHARGEBACK: [],
  CANCELED: [],
};

const WITHDRAW_MOVES: Record<WithdrawStatus, readonly WithdrawStatus[]> = {
  PENDING: ['APPROVED', 'REJECTED', 'CANCELED'],
  APPROVED: [],
  REJECTED: [],
  CANCELED: [],
  // Left only by a second operator's review (payoutApprovals.ts), never by a notification or a read.
  AWAITING_APPROVAL: [],
};

export function canMoveTransaction(from: TransactionStatus, to: TransactionStatus): boolean {
  return TRANSACTION_MOVES[from].includes(to);
}

export function canMoveWithdrawal(from: WithdrawStatus, to: WithdrawStatus): boolean {
  return WITHDRAW_MOVES[from].includes(to);
}

/** The statuses a charge may move to `to` from (what a status move's SQL accepts as the current status). */
export function transactionStatusesMovingTo(to: TransactionStatus): TransactionStatus[] {
  return (Object.keys(TRANSACTION_MOVES) as TransactionStatus[]).filter((from) => canMoveTransaction(from, to));
}

/** The statuses a payout may move to `to` from. */
export function withdrawStatusesMovingTo(to: WithdrawStatus): WithdrawStatus[] {
  return (Object.keys(WITHDRAW_MOVES) as WithdrawStatus[]).filter((from) => canMoveWithdrawal(from, to));
}
