import { describe, expect, it } from '@jest/globals';
import { PRIMEPAG_AUTH, PRIMEPAG_PATHS } from '../../server/providers/families/primepag/index.js';
import { ZENDRY } from '../../server/providers/members/zendry.js';
import { notification } from './conformance/harness.js';
import { primePagConformance } from './conformance/primepag.suite.js';

const REFERENCE_CODE = '3f1c2a9e-5b7d-4e21-9c0a-1d2e3f4a5b6c';

const zendry = primePagConformance(ZENDRY, {
  keys: { clientId: 'zendry-client-id', clientSecret: 'zendry-client-secret' },
  answers: {
    tokenResponse: { access_token: 'zendry-token', token_type: 'Bearer', expires_in: 3600 },
    createdQrCode: {
      qrcode: {
        reference_code: REFERENCE_CODE,
        external_reference: 'order-77',
        content:
          '00020126740014br.gov.bcb.pix2552qr.zendry.com.br/v2/3f1c2a9e5b7d4e219c0a1d2e3f4a5b6c5204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304C13D',
        image_base64: null,
      },
    },
    paidQrCode: { reference_code: REFERENCE_CODE, status: 'paid', value_cents: 1990, payment_date: '2026-01-10T12:05:00Z' },
  },
});

describe('ZENDRY, as the spec and its integrations name it (doc 2, group 2; PrimePag platform)', () => {
  it('asks its token at POST /auth/generate_token and uses the platform paths of §7 at api.zendry.com.br', () => {
    expect(ZENDRY.auth).toBe(PRIMEPAG_AUTH);
    expect([PRIMEPAG_AUTH.tokenPath, ZENDRY.paths ?? PRIMEPAG_PATHS]).toEqual([
      '/auth/generate_token',
      { qrCodes: '/v1/pix/qrcodes', qrCode: '/v1/pix/qrcodes/{id}', payments: '/v1/pix/payments' },
    ]);
    expect(ZENDRY.identity).toEqual({ id: 'ZENDRY', specGroup: 'document 2 (group 2)', defaultBaseUrl: 'https://api.zendry.com.br' });
  });

  it('charges and pays out by PIX and is notified; no refunds and no payout lookup (§7 gives no path)', () => {
    expect(ZENDRY.capabilities).toEqual({ paymentMethods: ['PIX'], withdrawMethods: ['PIX'], webhooks: true });
    expect(zendry.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'processWebhook']);
  });

  it.each([
    ['canceled', 'PENDING'],
    ['error', 'CHARGEBACK'],
    ['paid', 'APPROVED'],
  ])("reads a QR code notified %s as %s ('canceled is PENDING; error is CHARGEBACK', §4)", async (status, expected) => {
    const body = { notification_type: 'pix_qrcode', message: { reference_code: REFERENCE_CODE, status, value_cents: 1990 } };
    await expect(zendry.adapter.processWebhook(zendry.ctx, notification(body))).resolves.toEqual({
      type: 'TRANSACTION',
      transactionId: REFERENCE_CODE,
      status: expected,
    });
  });
});
