import type { Consistency } from '../db/consistency.js';
import type { MoveHooks, StatusMove } from '../db/statusRepository.js';
import type { PreparedTx } from '../db/preparedSql.js';
import { recordProviderChargeback } from '../db/disputesRepository.js';
import type { ProviderChargeback } from '../domain/disputes.js';
import type { Operation, PixPayment, StatusSource, Transaction, TransactionStatus, UnreadableAmount, Withdrawal, WithdrawStatus } from '../domain/types.js';
import type { AdapterContext, ProviderAdapter } from '../providers/adapter.js';
import type { GatewayDeps } from './context.js';

/**
 * A provider's answer (a read, or a notification's claim) about a charge or payout, as the gateway compares it with
 * its record. `amount` undefined: the answer does not say one (a read of a provider whose reads never do, PAGSTAR's).
 */
export interface ProviderView<S extends string> {
  status: S;
  amount?: number | UnreadableAmount;
  providerId?: string;
  /** A charge's answer: the PIX payment that paid it, where the answer states it. */
  pixPayment?: PixPayment;
  /** A charge's answer: the fee the provider takes of it in cents, where the answer states it. */
  providerFee?: number;
  /** A charge's answer: why it was declined, where the answer states it (a card charge declined after it was created). */
  declineReason?: string;
  /** A charge's answer: the same decline in the provider's words, where the answer gives a text. */
  declineMessage?: string;
  /** A payout's answer: why it was refused, where the answer states it. */
  refusalReason?: string;
  /** A charge's notification: the provider's chargeback of it, where the notification is about one. */
  chargeback?: ProviderChargeback;
}

/** A read's amount as compared: 0 is "not said" only for a provider whose reads never say it; for any other, an amount of 0 cents. */
const readAmount = (adapter: ProviderAdapter, amount: number): number | undefined => (amount === 0 && !adapter.readsStateAmounts ? undefined : amount);

/** What every tracked subject has. */
export interface Tracked<S extends string> {
  id: string;
  provider: string;
  providerAccountId: string;
  status: S;
}

/**
 * What the gateway tracks a provider status for — a charge or a payout —
 * described once, so that notifications and refreshes run one algorithm for both.
 */
export interface SubjectKind<S extends string, T extends Tracked<S>> {
  /** As it appears in messages: "transaction", "withdrawal". */
  name: string;
  /** The adapter operation that asks the provider for the current status. */
  lookup: Operation;
  /**
   * Statuses an unsigned notification may claim only once the provider confirms
   * them: the money states, and also the final failures, since a forged REJECTED
   * would lock out the real payment and a forged failed payout would invite paying twice.
   */
  confirmBeforeApplying: ReadonlySet<S>;
  find(deps: GatewayDeps, id: string, consistency?: Consistency): Promise<T | null>;
  findByProviderId(deps: GatewayDeps, providerAccountId: string, providerId: string): Promise<T | null>;
  providerId(subject: T): string;
  /**
   * What the provider answers about a subject: its status, and where the answer says them, the amount (cents; 0 when
   * not said) and the provider's id. `known`: the gateway's record of it, where there is one (its stored facts spare a
   * provider's read the calls that would state them again).
   */
  askProvider(adapter: ProviderAdapter, ctx: AdapterContext, providerId: string, known?: T): Promise<ProviderView<S>>;
  /** The money statuses: an answer claiming one (in any direction: paid, failed, given back) must match the record (flowIntegrity.ts). */
  moneyStatuses: ReadonlySet<S>;
  amountOf(subject: T): number;
  /** The amounts an answer claiming `status` may state: the record's, and for a refund also the part the gateway refunded (a partial refund). */
  acceptedAmounts(subject: T, status: S): readonly number[];
  /** Keeps what an answer states besides the status (a charge's PIX payment, fee and decline reason; a payout's refusal reason), in the move's database transaction. */
  recordFacts?(
    deps: GatewayDeps,
    tx: PreparedTx,
    id: string,
    view: Pick<ProviderView<S>, 'status' | 'pixPayment' | 'providerFee' | 'declineReason' | 'declineMessage' | 'refusalReason' | 'chargeback'>,
  ): Promise<void>;
  /** `finish` runs in the move's database transaction, whether the status changed or not (see MoveHooks). */
  move(deps: GatewayDeps, id: string, to: S, source: StatusSource, finish?: MoveHooks<S>['finish']): Promise<StatusMove<S> | null>;
}

