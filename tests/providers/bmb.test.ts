import { describe, expect, it } from '@jest/globals';
import { BMB, BmbAdapter, gerarQRCodeRequest, toGerarQRCode } from '../../server/providers/bmb/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import {
  NOW,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';

const PIX_CODE = '00020126360014br.gov.bcb.pix0114+55119999999995204000053039865406159.905802BR5903BMB6009SAO PAULO62070503***6304ABCD';
const BEARER = { authorization: 'Bearer sk_bmb_1' };

describe('BMB (spec doc 2, group 2), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new BmbAdapter(BMB, runtime), account: () => ({ publicKey: 'pk_bmb', secretKey: 'sk_bmb_1' }) });

  it('offers PIX charges and their notifications only; refunds and the rest reject with the spec text', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).message).toBe(
      'Payment method not supported by BMB',
    );
  });

  it("builds bodies of its request schema (the adapter's wire section)", () => {
    const terms = { valor: 19.9, expirySeconds: 3600, notificationUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(gerarQRCodeRequest, [toGerarQRCode(transactionInput({ description: 'Curso' }), terms), toGerarQRCode(bareTransactionInput(), terms)]);
  });

  it('creates a QR code by POST /GerarQRCode (reais, seconds, the sidecar) and answers the code, its image and expiry', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/GerarQRCode',
      headers: BEARER,
      body: {
        valor: 19.9,
        expiracao: 86_400,
        identificador: 'order-77',
        pagador: { nome: 'Ana Souza', documento: '12345678909' },
        urlNotificacao: h.ctx.notificationUrl,
      },
      reply: { body: { txid: 'bmb-tx-1', status: 'Pending', valor: 19.9, qrCode: PIX_CODE } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      paymentMethod: 'PIX',
      transactionId: 'bmb-tx-1',
      status: 'PENDING',
      amount: 1990,
      pixCode: PIX_CODE,
      expiresAt: new Date(NOW.getTime() + 86_400_000),
    });
  });

  it.each([
    ['Paid', 'APPROVED'],
    ['Pending', 'PENDING'],
    ['Expired', 'PENDING'],
    ['anything else', 'PENDING'],
  ])('reads POST /consultaQRCode: %s → %s (Paid is APPROVED, anything else PENDING)', async (status, expected) => {
    h.fake.expect({
      method: 'POST',
      path: '/consultaQRCode',
      headers: BEARER,
      body: { txid: 'bmb-tx-1' },
      reply: { body: { txid: 'bmb-tx-1', status, valor: '19.90' } },
    });
    expect(await h.adapter.getTransaction(h.ctx, 'bmb-tx-1')).toMatchObject({ transactionId: 'bmb-tx-1', status: expected, amount: 1990 });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE under the catalogue prefix, never a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/consultaQRCode', reply: { body } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'bmb-tx-1'))).toEqual({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/^Erro ao buscar transação: resposta do provedor em formato inesperado \((corpo|txid): /),
    });
  });

  describe('answers that are not the resource', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /GerarQRCode', () => h.adapter.createTransaction(h.ctx, transactionInput())],
      ['getTransaction', 'POST /consultaQRCode', () => h.adapter.getTransaction(h.ctx, 'bmb-tx-1')],
    ]);

    it.each([
      ['without its qrCode', { txid: 'bmb-tx-1', status: 'Pending', valor: 19.9 }, 'qrCode: esperado string'],
      ['with a status that is a number', { txid: 'bmb-tx-1', status: 3, qrCode: PIX_CODE }, 'status: esperado string'],
      ['with a txid that is an object', { txid: { id: 1 }, status: 'Pending', qrCode: PIX_CODE }, 'txid: invalid_union'],
      ['with a valor that is not an amount', { txid: 'bmb-tx-1', status: 'Pending', valor: 'muito', qrCode: PIX_CODE }, 'valor: invalid_format'],
    ])('a created QR code %s is UNAVAILABLE naming the field', async (_label, body, field) => {
      h.fake.expect({ method: 'POST', path: '/GerarQRCode', reply: { body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: `Erro ao criar transação: resposta do provedor em formato inesperado (${field})`,
      });
    });

    it('a read QR code without its status is UNAVAILABLE, never PENDING', async () => {
      h.fake.expect({ method: 'POST', path: '/consultaQRCode', reply: { body: { txid: 'bmb-tx-1', valor: 19.9 } } });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'bmb-tx-1'))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao buscar transação: resposta do provedor em formato inesperado (status: esperado string)',
      });
    });
  });

  it("keeps the provider's message of a 4xx under the prefix; a 5xx on create is UNAVAILABLE, sent once", async () => {
    h.fake.expect({ method: 'POST', path: '/GerarQRCode', reply: { status: 400, body: { message: 'valor inválido' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: valor inválido',
    });
    h.fake.expect({ method: 'POST', path: '/GerarQRCode', reply: { status: 503, body: { message: 'indisponível' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: indisponível',
    });
  });

  it('reports a paid static QR as a payment with no charge, always APPROVED; a dynamic QR through the table', async () => {
    const paidAt = '2026-11-20T10:00:00.000Z';
    expect(
      await h.adapter.processWebhook(
        h.ctx,
        notification({ tipo: 'QRCODE_ESTATICO', txid: 'st-1', endToEndId: 'E1', status: 'Whatever', valor: 15.9, pagoEm: paidAt }),
      ),
    ).toEqual({
      type: 'UNSOLICITED_PAYMENT',
      transactionId: 'st-1',
      amount: 1590,
      paymentMethod: 'PIX',
      status: 'APPROVED',
      paidAt: new Date(paidAt),
    });
    expect(await h.adapter.processWebhook(h.ctx, notification({ tipo: 'QRCODE_DINAMICO', txid: 'bmb-tx-1', status: 'Paid' }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'bmb-tx-1',
      status: 'APPROVED',
    });
    for (const body of [
      '{not json',
      { txid: 'x' },
      { tipo: 'QRCODE_ESTATICO', txid: 'st-2', valor: 'abc' },
      // A static QR whose amount is unreadable is never read as a dynamic one by its status.
      { tipo: 'QRCODE_ESTATICO', txid: 'st-3', valor: { reais: 1 }, status: 'Paid' },
      { tipo: 'QRCODE_DINAMICO', txid: 'bmb-tx-1', status: 7 },
    ])
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    expect(h.adapter.notificationKey(h.ctx, notification({ tipo: 'QRCODE_ESTATICO', txid: 'st-1', endToEndId: 'E1', status: 'Paid' }))).toBe(
      'transaction:E1:paid',
    );
  });
});
