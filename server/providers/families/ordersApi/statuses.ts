import type { ReceiverStatus, TransactionStatus, WithdrawStatus } from '../../../domain/types.js';
import { statusTable, type StatusTable } from '../../../lib/statusTable.js';
import { COMMON_RECEIVER_STATUSES } from '../../kit/commonStatuses.js';

/**
 * Order and charge statuses (one vocabulary: the order's is a subset of the
 * charge's). Unknown is REJECTED for most providers (spec doc 1 §4).
 */
export const ORDERS_API_STATUSES = statusTable<TransactionStatus>(
  {
    paid: 'APPROVED',
    // More than the amount arrived: the charge is paid.
    overpaid: 'APPROVED',
    // A partial refund keeps the charge APPROVED (docs/decisions.md, RefoundTransaction).
    partial_canceled: 'APPROVED',
    pending: 'PENDING',
    processing: 'PENDING',
    // Less than the amount arrived: still waiting for the rest.
    underpaid: 'PENDING',
    // The spec's common pattern (doc 2 §4): waiting, processing, authorized → PENDING.
    waiting: 'PENDING',
    waiting_payment: 'PENDING',
    authorized: 'PENDING',
    canceled: 'REFUNDED',
    refunded: 'REFUNDED',
    chargedback: 'CHARGEBACK',
    failed: 'REJECTED',
  },
  'REJECTED',
);

/**
 * Replacements for a charge that never received money. 'canceled' means a
 * refund after payment (REFUNDED, the spec's common table) but a plain
 * cancellation of an unpaid PIX/boleto (CANCELED): the state machine only lets
 * APPROVED become REFUNDED.
 */
export const ORDERS_API_NEVER_PAID: Readonly<Record<string, TransactionStatus>> = { canceled: 'CANCELED' };

/** Withdrawals (spec doc 1 §4 "Withdraw status"): pending at creation; transferred is paid; canceled; the rest REJECTED. */
export const ORDERS_API_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  {
    pending: 'PENDING',
    processing: 'PENDING',
    created: 'PENDING',
    transferred: 'APPROVED',
    paid: 'APPROVED',
    canceled: 'CANCELED',
    failed: 'REJECTED',
  },
  'REJECTED',
);

/**
 * Recipients: doc 1 §4's third receiver rule (the kit's table: active or
 * approved ACTIVE, rejected or cancelled REJECTED, anything else PENDING). A
 * member adds its own words over it (PAGARME's `refused`).
 */
export const ORDERS_API_RECEIVER_STATUSES: StatusTable<ReceiverStatus> = COMMON_RECEIVER_STATUSES;

/**
 * Notifications the family acts on: which resource `data` is, and the status
 * the event means. 'FROM_RESOURCE' reads it from `data` (an order canceled
 * after payment is REFUNDED, before payment CANCELED). Every other event
 * (order.created, charge.pending, charge.partial_canceled, …) is ignored.
 */
export type OrdersApiEventRule = { resource: 'order' | 'charge'; status: TransactionStatus | 'FROM_RESOURCE' };

export const ORDERS_API_EVENTS: Readonly<Record<string, OrdersApiEventRule>> = {
  'order.paid': { resource: 'order', status: 'APPROVED' },
  'order.payment_failed': { resource: 'order', status: 'REJECTED' },
  'order.canceled': { resource: 'order', status: 'FROM_RESOURCE' },
  'charge.paid': { resource: 'charge', status: 'APPROVED' },
  'charge.overpaid': { resource: 'charge', status: 'APPROVED' },
  'charge.payment_failed': { resource: 'charge', status: 'REJECTED' },
  'charge.refunded': { resource: 'charge', status: 'REFUNDED' },
  'charge.chargedback': { resource: 'charge', status: 'CHARGEBACK' },
};

/** What a refund answer says: made, taken and still being carried out, or refused. */
export type OrdersApiRefundOutcome = 'done' | 'in_progress' | 'refused';

/**
 * The refund answered by DELETE /charges/{id}, read from its charge's last
 * transaction (the charge itself canceled is always done). Pagar.me's
 * transaction statuses (docs.pagar.me, "Cobrança"; the PIX transaction's
 * `pending_refund`): a card refund or void is done at once, whole or partial;
 * a PIX refund is `pending_refund` while the payer's bank returns it, the
 * charge staying `paid`; `waiting_cancellation` is a cancellation queued. Only
 * the explicit failures are refused (their cents are released for another
 * try); anything else the provider answered with 2xx is in progress, to be
 * confirmed, so that no cents are ever released (and refunded twice) on a guess.
 */
export const ORDERS_API_REFUND_OUTCOMES = statusTable<OrdersApiRefundOutcome>(
  {
    refunded: 'done',
    partial_refunded: 'done',
    voided: 'done',
    partial_void: 'done',
    pending_refund: 'in_progress',
    waiting_cancellation: 'in_progress',
    error_on_refunding: 'refused',
    error_on_voiding: 'refused',
  },
  'in_progress',
);
