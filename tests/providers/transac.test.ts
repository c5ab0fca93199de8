import { describe, expect, it } from '@jest/globals';
import { TRANSAC } from '../../server/providers/members/transac.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

transactionsApiConformance(TRANSAC, {
  keys: { publicKey: 'pk_tr', secretKey: 'sk_tr' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_tr:x').toString('base64')}` },
});

describe('TRANSAC (spec doc 2, group 2)', () => {
  it('has nothing of its own in the spec: no fixed texts, statuses or validity beyond the family', () => {
    expect([TRANSAC.failures, TRANSAC.statuses, TRANSAC.expiry, TRANSAC.paths]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
