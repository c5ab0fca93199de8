import type { Actor, Item, PayoutRequest, RefundResult, Transaction, TransactionResult, Withdrawal, WithdrawMethod, WithdrawResult } from '../domain/types.js';
import type { GatewayDeps } from './context.js';
import type { RoutingRecord } from '../domain/routing.js';
import { isWholeCents } from '../lib/money.js';
import type { CallAudit } from './callAudit.js';

/**
 * What storing a provider's answer needs beyond the answer itself, for each
 * money-moving operation. Kept with an idempotency key whose outcome is
 * unknown, so that the answer can be recorded when the provider (or an
 * operator) confirms it later. No card data and no secrets.
 */
export type PendingRecord =
  | {
      kind: 'transaction';
      provider: string;
      installments: number;
      currency: string;
      orderId?: string;
      webhookUrl?: string;
      amount?: number;
      /** The customer's document digits and lower-cased e-mail, kept for the back-office's search (searchKeys.ts). */
      customerDocument?: string;
      customerEmail?: string;
      /** What the charge page shows of the request: no card data (cardBrand and cardLast4 are all that is kept of a card). */
      customerName?: string;
      description?: string;
      items?: Item[];
      cardBrand?: string;
      cardLast4?: string;
      /** A routed charge's route and the accounts tried before this one (routedCharges.ts). */
      routing?: RoutingRecord;
    }
  | {
      kind: 'withdrawal';
      provider: string;
      paymentMethod: WithdrawMethod;
      amount?: number;
      /** What was asked and by whom, kept with the payout. */
      request?: PayoutRequest;
      requestedBy?: Actor;
      /** The payout held for approval this request sends once approved: the answer is recorded on it, not as a new payout. */
      heldId?: string;
      /** A routed payout's route and the accounts tried before this one (routedCharges.ts). */
      routing?: RoutingRecord;
    }
  | {
      kind: 'refund';
      transactionId: string;
      amount: number;
      /** The refund request's idempotency key and who asked (refunds' records; absent from those kept before). */
      key?: string;
      requestedBy?: Actor;
    };

type Deps = Pick<GatewayDeps, 'db' | 'transactions' | 'withdrawals' | 'events'>;

/**
 * The answer's amount, or the one asked for where the provider's read says
 * none (0: PAGSTAR's checks answer paid or not, never how much) or says
 * something that is not a whole number of cents (a negative, a fraction): the
 * record's amount is what every later notification is checked against.
 * Pending records kept before `amount` was part of them have none to offer.
 */
const withAmountAsked = <R extends { amount: number }>(result: R, asked: number | undefined): R =>
  isWholeCents(result.amount) || !asked ? result : { ...result, amount: asked };

export async function recordTransaction(
  deps: Deps,
  providerAccountId: string,
  pending: Extract<PendingRecord, { kind: 'transaction' }>,
  result: TransactionResult,
  idempotencyKey: string | undefined,
): Promise<Transaction> {
  return (await recordCreatedTransaction(deps, providerAccountId, pending, result, idempotencyKey)).transaction;
}

/**
 * Stores a charge; with `keyClaimId` (the idempotency key this request claimed) the key is completed in the same
 * statement, and `keyCompleted` says whether it was (not when the charge was already recorded: the caller completes it).
 * With the call's open `audit` row, that row is written in the same statement too, and marked written.
 */
export async function recordCreatedTransaction(
  deps: Deps,
  providerAccountId: string,
  pending: Extract<PendingRecord, { kind: 'transaction' }>,
  result: TransactionResult,
  idempotencyKey: string | undefined,
  keyClaimId?: string,
  audit?: CallAudit,
): Promise<{ transaction: Transaction; keyCompleted: boolean }> {
  // A prepared statement, with no unit of work (Database.rootEm); the rare already-recorded path forks its own.
  const { transaction, event, keyCompleted, audited } = await deps.transactions.insertTransaction(
    deps.db.rootEm(),
    {
      provider: pending.provider,
      providerAccountId,
      result: withAmountAsked(result, pending.amount),
      installments: pending.installments,
      currency: pending.currency,
      orderId: pending.orderId,
      customerDocument: pending.customerDocument,
      customerEmail: pending.customerEmail,
      customerName: pending.customerName,
      description: pending.description,
      items: pending.items,
      cardBrand: pending.cardBrand,
      cardLast4: pending.cardLast4,
      webhookUrl: pending.webhookUrl,
      idempotencyKey,
      routing: pending.routing,
    },
    keyClaimId,
    audit?.who,
  );
  if (audit && audited) audit.written = true;
  if (event) deps.events.published(event);
  return { transaction, keyCompleted };
}

export async function recordWithdrawal(
  deps: Deps,
  providerAccountId: string,
  pending: Extract<PendingRecord, { kind: 'withdrawal' }>,
  result: WithdrawResult,
  idempotencyKey: string | undefined,
): Promise<Withdrawal> {
  const answered = withAmountAsked(result, pending.amount);
  if (pending.heldId) {
    const attached = await deps.withdrawals.attachSent(deps.db.em(), pending.heldId, answered);
    if (attached?.event) deps.events.published(attached.event);
    return attached?.withdrawal ?? (await deps.withdrawals.findWithdrawal(deps.db.em(), pending.heldId, 'primary'))!;
  }
  const { withdrawal, event } = await deps.withdrawals.insertWithdrawal(deps.db.em(), {
    provider: pending.provider,
    providerAccountId,
    paymentMethod: pending.paymentMethod,
    result: answered,
    idempotencyKey,
    request: pending.request,
    requestedBy: pending.requestedBy,
    routing: pending.routing,
  });
  if (event) deps.events.published(event);
  return withdrawal;
}

/**
 * The provider's answer to a refund whose cents were reserved: made, they
 * count as refunded and the charge is REFUNDED once nothing is left; refused
 * (status false), the reservation is released; accepted but still being
 * carried out (pending), the reservation stays as it is, so that no later
 * refund can ask for those cents again while the provider returns them.
 */
export async function recordRefund(deps: Deps, pending: Extract<PendingRecord, { kind: 'refund' }>, refund: RefundResult): Promise<Transaction> {
  await deps.transactions.refunds.saveAnswer(deps.db.em(), {
    transactionId: pending.transactionId,
    amount: pending.amount,
    status: !refund.status ? 'FAILED' : refund.pending ? 'PENDING' : 'SUCCEEDED',
    providerRefundId: refund.refundId,
    idempotencyKey: pending.key,
    requestedBy: pending.requestedBy,
  });
  if (refund.status && refund.pending) return (await deps.transactions.findTransaction(deps.db.em(), pending.transactionId, 'primary'))!;
  const totals = await deps.transactions.settleRefund(deps.db.em(), pending.transactionId, pending.amount, refund.status ? 'refunded' : 'released');
  if (refund.status && totals.refunded >= totals.amount) {
    const move = await deps.transactions.moveTransactionStatus(deps.db.em(), pending.transactionId, 'REFUNDED', 'api');
    if (move?.event) deps.events.published(move.event);
  }
  return (await deps.transactions.findTransaction(deps.db.em(), pending.transactionId, 'primary'))!;
}

/** A refund the provider certainly did not make: its reserved cents are free again. */
export async function releaseRefund(deps: Deps, pending: Extract<PendingRecord, { kind: 'refund' }>): Promise<void> {
  await deps.transactions.settleRefund(deps.db.em(), pending.transactionId, pending.amount, 'released');
}
