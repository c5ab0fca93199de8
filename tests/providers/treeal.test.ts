import { describe, expect, it } from '@jest/globals';
import { TREEAL } from '../../server/providers/members/treeal.js';
import { absent } from '../support/fakeProvider.js';
import { bacenPixConformance } from './conformance/bacenPix.suite.js';

/** TREEAL (spec doc 2, group 2): the family's conformance suite with TREEAL's canned answers (research F8), then what only TREEAL does. */

const TXID = 'b8d2f7a0c4e14f0e9a7d3c5b1e2f4a6d';
const E2E = 'E18236120202601101205s0f3c2a9e5b7';
const PAYOUT_E2E = 'E18236120202601101300payout00001';
const PIX_COPIA_E_COLA =
  '00020126820014br.gov.bcb.pix2560pix.treeal.com/qr/v3/at/3f1c2a9e-5b7d-4e21-9c0a-1d2e3f4a5b6c5204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304A4BC';
const PAID = { txid: TXID, status: 'CONCLUIDA', valor: { original: '19.90' }, pix: [{ endToEndId: E2E, txid: TXID, valor: '19.90' }] };
const notification = (data: object) => ({ body: Buffer.from(JSON.stringify({ data })), headers: {} });

const treeal = bacenPixConformance(TREEAL, {
  keys: { clientId: 'treeal-client', clientSecret: 'treeal-secret', chave: 'pix@loja.example' },
  // Treeal's token answer has no expires_in; POST /cob answers {status, txid, pixCopiaECola} (F8).
  tokenResponse: { token_type: 'Bearer', access_token: 'treeal-token' },
  createdCob: { status: 'ATIVA', txid: TXID, pixCopiaECola: PIX_COPIA_E_COLA },
  paidCob: PAID,
  refundResponse: { id: 'dev1', rtrId: 'D18236120202601101210a1b2c3d4e5f', valor: '7.50', status: 'EM_PROCESSAMENTO' },
  createdPayout: { endToEndId: PAYOUT_E2E, status: 'PROCESSING' },
  liquidatedPayout: { endToEndId: PAYOUT_E2E, status: 'LIQUIDATED', eventDate: '2026-01-10T13:00:02.000Z', payment: { currency: 'BRL', amount: '10.50' } },
});

describe('TREEAL only', () => {
  it('offers cash-in, refunds, payouts and their lookup, and notifications (doc 2 §7)', () => {
    expect(treeal.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    expect(TREEAL.identity.defaultBaseUrl).toBe('https://api.pix.treeal.com');
  });

  it('asks its token form-encoded with the client credentials in the body, and refunds by PUT /pix/{e2eid}/devolucao/{id} (F8)', async () => {
    const ctx = treeal.account();
    treeal.fake.expect({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': /^application\/x-www-form-urlencoded/, authorization: absent },
      body: { grant_type: 'client_credentials', client_id: 'treeal-client', client_secret: 'treeal-secret' },
      reply: { body: { access_token: 'form-token' } },
    });
    treeal.fake.expect({ method: 'GET', path: `/cob/${TXID}`, headers: { authorization: 'Bearer form-token' }, reply: { body: PAID } });
    const path = new RegExp(`/pix/${E2E}/devolucao/[a-zA-Z0-9]{1,35}`);
    treeal.fake.expect({ method: 'PUT', path, headers: { authorization: 'Bearer form-token' }, body: { valor: '19.90' }, reply: { body: { rtrId: 'D1' } } });
    await expect(treeal.adapter.refoundTransaction(ctx, TXID, 1990)).resolves.toEqual({ refundId: 'D1', status: true });
  });

  it('reads its {data:{txId, status}} notifications, which carry no event type, as RECEIVE (doc 2 §4)', async () => {
    const read = (status: string) => treeal.adapter.processWebhook(treeal.account(), notification({ txId: TXID, status, createdAt: '2026-01-10T12:05:01Z' }));
    await expect(read('LIQUIDATED')).resolves.toEqual({ type: 'TRANSACTION', transactionId: TXID, status: 'APPROVED' });
    // Treeal's failure status: a RECEIVE that is not LIQUIDATED is PENDING, and the gateway asks GET /cob.
    await expect(read('Cancelled')).resolves.toEqual({ type: 'TRANSACTION', transactionId: TXID, status: 'PENDING' });
  });
});
