import type { PaymentMethod, ReceiverStatus, TransactionStatus, WithdrawMethod, WithdrawStatus } from './types.js';
import type { DeclineCategory } from './declineCategories.js';

/** The lists' and the dashboard's vocabulary: filters, pages and stats, beside the records' in types.ts. */

/** The back-office's list filters: every one optional; those that are set must all hold. */
export interface ListFilter<S extends string> {
  /** A provider's id, upper-case. */
  provider?: string;
  providerAccountId?: string;
  /** Any of these; empty or absent: every status. */
  statuses?: readonly S[];
  /** Created at or after. */
  createdFrom?: Date;
  /** Created before. */
  createdTo?: Date;
  /** Exact match on the record's ids and, where it has them, order id, document and e-mail. */
  query?: string;
}

export interface TransactionListFilter extends ListFilter<TransactionStatus> {
  paymentMethod?: PaymentMethod;
}

export interface WithdrawalListFilter extends ListFilter<WithdrawStatus> {
  paymentMethod?: WithdrawMethod;
}

export type ReceiverListFilter = ListFilter<ReceiverStatus>;

/** Where a page starts: after this record, newest first by (createdAt, id); absent: from the newest. */
export interface PageCursor {
  at: Date;
  id: string;
}

/** One page of a list; nextPageToken is absent on the last. */
export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

export type TimeBucket = 'HOUR' | 'DAY';

/** GetTransactionStats: charges created in [createdFrom, createdTo) in one currency, optionally of one provider or account. */
export interface TransactionStatsQuery {
  createdFrom: Date;
  createdTo: Date;
  provider?: string;
  providerAccountId?: string;
  bucket: TimeBucket;
  /** An IANA name; hours and days begin there. */
  timeZone: string;
  currency: string;
}

/** How many charges, and their amounts added up (cents). */
export interface Totals {
  count: number;
  amount: number;
}

export type StatusTotals = Totals & { status: TransactionStatus };
export type ProviderTotals = Totals & { provider: string };

/**
 * What charges came to, in counts and cents: approved (APPROVED, REFUNDED,
 * CHARGEBACK: paid at first), declined (REJECTED), pending, canceled, of the
 * charges created in the range; the approved amount (gross) of those, the
 * refunded and charged-back cents of refunds and chargebacks that happened in
 * the range (whenever their charge was created, as the statement counts them),
 * and net (gross less both).
 */
export interface Outcomes {
  approvedCount: number;
  declinedCount: number;
  pendingCount: number;
  canceledCount: number;
  approvedAmount: number;
  refundedAmount: number;
  chargebackAmount: number;
  netAmount: number;
}

export interface TransactionStats {
  total: Totals;
  /** The range's charges' outcomes, and the same per payment method and per provider (in byPaymentMethod's and byProvider's order). */
  outcomes: Outcomes;
  outcomesByPaymentMethod: (Outcomes & { paymentMethod: PaymentMethod })[];
  outcomesByProvider: (Outcomes & { provider: string })[];
  /** Largest count first. */
  byStatus: StatusTotals[];
  byProvider: ProviderTotals[];
  byPaymentMethod: (Totals & { paymentMethod: PaymentMethod })[];
  /** The declined (REJECTED) charges by the gateway's category of their reason; '' for those whose provider gave none. Largest count first. */
  declinesByCategory: (Totals & { category: DeclineCategory | '' })[];
  /** Oldest first; only buckets with charges, each with its own totals by status and provider (largest count first). */
  buckets: (Totals & { start: Date; byStatus: StatusTotals[]; byProvider: ProviderTotals[] })[];
}
