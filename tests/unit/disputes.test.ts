import { describe, expect, it } from '@jest/globals';
import { chargebackDisputeKind, defaultDisputeDeadline, isOpenDispute } from '../../server/domain/disputes.js';

describe('disputes the gateway opens itself', () => {
  it('are an infraction (MED) for a PIX payment and a chargeback for any other charge', () => {
    expect(chargebackDisputeKind('PIX')).toBe('PIX_INFRACTION');
    expect(chargebackDisputeKind('CREDIT_CARD')).toBe('CHARGEBACK');
    expect(chargebackDisputeKind('BILLET')).toBe('CHARGEBACK');
  });

  it('are due 7 days after they are opened, for both kinds', () => {
    const at = new Date('2026-11-29T03:00:00Z');
    expect(defaultDisputeDeadline('PIX_INFRACTION', at)).toEqual(new Date('2026-12-06T03:00:00Z'));
    expect(defaultDisputeDeadline('CHARGEBACK', at)).toEqual(new Date('2026-12-06T03:00:00Z'));
  });

  it('stay open until an outcome is recorded', () => {
    expect(['OPEN', 'EVIDENCE_SUBMITTED', 'WON', 'LOST', 'ACCEPTED'].filter((status) => isOpenDispute(status as never))).toEqual([
      'OPEN',
      'EVIDENCE_SUBMITTED',
    ]);
  });
});
