import type { Consistency } from '../db/consistency.js';
import type { StatusMove } from '../db/statusRepository.js';
import type { Operation, StatusSource, Transaction, TransactionStatus, Withdrawal, WithdrawStatus } from '../domain/types.js';
import type { AdapterContext, ProviderAdapter } from '../providers/adapter.js';
import type { GatewayDeps } from './context.js';

/** What every tracked subject has. */
export interface Tracked<S extends string> {
  id: string;
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
  askProvider(adapter: ProviderAdapter, ctx: AdapterContext, providerId: string): Promise<{ status: S }>;
  move(deps: GatewayDeps, id: string, to: S, source: StatusSource): Promise<StatusMove<S> | null>;
}

export const TRANSACTIONS: SubjectKind<TransactionStatus, Transaction> = {
  name: 'transaction',
  lookup: 'getTransaction',
  confirmBeforeApplying: new Set(['APPROVED', 'REFUNDED', 'CHARGEBACK', 'REJECTED', 'CANCELED']),
  find: (deps, id, consistency) => deps.transactions.findTransaction(deps.db.em(), id, consistency),
  findByProviderId: (deps, providerAccountId, providerId) => deps.transactions.findTransactionByProviderId(deps.db.em(), providerAccountId, providerId),
  providerId: (transaction) => transaction.transactionId,
  askProvider: (adapter, ctx, providerId) => adapter.getTransaction(ctx, providerId),
  move: (deps, id, to, source) => deps.transactions.moveTransactionStatus(deps.db.em(), id, to, source),
};

export const WITHDRAWALS: SubjectKind<WithdrawStatus, Withdrawal> = {
  name: 'withdrawal',
  lookup: 'getWithdraw',
  confirmBeforeApplying: new Set(['APPROVED', 'REJECTED', 'CANCELED']),
  find: (deps, id, consistency) => deps.transactions.findWithdrawal(deps.db.em(), id, consistency),
  findByProviderId: (deps, providerAccountId, providerId) => deps.transactions.findWithdrawalByProviderId(deps.db.em(), providerAccountId, providerId),
  providerId: (withdrawal) => withdrawal.withdrawId,
  askProvider: (adapter, ctx, providerId) => adapter.getWithdraw(ctx, providerId),
  move: (deps, id, to, source) => deps.transactions.moveWithdrawalStatus(deps.db.em(), id, to, source),
};

/** Moves a subject's status through the state machine and tells watchers when it changed. */
export async function moveSubjectStatus<S extends string, T extends Tracked<S>>(
  deps: GatewayDeps,
  kind: SubjectKind<S, T>,
  id: string,
  to: S,
  source: StatusSource,
): Promise<StatusMove<S> | null> {
  const move = await kind.move(deps, id, to, source);
  if (move?.event) deps.events.published(move.event);
  return move;
}
