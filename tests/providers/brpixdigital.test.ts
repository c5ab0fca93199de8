import { describe, expect, it } from '@jest/globals';
import { BRPIXDIGITAL, BRPIXDIGITAL_REFUND_REASON, BrpixDigitalAdapter } from '../../server/providers/members/brpixdigital.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { partial } from '../support/fakeProvider.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';
import { F2_BODIES, statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// Research F2: Basic base64(secretKey:companyId), the company id being the account's public key.
const AUTH = `Basic ${Buffer.from('sk_brpix:company-7').toString('base64')}`;
const create = (runtime: AdapterRuntime) => new BrpixDigitalAdapter(BRPIXDIGITAL, runtime);
const keys = { publicKey: 'company-7', secretKey: 'sk_brpix' };
transactionsApiConformance(BRPIXDIGITAL, {
  keys,
  authHeaders: { authorization: AUTH },
  create,
  refundBody: (amount) => ({ amount, reason: BRPIXDIGITAL_REFUND_REASON }),
  ...F2_BODIES,
});

describe('BRPIXDIGITAL (spec doc 3, group 4)', () => {
  const h = providerHarness({ create, account: () => keys });

  it('maps its statuses as §4 says: waiting_payment PENDING, paid APPROVED, refunded and chargedback CHARGEBACK, anything else REJECTED', () => {
    expect(['waiting_payment', 'paid', 'refunded', 'chargedback'].map((status) => statusOf(BRPIXDIGITAL, status))).toEqual([
      'PENDING',
      'APPROVED',
      'CHARGEBACK',
      'CHARGEBACK',
    ]);
    for (const status of ['pending', 'refused', 'cancelled', 'whatever']) expect(statusOf(BRPIXDIGITAL, status)).toBe('REJECTED');
  });

  it('creates a PIX charge by POST /transactions in cents, valid one day, the sidecar as postback URL', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transactions',
      headers: { authorization: AUTH },
      body: partial({ amount: 1990, paymentMethod: 'PIX', pix: { expiresInDays: 1 }, postbackUrl: h.ctx.notificationUrl, externalRef: 'order-77' }),
      reply: { body: { id: 'br_1', status: 'waiting_payment', amount: 1990, paymentMethod: 'PIX', pix: { qrcode: '000201' } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({ transactionId: 'br_1', status: 'PENDING', pixCode: '000201' });
  });

  it("refunds by DELETE /transactions/{id} with the amount and a reason; failures say 'Erro no estorno: …' (§7, §8)", async () => {
    h.fake.expect({
      method: 'DELETE',
      path: '/transactions/br_1',
      body: { amount: 500, reason: BRPIXDIGITAL_REFUND_REASON },
      reply: { status: 422, body: { message: 'Saldo insuficiente' } },
    });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'br_1', 500))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro no estorno: Saldo insuficiente',
    });
  });

  it("words a failed charge 'Erro na criação da transação PIX: …' and takes PIX only", async () => {
    h.fake.expect({ method: 'POST', path: '/transactions', reply: { status: 400, body: { message: 'customer inválido' } } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).message).toBe('Erro na criação da transação PIX: customer inválido');
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by BRPIXDIGITAL',
    });
  });
});
