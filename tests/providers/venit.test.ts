import { describe, expect, it } from '@jest/globals';
import { VENIT } from '../../server/providers/members/venit.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// VenitPay (research): the keys in x-public-key and x-secret-key.
transactionsApiConformance(VENIT, {
  keys: { publicKey: 'pk_venit', secretKey: 'sk_venit' },
  authHeaders: { 'x-public-key': 'pk_venit', 'x-secret-key': 'sk_venit' },
});

describe('VENIT (spec doc 2, group 2)', () => {
  it("creates by POST /transaction, singular (§7), and fails a charge with 'Erro ao criar transação' (§8)", () => {
    expect(VENIT.paths).toEqual({ create: '/transaction' });
    expect(VENIT.failures).toEqual({ createTransaction: 'CREATE_TRANSACTION_FAILED' });
  });
});
