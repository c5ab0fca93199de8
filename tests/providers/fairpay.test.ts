import { describe, expect, it } from '@jest/globals';
import { F2Adapter } from '../../server/providers/families/transactionsApi/platforms/f2.js';
import { FAIRPAY } from '../../server/providers/members/fairpay.js';
import { F2_BODIES, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// FairPayments (research F2): Basic with the secret key, the company id (the account's public key) in x-company-id.
transactionsApiConformance(FAIRPAY, {
  keys: { publicKey: 'company-42', secretKey: 'sk_fair' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_fair:x').toString('base64')}`, 'x-company-id': 'company-42' },
  create: (runtime) => new F2Adapter(FAIRPAY, runtime),
  ...F2_BODIES,
});

describe('FAIRPAY (spec doc 2, group 2)', () => {
  it('refunds by DELETE /transactions/{id} (§7)', () => {
    expect(FAIRPAY.paths?.refund).toEqual({ method: 'DELETE', path: '/transactions/{id}' });
  });

  it('needs both keys: the company id is the public key', () => {
    expect(FAIRPAY.credentials?.required).toEqual(['publicKey', 'secretKey']);
  });
});
