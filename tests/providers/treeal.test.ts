import { describe, expect, it } from '@jest/globals';
import { TREEAL } from '../../server/providers/members/treeal.js';
import { notification } from './conformance/harness.js';
import { bacenPixConformance } from './conformance/bacenPix.suite.js';

const TXID = 'b8d2f7a0c4e14f0e9a7d3c5b1e2f4a6d';
const E2E = 'E18236120202601101205s0f3c2a9e5b7';

const treeal = bacenPixConformance(TREEAL, {
  keys: { clientId: 'treeal-client', clientSecret: 'treeal-secret', chave: 'pix@loja.example' },
  // Treeal's own answers (F8): a token without expires_in; POST /cob answers only {status, txid, pixCopiaECola}.
  answers: {
    tokenResponse: { token_type: 'Bearer', access_token: 'treeal-token' },
    createdCob: {
      status: 'ATIVA',
      txid: TXID,
      pixCopiaECola:
        '00020126820014br.gov.bcb.pix2560pix.treeal.com/qr/v3/at/3f1c2a9e-5b7d-4e21-9c0a-1d2e3f4a5b6c5204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304A4BC',
    },
    paidCob: { txid: TXID, status: 'CONCLUIDA', valor: { original: '19.90' }, pix: [{ endToEndId: E2E, txid: TXID, valor: '19.90' }] },
  },
});

describe('TREEAL, as the spec and its integrations name it (doc 2, group 2; F8)', () => {
  it('reads its notifications {data:{txId, status}}, which carry no event type, as RECEIVE (§4)', async () => {
    expect(TREEAL.untypedEvent).toBe('RECEIVE');
    const read = (status: string) =>
      treeal.adapter.processWebhook(treeal.ctx, notification({ data: { txId: TXID, status, createdAt: '2026-01-10T12:05:01Z' } }));
    await expect(read('LIQUIDATED')).resolves.toEqual({ type: 'TRANSACTION', transactionId: TXID, status: 'APPROVED' });
    // Its failure status: a RECEIVE that is not LIQUIDATED is PENDING, and the gateway asks GET /cob.
    await expect(read('Cancelled')).resolves.toEqual({ type: 'TRANSACTION', transactionId: TXID, status: 'PENDING' });
  });

  it('asks its token at POST /oauth/token form-encoded, the client credentials in the body; refunds by devolução (refund_nature ORIGINAL)', () => {
    expect(TREEAL.auth).toMatchObject({ type: 'oauth2', tokenPath: '/oauth/token', body: 'form', clientAuth: 'body' });
    expect(TREEAL.refund).toEqual({ kind: 'devolucao' });
  });

  it('at api.pix.treeal.com: PIX charges and refunds, PIX payouts read back by GET /pix/payments/{id}, notifications (§7); PIX 1 day (§9)', () => {
    expect(TREEAL.identity).toEqual({ id: 'TREEAL', specGroup: 'document 2 (group 2)', defaultBaseUrl: 'https://api.pix.treeal.com' });
    expect(TREEAL.capabilities).toEqual({ paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true });
    expect([TREEAL.payout, TREEAL.expiry]).toEqual([{ lookupPath: '/pix/payments/{id}' }, undefined]);
  });
});
