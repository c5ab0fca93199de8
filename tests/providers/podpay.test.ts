import { describe, expect, it } from '@jest/globals';
import { PODPAY } from '../../server/providers/members/podpay.js';
import { bacenPixConformance } from './conformance/bacenPix.suite.js';

// The family's suite derives from the declaration: payouts APPROVED at creation, 'Unauthorized.' without the platform record.
bacenPixConformance(PODPAY, {
  keys: { clientId: 'podpay-client', clientSecret: 'podpay-secret', chave: '1f0c2b9a-7e6d-4c3b-8a1f-2e3d4c5b6a79' },
  answers: { tokenResponse: { access_token: 'podpay-token', token_type: 'Bearer', expires_in: 3600 } },
});

describe('PODPAY, as the spec names it (doc 3, group 3)', () => {
  it('reports a PIX payout APPROVED immediately (§4) and refuses it without the platform record (§5), at the account host (§7 names none)', () => {
    expect(PODPAY.payout).toEqual({ statusAtCreation: 'approved', requirePlatform: true });
  });

  it('asks its token form-encoded with the client credentials in the body (F8), refunds by POST /sells/{id}/refund (§7)', () => {
    expect(PODPAY.auth).toMatchObject({ type: 'oauth2', tokenPath: '/oauth/token', body: 'form', clientAuth: 'body' });
    expect(PODPAY.refund).toEqual({ kind: 'post', path: '/sells/{id}/refund' });
    expect([PODPAY.apiVersions, PODPAY.publicRefund]).toEqual([['specification', 'public'], { kind: 'devolucao' }]);
  });

  it('PIX charges, refunds and payouts, notifications; no payout lookup (§7 gives none); phone keys +55 and PIX 1 day (the defaults)', () => {
    expect(PODPAY.identity).toEqual({ id: 'PODPAY', specGroup: 'document 3 (group 3)', defaultBaseUrl: 'https://api.podpay.co' });
    expect(PODPAY.capabilities).toEqual({ paymentMethods: ['PIX'], withdrawMethods: ['PIX'], refunds: true, webhooks: true });
    expect([PODPAY.pixKeyStyle, PODPAY.expiry]).toEqual([undefined, undefined]);
  });
});
