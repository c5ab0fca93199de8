import type { StatusSource } from '../domain/types.js';
import { isWholeCents } from '../lib/money.js';
import type { FlowMismatchesRepository } from '../db/flowMismatchesRepository.js';
import type { GatewayDeps } from './context.js';
import type { ProviderView, SubjectKind, Tracked } from './subjects.js';

/**
 * Flow integrity (Prism's idea): a provider answer (a read, or a notification's
 * claim) that says a charge or payout reached a money status — paid, failed,
 * cancelled, refunded, charged back: money moved or must not be sent again — is
 * applied only when it is about the gateway's own record: the same provider id
 * and the same amount, a whole number of cents (for a refund, the charge's or
 * the part the gateway refunded). An amount that is not one (a string, a
 * fraction, a negative, nothing where the provider always sends one) is a
 * mismatch too, never "not said". Otherwise (a forged notification, a
 * provider's bug, a base URL pointed at something else) nothing moves; the
 * answer is kept for operators and logged. Only an answer that cannot say an
 * amount (a read of PAGSTAR's, whose checks never do) is compared by id alone.
 */
export function mismatchOf<S extends string, T extends Tracked<S>>(kind: SubjectKind<S, T>, subject: T, answer: ProviderView<S>): string | undefined {
  if (!kind.moneyStatuses.has(answer.status)) return undefined;
  const expectedId = kind.providerId(subject);
  if (answer.providerId && answer.providerId !== expectedId)
    return `the provider answered ${answer.status} about ${answer.providerId}, asked about ${expectedId}`;
  const expected = kind.amountOf(subject);
  const { amount } = answer;
  if (amount === undefined) return undefined;
  if (!isWholeCents(amount)) {
    const sent = typeof amount === 'number' ? String(amount) : amount.unreadable;
    return `the provider answered ${answer.status} with an amount that is not a whole number of cents (${sent}), the ${kind.name} is ${expected} cents`;
  }
  if (!kind.acceptedAmounts(subject, answer.status).includes(amount))
    return `the provider answered ${answer.status} for ${amount} cents, the ${kind.name} is ${expected} cents`;
  return undefined;
}

/** The amount a mismatch keeps as reported: the integer the provider said, else 0 (the reason says what it sent). */
const reportedAmountOf = (amount: ProviderView<string>['amount']): number => (Number.isSafeInteger(amount) ? (amount as number) : 0);

export type FlowDeps = Pick<GatewayDeps, 'db' | 'logger'> & { mismatches: FlowMismatchesRepository };

/**
 * The check every caller that asks a provider makes: the reason the answer is
 * refused, after keeping it for operators (ListFlowMismatches) and logging it
 * at warn; undefined when the answer may be applied.
 */
export async function refusedAnswer<S extends string, T extends Tracked<S>>(
  deps: FlowDeps,
  kind: SubjectKind<S, T>,
  subject: T,
  answer: ProviderView<S>,
  source: StatusSource,
): Promise<string | undefined> {
  const reason = mismatchOf(kind, subject, answer);
  if (!reason) return undefined;
  const mismatch = await deps.mismatches.record(deps.db.em(), {
    provider: subject.provider,
    providerAccountId: subject.providerAccountId,
    subjectKind: kind.name as 'transaction' | 'withdrawal',
    subjectId: subject.id,
    source: source === 'webhook' ? 'webhook' : 'poll',
    claimedStatus: answer.status,
    expectedAmount: kind.amountOf(subject),
    reportedAmount: reportedAmountOf(answer.amount),
    expectedProviderId: kind.providerId(subject),
    reportedProviderId: answer.providerId ?? '',
    reason,
  });
  deps.logger.warn(
    { mismatchId: mismatch.id, provider: subject.provider, providerAccountId: subject.providerAccountId, subject: kind.name, subjectId: subject.id, reason },
    'provider answer does not match the record: not applied',
  );
  return reason;
}
