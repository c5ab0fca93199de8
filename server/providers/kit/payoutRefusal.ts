import type { WithdrawStatus } from '../../domain/types.js';

/**
 * A failed payout's reason as the provider states it (a code or a text, kept as given): only where the payout did not
 * go through (REJECTED, or CANCELED by the provider after accepting it), and only where the provider gave one.
 */
export const payoutRefusal = (status: WithdrawStatus, reason: string | undefined): { refusalReason?: string } =>
  reason && (status === 'REJECTED' || status === 'CANCELED') ? { refusalReason: reason } : {};