export const TRANSACTIONS: SubjectKind<TransactionStatus, Transaction> = {
  name: 'transaction',
  lookup: 'getTransaction',
  confirmBeforeApplying: new Set(['APPROVED', 'REFUNDED', 'CHARGEBACK', 'REJECTED', 'CANCELED']),
  find: (deps, id, consistency) => deps.transactions.findTransaction(deps.db.em(), id, consistency),
  findByProviderId: (deps, providerAccountId, providerId) => deps.transactions.findTransactionByProviderId(deps.db.em(), providerAccountId, providerId),
  providerId: (transaction) => transaction.transactionId,
  askProvider: async (adapter, ctx, providerId, known) => {
    const read = await adapter.getTransaction(ctx, providerId, known && { providerFee: known.providerFee });
    return {
      status: read.status,
      amount: readAmount(adapter, read.amount),
      providerId: read.transactionId,
      pixPayment: read.pixPayment,
      providerFee: read.providerFee,
      declineReason: read.declineReason,
      declineMessage: read.declineMessage,
    };
  },
  recordFacts: async (deps, tx, id, view) => {
    await deps.transactions.recordPixPayment(tx, id, view.pixPayment);
    await deps.transactions.recordProviderFee(tx, id, view.providerFee);
    if (view.status === 'REJECTED') await deps.transactions.recordDeclineReason(tx, id, view.declineReason, view.declineMessage);
    if (view.chargeback) await recordProviderChargeback(tx, id, view.chargeback, new Date());
  },
  moneyStatuses: new Set(['APPROVED', 'REJECTED', 'CANCELED', 'REFUNDED', 'CHARGEBACK']),
  amountOf: (transaction) => transaction.amount,
  acceptedAmounts: (transaction, status) =>
    status === 'REFUNDED' && transaction.refundedAmount > 0 && transaction.refundedAmount !== transaction.amount
      ? [transaction.amount, transaction.refundedAmount]
      : [transaction.amount],
  move: (deps, id, to, source, finish) => deps.transactions.moveTransactionStatus(deps.db.em(), id, to, source, finish),
};

export const WITHDRAWALS: SubjectKind<WithdrawStatus, Withdrawal> = {
  name: 'withdrawal',
  lookup: 'getWithdraw',
  confirmBeforeApplying: new Set(['APPROVED', 'REJECTED', 'CANCELED']),
  find: (deps, id, consistency) => deps.withdrawals.findWithdrawal(deps.db.em(), id, consistency),
  findByProviderId: (deps, providerAccountId, providerId) => deps.withdrawals.findWithdrawalByProviderId(deps.db.em(), providerAccountId, providerId),
  providerId: (withdrawal) => withdrawal.withdrawId,
  askProvider: async (adapter, ctx, providerId) => {
    const read = await adapter.getWithdraw(ctx, providerId);
    return { status: read.status, amount: readAmount(adapter, read.amount), providerId: read.withdrawId, refusalReason: read.refusalReason };
  },
  recordFacts: async (deps, tx, id, view) => {
    // A payout the provider cancelled after accepting it (Pagstar's CANCELED with its errorCode) failed as much as a refused one.
    if (view.status === 'REJECTED' || view.status === 'CANCELED') await deps.withdrawals.recordRefusalReason(tx, id, view.refusalReason);
  },
  moneyStatuses: new Set(['APPROVED', 'REJECTED', 'CANCELED']),
  amountOf: (withdrawal) => withdrawal.amount,
  acceptedAmounts: (withdrawal) => [withdrawal.amount],
  move: (deps, id, to, source, finish) => deps.withdrawals.moveWithdrawalStatus(deps.db.em(), id, to, source, finish),
};

/** Moves a subject's status through the state machine and tells watchers when it changed (and committed). */
export async function moveSubjectStatus<S extends string, T extends Tracked<S>>(
  deps: GatewayDeps,
  kind: SubjectKind<S, T>,
  id: string,
  to: S,
  source: StatusSource,
  finish?: MoveHooks<S>['finish'],
): Promise<StatusMove<S> | null> {
  const move = await kind.move(deps, id, to, source, finish);
  if (move?.event) deps.events.published(move.event);
  return move;
}

/**
 * Moves a subject's status as a provider's answer says, keeping with the move what else the answer states (recordFacts):
 * only for an answer the gateway accepted, so callers refuse mismatched answers before this.
 */
export function moveSubjectAsAnswered<S extends string, T extends Tracked<S>>(
  deps: GatewayDeps,
  kind: SubjectKind<S, T>,
  id: string,
  answer: ProviderView<S>,
  source: StatusSource,
  finish?: MoveHooks<S>['finish'],
): Promise<StatusMove<S> | null> {
  return moveSubjectStatus(deps, kind, id, answer.status, source, async (tx, move) => {
    if (move) await kind.recordFacts?.(deps, tx, id, answer);
    await finish?.(tx, move);
  });
}
