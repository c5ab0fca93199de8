import { describe, expect, it } from '@jest/globals';
import { PAGARME } from '../../server/providers/members/pagarme.js';
import { PAGARMEBAAS } from '../../server/providers/members/pagarmebaas.js';
import { ordersApiConformance } from './conformance/ordersApi.suite.js';

/** Pagar.me v5 itself: the family's canned answers are its own. */
ordersApiConformance(PAGARME, { keys: { publicKey: 'pk_test_pagarme', secretKey: 'sk_test_pagarme' } });

describe('PAGARME (spec doc 2, group 1)', () => {
  it("is PAGARMEBAAS's Pagar.me v5 in group 1, with the default validity instead of PAGARMEBAAS's 5-day boleto", () => {
    expect(PAGARME.identity).toEqual({ id: 'PAGARME', specGroup: 'document 2 (group 1)', defaultBaseUrl: 'https://api.pagar.me/core/v5' });
    expect(PAGARME.expiry).toBeUndefined();
    expect([PAGARME.capabilities, PAGARME.auth, PAGARME.withdrawalRecipient]).toEqual([
      PAGARMEBAAS.capabilities,
      PAGARMEBAAS.auth,
      PAGARMEBAAS.withdrawalRecipient,
    ]);
  });
});
