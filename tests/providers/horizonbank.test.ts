import { describe, expect, it } from '@jest/globals';
import { HORIZONBANK } from '../../server/providers/members/horizonbank.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

transactionsApiConformance(HORIZONBANK, {
  keys: { publicKey: 'pk_hz', secretKey: 'sk_hz' },
  authHeaders: { authorization: `Basic ${Buffer.from('sk_hz:x').toString('base64')}` },
});

describe('HORIZONBANK (spec doc 2, group 2)', () => {
  it("answers 'Internal server error' on a refund failure (§8) and keeps the default validity, boleto 3 days (§9)", () => {
    expect(HORIZONBANK.failures).toEqual({ refoundTransaction: 'INTERNAL_SERVER_ERROR' });
    expect(HORIZONBANK.expiry).toBeUndefined();
  });
});
