import { describe, expect, it } from '@jest/globals';
import { VOLUTI } from '../../server/providers/members/voluti.js';
import { bacenPixConformance } from './conformance/bacenPix.suite.js';

const TXID = 'f0c2b9a7e6d54c3b8a1f2e3d4c5b6a79';
const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';
/** VOLUTI's cob as it answers POST /cob (F8): its QR location host, valor.original with two decimals. */
const ATIVA = {
  calendario: { criacao: '2026-01-10T12:00:00.000Z', expiracao: 86400 },
  txid: TXID,
  revisao: 0,
  location: 'pix.voluti.com.br/qr/v3/at/6ed39bf2-bdc2-42b8-a95b-13d2212146b2',
  status: 'ATIVA',
  devedor: { cpf: '12345678909', nome: 'Ana Souza' },
  valor: { original: '19.90' },
  chave: CHAVE,
  solicitacaoPagador: 'Pedido 42',
  pixCopiaECola:
    '00020126850014br.gov.bcb.pix2563pix.voluti.com.br/qr/v3/at/6ed39bf2-bdc2-42b8-a95b-13d2212146b25204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304B226',
};

bacenPixConformance(VOLUTI, {
  keys: { clientId: 'voluti-client', clientSecret: 'voluti-secret', chave: CHAVE },
  answers: {
    tokenResponse: { access_token: 'voluti-token', token_type: 'Bearer', expires_in: 3600, scope: 'cob.write cob.read' },
    createdCob: ATIVA,
    paidCob: { ...ATIVA, status: 'CONCLUIDA', pix: [{ endToEndId: 'E1234', txid: TXID, valor: '19.90', horario: '2026-01-10T12:05:00Z' }] },
  },
});

describe('VOLUTI, as the spec and its integrations name it (doc 2, group 2; F8)', () => {
  it('asks its token at POST /oauth/token as JSON, the client credentials in the body, and refunds by POST /sells/{id}/refund (§7)', () => {
    expect(VOLUTI.auth).toMatchObject({ type: 'oauth2', tokenPath: '/oauth/token', body: 'json', clientAuth: 'body' });
    expect(VOLUTI.refund).toEqual({ kind: 'post', path: '/sells/{id}/refund' });
  });

  it("refunds by the API Pix's devolução for accounts on api_version 'public' (no public material shows /sells)", () => {
    expect([VOLUTI.apiVersions, VOLUTI.publicRefund]).toEqual([['specification', 'public'], { kind: 'devolucao' }]);
  });

  it('at api.pix.voluti.com.br: PIX charges and refunds, PIX payouts read back by GET /pix/payments/{id}, notifications (§7); PIX 1 day (§9)', () => {
    expect(VOLUTI.identity).toEqual({ id: 'VOLUTI', specGroup: 'document 2 (group 2)', defaultBaseUrl: 'https://api.pix.voluti.com.br' });
    expect(VOLUTI.capabilities).toEqual({ paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true });
    expect([VOLUTI.payout, VOLUTI.expiry]).toEqual([{ lookupPath: '/pix/payments/{id}' }, undefined]);
  });
});
