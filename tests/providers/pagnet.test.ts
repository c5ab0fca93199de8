import { describe, expect, it } from '@jest/globals';
import { PAGNET } from '../../server/providers/members/pagnet.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// Research (F1, typed integration): Basic base64(pk:sk).
transactionsApiConformance(PAGNET, {
  keys: { publicKey: 'pk_pagnet', secretKey: 'sk_pagnet' },
  authHeaders: { authorization: `Basic ${Buffer.from('pk_pagnet:sk_pagnet').toString('base64')}` },
});

describe('PAGNET (spec doc 3, group 3)', () => {
  it('has no refund in the spec (§7), though its platform has one', () => {
    expect(PAGNET.capabilities.refunds).toBeUndefined();
  });

  it("maps the statuses its platform answers (research) with doc 3's common pattern (§4)", () => {
    const seen = ['waiting_payment', 'pending', 'approved', 'refused', 'in_protest', 'refunded', 'paid', 'cancelled', 'chargeback', 'authorized'];
    expect(seen.map((status) => statusOf(PAGNET, status))).toEqual([
      ...['PENDING', 'PENDING', 'APPROVED', 'REJECTED', 'CHARGEBACK'],
      ...['REFUNDED', 'APPROVED', 'CANCELED', 'CHARGEBACK', 'APPROVED'],
    ]);
  });
});
