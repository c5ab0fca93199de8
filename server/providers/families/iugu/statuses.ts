import type { TransactionStatus, WithdrawStatus } from '../../../domain/types.js';
import { statusTable } from '../../../lib/statusTable.js';

/**
 * An invoice's status (dev.iugu.com/docs/faturas lists pending, paid, canceled,
 * in_analysis, draft, partially_paid, refunded, expired, in_protest,
 * chargeback, externally_paid) → ours, with the spec's common pattern (doc 2
 * §4: waiting, processing, authorized PENDING; paid APPROVED; unknown REJECTED).
 * - draft, in_analysis (the first step of a two-step card charge) and
 *   partially_paid (part of a boleto paid) still wait for money: PENDING.
 * - canceled: Iugu cancels only unpaid invoices ("impossível ser paga"): CANCELED.
 * - refunded is REFUNDED; in_protest and chargeback are CHARGEBACK (doc 1 §4).
 * - expired is REJECTED (doc 1 §4).
 */
export const IUGU_STATUSES = statusTable<TransactionStatus>(
  {
    waiting: 'PENDING',
    processing: 'PENDING',
    authorized: 'PENDING',
    pending: 'PENDING',
    draft: 'PENDING',
    in_analysis: 'PENDING',
    partially_paid: 'PENDING',
    paid: 'APPROVED',
    externally_paid: 'APPROVED',
    canceled: 'CANCELED',
    refunded: 'REFUNDED',
    in_protest: 'CHARGEBACK',
    chargeback: 'CHARGEBACK',
    expired: 'REJECTED',
  },
  'REJECTED',
);

/**
 * A withdraw request's status (dev.iugu.com/docs/saque: pending, processing,
 * accepted, rejected) by document 1 §4's withdraw rule: accepted is the bank's
 * acceptance of the transfer, APPROVED; rejected REJECTED (also after an
 * acceptance: the trigger's `rejected_after_accepted`); unknown PENDING, as for
 * every payout.
 */
export const IUGU_WITHDRAW_STATUSES = statusTable<WithdrawStatus>(
  { pending: 'PENDING', processing: 'PENDING', accepted: 'APPROVED', rejected: 'REJECTED', canceled: 'CANCELED' },
  'PENDING',
);
