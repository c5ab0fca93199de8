import type { StatusSource } from '../domain/types.js';
import type { FlowMismatchesRepository } from '../db/flowMismatchesRepository.js';
import type { GatewayDeps } from './context.js';
import type { ProviderView, SubjectKind, Tracked } from './subjects.js';

/**
 * Flow integrity (Prism's idea): a provider answer that says money moved —
 * a charge APPROVED, a payout APPROVED — is applied only when it is about the
 * gateway's own record: the same provider id and, where the answer says an
 * amount, the same amount. Otherwise (a provider's bug, a base URL pointed at
 * something else) nothing moves; the answer is kept for operators and logged.
 * An answer that says no amount (0: PAGSTAR's checks) is compared by id only.
 */
export function mismatchOf<S extends string, T extends Tracked<S>>(kind: SubjectKind<S, T>, subject: T, answer: ProviderView<S>): string | undefined {
  if (!kind.moneyMoved.has(answer.status)) return undefined;
  const expectedId = kind.providerId(subject);
  if (answer.providerId && answer.providerId !== expectedId)
    return `the provider answered ${answer.status} about ${answer.providerId}, asked about ${expectedId}`;
  const expected = kind.amountOf(subject);
  if (answer.amount > 0 && answer.amount !== expected)
    return `the provider answered ${answer.status} for ${answer.amount} cents, the ${kind.name} is ${expected} cents`;
  return undefined;
}

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
    reportedAmount: answer.amount,
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
