import { describe, expect, it } from '@jest/globals';
import { VOLUTI } from '../../server/providers/members/voluti.js';
import { absent } from '../support/fakeProvider.js';
import { bacenPixConformance } from './conformance/bacenPix.suite.js';

/** VOLUTI (spec doc 2, group 2): the family's conformance suite with VOLUTI's canned answers, then what only VOLUTI does. */

const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';
const TXID = '7978c0c97ea847e78e8849634473c1f1';
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
const PAYOUT = { endToEndId: 'E33053580202501090356212912f6b8', id: 1448625, payment: { currency: 'BRL', amount: 10.5 } };

const voluti = bacenPixConformance(VOLUTI, {
  keys: { clientId: 'voluti-client', clientSecret: 'voluti-secret', chave: CHAVE },
  tokenResponse: { access_token: 'voluti-token', token_type: 'Bearer', expires_in: 3600, scope: 'cob.write cob.read' },
  createdCob: ATIVA,
  paidCob: { ...ATIVA, status: 'CONCLUIDA', pix: [{ endToEndId: 'E1234', txid: TXID, valor: '19.90', horario: '2026-01-10T12:05:00Z' }] },
  refundResponse: { id: 'refund-77', status: 'PROCESSING' },
  createdPayout: { ...PAYOUT, status: 'PENDING', eventDate: '2025-01-09T03:56:21.291+00:00', type: 'QUEUED' },
  liquidatedPayout: { ...PAYOUT, status: 'LIQUIDATED', eventDate: '2025-01-09T03:56:23.000+00:00' },
});

describe('VOLUTI only', () => {
  it('offers cash-in, refunds, payouts and their lookup, and notifications (doc 2 §7)', () => {
    expect(voluti.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    expect(VOLUTI.identity.defaultBaseUrl).toBe('https://api.pix.voluti.com.br');
  });

  it('asks its token as JSON with the client credentials in the body (F8), and refunds by POST /sells/{id}/refund (doc 2 §7)', async () => {
    const ctx = voluti.account();
    voluti.fake.expect({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': /^application\/json/, authorization: absent },
      body: { grant_type: 'client_credentials', client_id: 'voluti-client', client_secret: 'voluti-secret' },
      reply: { body: { access_token: 'json-token' } },
    });
    voluti.fake.expect({
      method: 'POST',
      path: `/sells/${TXID}/refund`,
      headers: { authorization: 'Bearer json-token' },
      body: { amount: 19.9 },
      reply: { body: { id: 'r1' } },
    });
    await expect(voluti.adapter.refoundTransaction(ctx, TXID, 1990)).resolves.toEqual({ refundId: 'r1', status: true });
  });
});
