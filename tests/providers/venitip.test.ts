import { describe, expect, it } from '@jest/globals';
import { VENITIP } from '../../server/providers/members/venitip.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

transactionsApiConformance(VENITIP, {
  keys: { publicKey: 'pk_vtip', secretKey: 'sk_vtip' },
  authHeaders: { 'x-public-key': 'pk_vtip', 'x-secret-key': 'sk_vtip' },
});

describe('VENITIP (spec doc 2, group 2)', () => {
  it('approves only paid, received and confirmed; refused, refunded and infraction are REJECTED; anything else PENDING (§4)', () => {
    const of = (...statuses: string[]) => statuses.map((status) => statusOf(VENITIP, status));
    expect(of('paid', 'received', 'confirmed')).toEqual(['APPROVED', 'APPROVED', 'APPROVED']);
    expect(of('refused', 'refunded', 'infraction')).toEqual(['REJECTED', 'REJECTED', 'REJECTED']);
    expect(of('completed', 'chargedback', 'approved', 'anything')).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING']);
  });

  it("fails a charge with 'Erro ao criar transação' (§8) and uses the family's /transactions (only VENIT's is singular)", () => {
    expect(VENITIP.failures).toEqual({ createTransaction: 'CREATE_TRANSACTION_FAILED' });
    expect(VENITIP.paths).toBeUndefined();
  });
});
