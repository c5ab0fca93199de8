import { describe, expect, it } from '@jest/globals';
import { PRIMEPAG_AUTH, PRIMEPAG_PIX_KEY_STYLE, toPaymentRequest, toQrCodeRequest } from '../../server/providers/families/primepag/index.js';
import { paymentRequest, qrCodeRequest } from '../../server/providers/families/primepag/wire.js';
import { PRIMEPAG } from '../../server/providers/members/primepag.js';
import { bareTransactionInput, notification, transactionInput } from './conformance/harness.js';
import { primePagConformance } from './conformance/primepag.suite.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

const REFERENCE_CODE = '7a2b9c1d-3e4f-4a5b-8c6d-0e1f2a3b4c5d';

const primepag = primePagConformance(PRIMEPAG, {
  keys: { clientId: 'primepag-client-id', clientSecret: 'primepag-client-secret' },
  answers: {
    tokenResponse: { access_token: 'primepag-token', token_type: 'Bearer', expires_in: 3600 },
    createdQrCode: {
      qrcode: {
        reference_code: REFERENCE_CODE,
        external_reference: 'order-77',
        content:
          '00020126760014br.gov.bcb.pix2554qr.primepag.com.br/v2/7a2b9c1d3e4f4a5b8c6d0e1f2a3b4c5d5204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304CB31',
        image_base64: null,
      },
    },
    paidQrCode: { reference_code: REFERENCE_CODE, status: 'paid', value_cents: 1990, payment_date: '2026-01-10T12:05:00Z' },
  },
});

describe('PRIMEPAG (doc 2, group 1): the PrimePag platform itself, at its own host', () => {
  it('is document 2 group 1, at api.primepag.com.br, with the platform token exchange', () => {
    expect(PRIMEPAG.identity).toEqual({ id: 'PRIMEPAG', specGroup: 'document 2 (group 1)', defaultBaseUrl: 'https://api.primepag.com.br' });
    expect(PRIMEPAG.auth).toBe(PRIMEPAG_AUTH);
    expect(primepag.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'processWebhook']);
  });

  it.each([
    ['canceled', 'CANCELED'],
    ['paid', 'APPROVED'],
    ['mystery', 'REJECTED'],
  ])("keeps the family's table without ZENDRY's exceptions: a QR code notified %s is %s", async (status, expected) => {
    const body = { notification_type: 'pix_qrcode', message: { reference_code: REFERENCE_CODE, status, value_cents: 1990 } };
    await expect(primepag.adapter.processWebhook(primepag.ctx, notification(body))).resolves.toEqual({
      type: 'TRANSACTION',
      transactionId: REFERENCE_CODE,
      status: expected,
    });
  });

  it("builds bodies of the platform's request schemas (wire.ts)", () => {
    const terms = { valueCents: 1990, expirySeconds: 3600 };
    expectBodiesOf(qrCodeRequest, [toQrCodeRequest(transactionInput(), terms), toQrCodeRequest(bareTransactionInput(), terms)]);
    expectBodiesOf(
      paymentRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) =>
        toPaymentRequest({ amount: 2500, pixKey, pixType }, { valueCents: 2500, idempotentId: 'wd-1', style: PRIMEPAG_PIX_KEY_STYLE }),
      ),
    );
  });
});
