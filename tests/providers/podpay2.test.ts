import { describe, expect, it } from '@jest/globals';
import { redactForLog } from '../../server/lib/http/index.js';
import { PODPAY2, PodPay2Adapter } from '../../server/providers/members/podpay2.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { declaredStatusTable, lookupStatus } from '../../server/lib/statusTable.js';
import { TRANSACTIONS_API_WITHDRAWAL_STATUSES } from '../../server/providers/families/transactionsApi/index.js';
import { failure, notification, providerHarness, transactionInput } from './conformance/harness.js';
import { F1_BODIES, statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// Basic base64(publicKey:secret); the secret key packs the payouts' withdraw key after a '|'.
const AUTH = `Basic ${Buffer.from('pk_pod:sk_pod').toString('base64')}`;
const keys = { publicKey: 'pk_pod', secretKey: 'sk_pod|wk_pod' };
const create = (runtime: AdapterRuntime) => new PodPay2Adapter(PODPAY2, runtime);
transactionsApiConformance(PODPAY2, { keys, authHeaders: { authorization: AUTH }, create, ...F1_BODIES });

const transferStatus = (status: string) => lookupStatus(declaredStatusTable(TRANSACTIONS_API_WITHDRAWAL_STATUSES, PODPAY2.statuses?.withdrawal), status);

describe('PODPAY2 (spec doc 3, group 4)', () => {
  const h = providerHarness({ create, account: () => keys });

  it('maps its transaction statuses as §4 says; refunded and chargeback keep their own meaning; unknown PENDING', () => {
    const named = { waiting_payment: 'PENDING', pending: 'PENDING', in_protest: 'PENDING', approved: 'APPROVED', paid: 'APPROVED', refused: 'REJECTED' };
    for (const [status, expected] of Object.entries({ ...named, cancelled: 'REJECTED', refunded: 'REFUNDED', chargeback: 'CHARGEBACK', mystery: 'PENDING' }))
      expect([status, statusOf(PODPAY2, status)]).toEqual([status, expected]);
  });

  it('maps transfers as §4 says: COMPLETED APPROVED; CANCELLED and REFUSED REJECTED; others PENDING', () => {
    expect(['COMPLETED', 'CANCELLED', 'REFUSED', 'PENDING_QUEUE', 'processing', 'failed'].map(transferStatus)).toEqual([
      'APPROVED',
      'REJECTED',
      'REJECTED',
      'PENDING',
      'PENDING',
      'PENDING',
    ]);
  });

  it('pays out by POST /transfers with the withdraw key in x-withdraw-key, method fiat and a random key named evp', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transfers',
      headers: { authorization: AUTH, 'x-withdraw-key': 'wk_pod', 'idempotency-key': 'idem-9' },
      body: { amount: 2500, pixKey: '3f2a-uuid', pixKeyType: 'evp', method: 'fiat', postbackUrl: h.ctx.notificationUrl },
      reply: { body: { id: 'tr_1', status: 'PENDING_QUEUE', amount: 2500 } },
    });
    expect(await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: '3f2a-uuid', pixType: 'RANDOM', idempotencyKey: 'idem-9' })).toEqual({
      withdrawId: 'tr_1',
      amount: 2500,
      status: 'PENDING',
    });
  });

  it.each([
    ['COMPLETED', 'APPROVED'],
    ['REFUSED', 'REJECTED'],
    ['PENDING_QUEUE', 'PENDING'],
  ])('reads a payout by GET /transfers/{id} (its postbacks are unsigned: this read confirms them): %s → %s', async (status, expected) => {
    expect(h.adapter.operations).toContain('getWithdraw');
    // One public client sends the withdraw key on this read too: it goes where the account has one.
    h.fake.expect({
      method: 'GET',
      path: '/transfers/tr_7',
      headers: { authorization: AUTH, 'x-withdraw-key': 'wk_pod' },
      reply: { body: { id: 'tr_7', status, amount: 2500 } },
    });
    expect(await h.adapter.getWithdraw(h.ctx, 'tr_7')).toEqual({ withdrawId: 'tr_7', amount: 2500, status: expected });
  });

  it('refuses a payout without a withdraw key before calling, and never logs the key', async () => {
    const ctx = { ...h.ctx, secretKey: 'sk_pod' };
    expect((await failure(h.adapter.withdraw(ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.c', pixType: 'EMAIL' }))).code).toBe('FAILED_PRECONDITION');
    expect(h.fake.received).toHaveLength(0);
    expect(redactForLog({ 'x-withdraw-key': 'wk_pod' })).toEqual({ 'x-withdraw-key': '[redacted]' });
  });

  it("words payout and refund failures 'Erro no saque: …' and 'Erro no estorno: …' (§8)", async () => {
    h.fake.expect({ method: 'POST', path: '/transfers', reply: { status: 422, body: { message: 'Saldo insuficiente' } } });
    expect((await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.c', pixType: 'EMAIL' }))).message).toBe(
      'Erro no saque: Saldo insuficiente',
    );
    h.fake.expect({ method: 'POST', path: '/transactions/tx_1/refund', body: { amount: 100 }, reply: { status: 422, body: { message: 'Já estornada' } } });
    expect((await failure(h.adapter.refoundTransaction(h.ctx, 'tx_1', 100))).message).toBe('Erro no estorno: Já estornada');
  });

  it("needs both keys and card data, with the spec's texts (§5)", async () => {
    for (const missing of [{ publicKey: '' }, { secretKey: '' }])
      expect(await failure(h.adapter.getTransaction({ ...h.ctx, ...missing }, 'tx_1'))).toEqual({
        code: 'FAILED_PRECONDITION',
        message: 'PodPay requer tanto publicKey quanto secretKey para autenticação Basic.',
      });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Dados do cartão são obrigatórios para pagamento com cartão de crédito.',
    });
    expect(() => h.adapter.checkAccount({ publicKey: 'pk', secretKey: '' })).toThrow('PodPay requer tanto publicKey quanto secretKey para autenticação Basic.');
  });

  it("reads the platform's withdraw postback {type: 'withdraw', data}", async () => {
    const body = { type: 'withdraw', data: { id: 'tr_1', amount: 2500, netAmount: 2400, fee: 100, status: 'COMPLETED' } };
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'WITHDRAW', transactionId: 'tr_1', status: 'APPROVED' });
  });
});
