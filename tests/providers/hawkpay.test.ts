import { describe, expect, it } from '@jest/globals';
import { DOC3_COMMON_OVERRIDES } from '../../server/providers/families/transactionsApi/index.js';
import { HAWKPAY } from '../../server/providers/members/hawkpay.js';
import { F1Adapter } from '../../server/providers/families/transactionsApi/platforms/f1.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { F1_BODIES, statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// Research (F1, one public integration): Basic base64(publicKey:secretKey). The F1 platform's charge
// bodies: a card by `card.hash` (the platform's documentation), a boleto by `boleto.expirationDate`.
transactionsApiConformance(HAWKPAY, {
  keys: { publicKey: 'pk_hawk', secretKey: 'sk_hawk' },
  authHeaders: { authorization: `Basic ${Buffer.from('pk_hawk:sk_hawk').toString('base64')}` },
  create: (runtime: AdapterRuntime) => new F1Adapter(HAWKPAY, runtime),
  ...F1_BODIES,
});

describe('HAWKPAY (spec doc 3, group 3)', () => {
  it('creates and reads on the family paths and has no refund (§7); PIX 1 day and boleto 3 days are the defaults (§9)', () => {
    expect(HAWKPAY.paths).toBeUndefined();
    expect(HAWKPAY.capabilities.refunds).toBeUndefined();
    expect(HAWKPAY.expiry).toBeUndefined();
  });

  it("follows doc 3's common pattern (§4): authorized and confirmed are APPROVED, created and pending PENDING", () => {
    expect(HAWKPAY.statuses?.transaction?.overrides).toBe(DOC3_COMMON_OVERRIDES);
    expect(['authorized', 'confirmed', 'created', 'pending', 'in_dispute'].map((s) => statusOf(HAWKPAY, s))).toEqual([
      'APPROVED',
      'APPROVED',
      'PENDING',
      'PENDING',
      'CHARGEBACK',
    ]);
  });
});
