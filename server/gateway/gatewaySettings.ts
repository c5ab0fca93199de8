import type { GatewaySettingsRepository } from '../db/gatewaySettingsRepository.js';
import { openCallAudit } from './callAudit.js';
import type { GatewayDeps } from './context.js';
import { requireInRange } from './validation.js';

/** The largest limit taken: what a bigint of cents holds exactly as a JavaScript number. */
const LIMIT_MAX = Number.MAX_SAFE_INTEGER;

/** The four-eyes limit as it holds now: above it, an operator's payout waits for a second operator. */
export interface PayoutApprovalSettings {
  /** Cents; undefined: no payout waits. */
  aboveCents?: number;
  /** Whether it is still the environment's PAYOUT_APPROVAL_ABOVE_CENTS (no admin has set it in the back-office). */
  fromEnvironment: boolean;
  /** When an admin last set it; undefined while it is the environment's. */
  updatedAt?: Date;
}

/** Where the settings live: the deps' database and the environment's default. */
export type SettingsDeps = Pick<GatewayDeps, 'db' | 'payoutApprovalAboveCents'> & { settings: GatewaySettingsRepository };

/** The four-eyes limit a payout asked for now obeys: the back-office's, else the environment's (read from the primary). */
export async function payoutApprovalSettings(deps: SettingsDeps): Promise<PayoutApprovalSettings> {
  const stored = await deps.settings.get(deps.db.em(), 'payout_approval_above_cents');
  if (!stored) return { aboveCents: deps.payoutApprovalAboveCents, fromEnvironment: true };
  return { aboveCents: stored.valueCents ?? undefined, fromEnvironment: false, updatedAt: stored.updatedAt };
}

/**
 * The back-office's gateway settings (AccessService.Get/UpdatePayoutApprovalSettings). A change is audited with the
 * limit before and after, in the statement that stores it.
 */
export class GatewaySettingsService {
  constructor(private readonly deps: SettingsDeps) {}

  payoutApproval(): Promise<PayoutApprovalSettings> {
    return payoutApprovalSettings(this.deps);
  }

  /** Integer cents; 0 turns the four-eyes review off (no payout waits). */
  async updatePayoutApproval(aboveCents: number): Promise<PayoutApprovalSettings> {
    requireInRange(
      'approval_above_cents',
      aboveCents,
      0,
      LIMIT_MAX,
      `approval_above_cents must be a whole number of cents from 0 (no approval) to ${LIMIT_MAX}`,
    );
    const before = (await this.payoutApproval()).aboveCents ?? null;
    const audit = openCallAudit();
    const { audited } = await this.deps.settings.set(this.deps.db.em(), 'payout_approval_above_cents', aboveCents || null, {
      before,
      at: new Date(),
      audit: audit?.who,
    });
    if (audit && audited) audit.written = true;
    return this.payoutApproval();
  }
}
