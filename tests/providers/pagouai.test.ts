import { describe, expect, it } from '@jest/globals';
import { PAGOUAI } from '../../server/providers/members/pagouai.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// Research (official docs): Authorization: Bearer sk_live_….
transactionsApiConformance(PAGOUAI, {
  keys: { publicKey: 'pk_pagou', secretKey: 'sk_live_pagou' },
  authHeaders: { authorization: 'Bearer sk_live_pagou' },
});

describe('PAGOUAI (spec doc 3, group 3)', () => {
  it('refunds by POST /transactions/{id}/refund with the provider message on failure (§7, §8: no fixed text)', () => {
    expect(PAGOUAI.capabilities.refunds).toBe(true);
    expect(PAGOUAI.paths).toBeUndefined();
    expect(PAGOUAI.failures).toBeUndefined();
  });

  it('maps the statuses of its official material (pending, processing, paid, refunded, expired) and authorized APPROVED (§4)', () => {
    expect(['pending', 'processing', 'paid', 'refunded', 'expired', 'authorized'].map((s) => statusOf(PAGOUAI, s))).toEqual([
      ...['PENDING', 'PENDING', 'APPROVED'],
      ...['REFUNDED', 'REJECTED', 'APPROVED'],
    ]);
  });
});
