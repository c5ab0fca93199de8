import { describe, expect, it } from '@jest/globals';
import { PAGUESAFE } from '../../server/providers/members/paguesafe.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const SECRET = 'sk_live_paguesafe_123';

transactionsApiConformance(PAGUESAFE, {
  keys: { publicKey: 'pk_paguesafe', secretKey: SECRET },
  // HTTP Basic with the secret key as user and 'x' as password.
  authHeaders: { authorization: `Basic ${Buffer.from(`${SECRET}:x`).toString('base64')}` },
});

describe('PAGUESAFE, as the spec names it (doc 2)', () => {
  it('is a group-2 provider taking PIX, card and boleto, with refunds and postbacks', () => {
    expect(PAGUESAFE.identity).toMatchObject({ id: 'PAGUESAFE', specGroup: 'document 2 (group 2)' });
    expect(PAGUESAFE.capabilities).toEqual({ paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true });
  });

  it("answers 'Internal server error' on a refund failure (§8); PIX 1 day, boleto 3 days (§9)", () => {
    expect(PAGUESAFE.failures).toEqual({ refoundTransaction: 'INTERNAL_SERVER_ERROR' });
    expect(PAGUESAFE.expiry).toEqual({ pixSeconds: 86_400, boletoSeconds: 259_200 });
  });

  it('follows the common status pattern (§4): waiting, processing, authorized PENDING; paid APPROVED; unknown REJECTED', () => {
    for (const status of ['waiting', 'processing', 'authorized']) expect(statusOf(PAGUESAFE, status)).toBe('PENDING');
    expect(statusOf(PAGUESAFE, 'paid')).toBe('APPROVED');
    expect(statusOf(PAGUESAFE, 'never-heard-of')).toBe('REJECTED');
  });
});
