import { describe, expect, it } from '@jest/globals';
import { UNICOPAY } from '../../server/providers/members/unicopay.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

transactionsApiConformance(UNICOPAY, {
  keys: { publicKey: 'pk_un', secretKey: 'sk_un' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_un:x').toString('base64')}` },
});

describe('UNICOPAY (spec doc 2, group 2)', () => {
  it('registers under its spec id with the family paths of doc 2 §7', () => {
    expect(UNICOPAY.identity.id).toBe('UNICOPAY');
    expect(UNICOPAY.paths).toBeUndefined();
  });
});
