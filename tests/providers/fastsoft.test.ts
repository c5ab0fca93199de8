import { describe, expect, it } from '@jest/globals';
import { declaredStatusTable, lookupStatus } from '../../server/lib/statusTable.js';
import { TRANSACTIONS_API_WITHDRAWAL_STATUSES } from '../../server/providers/families/transactionsApi/index.js';
import { UserApiAdapter } from '../../server/providers/families/transactionsApi/platforms/userApi.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { FASTSOFT } from '../../server/providers/members/fastsoft.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = `Basic ${Buffer.from('sk_fast:x').toString('base64')}`;
const keys = { publicKey: 'pk_fast', secretKey: 'sk_fast' };
const create = (runtime: AdapterRuntime) => new UserApiAdapter(FASTSOFT, runtime);
transactionsApiConformance(FASTSOFT, { keys, authHeaders: { authorization: AUTH }, create, ownBodies: true });

describe('FASTSOFT (spec doc 3, group 4)', () => {
  const h = providerHarness({ create, account: () => keys });

  it('maps §4: paid, approved, captured APPROVED; refused, failed, declined REJECTED; refunded, cancelled, voided REFUNDED; unknown PENDING', () => {
    const spec = { paid: 'APPROVED', approved: 'APPROVED', captured: 'APPROVED', refused: 'REJECTED', failed: 'REJECTED', declined: 'REJECTED' };
    for (const [status, expected] of Object.entries({ ...spec, refunded: 'REFUNDED', cancelled: 'REFUNDED', voided: 'REFUNDED', mystery: 'PENDING' }))
      expect([status, statusOf(FASTSOFT, status)]).toEqual([status, expected]);
    const payout = declaredStatusTable(TRANSACTIONS_API_WITHDRAWAL_STATUSES, FASTSOFT.statuses?.withdrawal);
    expect(['cancelled', 'paid', 'declined'].map((status) => lookupStatus(payout, status))).toEqual(['REJECTED', 'APPROVED', 'REJECTED']);
  });

  it('is valid 2 days for PIX and 7 for boleto (§9), sent as whole days', async () => {
    expect(FASTSOFT.expiry).toEqual({ pixSeconds: 2 * 86_400, boletoSeconds: 7 * 86_400 });
    h.fake.expect({
      method: 'POST',
      path: '/user/transactions',
      headers: { authorization: AUTH },
      body: (body) => (body as { boleto?: { expiresInDays?: number } }).boleto?.expiresInDays === 7,
      reply: { body: { id: 'fs_1', status: 'pending', amount: 5000, paymentMethod: 'boleto', boleto: { barcode: '2379' } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ amount: 5000, paymentMethod: 'BILLET' }))).toMatchObject({ status: 'PENDING' });
    h.fake.expect({
      method: 'POST',
      path: '/user/transactions',
      body: (body) => (body as { pix?: { expiresInDays?: number } }).pix?.expiresInDays === 2,
      reply: { body: { id: 'fs_2', status: 'waiting_payment', amount: 1990, paymentMethod: 'pix', pix: { qrcode: '000201' } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({ transactionId: 'fs_2', status: 'PENDING' });
  });

  it('pays out by POST /user/cashout with the key, its type and the beneficiary (research F7), in cents', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/user/cashout',
      headers: { authorization: AUTH },
      body: {
        amount: 2500,
        pixKey: '12345678909',
        pixType: 'CPF',
        beneficiaryName: 'Ana Souza',
        beneficiaryDocument: '12345678909',
        description: 'Saque solicitado',
        postbackUrl: h.ctx.notificationUrl,
      },
      reply: { body: { data: { id: 'co_1', amount: 2500, status: 'PENDING' }, status: 200, message: 'ok' } },
    });
    const input = {
      paymentMethod: 'PIX' as const,
      amount: 2500,
      pixKey: '123.456.789-09',
      pixType: 'CPF' as const,
      name: 'Ana Souza',
      document: '123.456.789-09',
    };
    expect(await h.adapter.withdraw(h.ctx, input)).toEqual({ withdrawId: 'co_1', amount: 2500, status: 'PENDING' });
    expect((await failure(h.adapter.withdraw(h.ctx, { ...input, pixType: undefined }))).code).toBe('INVALID_ARGUMENT');
  });

  it("refuses a card with 'Payment method CREDIT_CARD not implemented for FastSoft' (§8)", async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method CREDIT_CARD not implemented for FastSoft',
    });
  });
});
