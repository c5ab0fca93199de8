import { describe, expect, it } from '@jest/globals';
import { outcomeOf } from '../../server/lib/errors.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import { failure, itRefusesGarbageAnswers, providerHarness, transactionInput } from './conformance/harness.js';

const PAYOUT = { amount: 1050, paymentMethod: 'PIX', pixKey: 'ana@example.com', pixType: 'EMAIL' } as const;
const RECEIVER = { name: 'Ana', document: '12345678909', email: 'ana@example.com' };

describe("SANDBOX: the gateway's own fake PSP, its answers read by schema (server/sandbox/api.ts)", () => {
  const h = providerHarness({ create: (runtime) => new SandboxAdapter('http://127.0.0.1:1', runtime), account: () => ({ publicKey: '', secretKey: 'sk' }) });

  describe('a 2xx answer that is not the resource is UNAVAILABLE under the prefix, never a status', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /v1/charges', () => h.adapter.createTransaction(h.ctx, transactionInput())],
      ['getTransaction', 'GET /v1/charges/ch_1', () => h.adapter.getTransaction(h.ctx, 'ch_1')],
      ['refoundTransaction', 'POST /v1/charges/ch_1/refunds', () => h.adapter.refoundTransaction(h.ctx, 'ch_1', 100)],
      ['withdraw', 'POST /v1/withdrawals', () => h.adapter.withdraw(h.ctx, PAYOUT)],
      ['getWithdraw', 'GET /v1/withdrawals/wd_1', () => h.adapter.getWithdraw(h.ctx, 'wd_1')],
      ['createReceiver', 'POST /v1/recipients', () => h.adapter.createReceiver(h.ctx, RECEIVER)],
      ['getReceiver', 'GET /v1/recipients/rc_1', () => h.adapter.getReceiver(h.ctx, 'rc_1')],
    ]);
  });

  it.each([
    ['an amount that is no whole number of cents', { id: 'ch_1', status: 'paid', method: 'pix', amount: 19.9 }, 'amount'],
    ['a status of the wrong type', { id: 'ch_1', status: 1, method: 'pix', amount: 1990 }, 'status'],
    ['an id of the wrong type', { id: 1, status: 'paid', method: 'pix', amount: 1990 }, 'id'],
  ])('a charge read with %s names the field and changes nothing', async (_label, body, field) => {
    h.fake.expect({ method: 'GET', path: '/v1/charges/ch_1', reply: { body } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'ch_1'))).toEqual({
      code: 'UNAVAILABLE',
      message: expect.stringContaining(`resposta do provedor em formato inesperado (${field}`),
    });
  });

  it("reads a declined charge's code and text; a text without a code, or beside no decline, is not a decline", async () => {
    const declined = {
      id: 'ch_1',
      status: 'declined',
      method: 'card',
      amount: 5000,
      declineReason: 'insufficient_funds',
      declineMessage: 'Saldo insuficiente',
    };
    h.fake.expect({ method: 'GET', path: '/v1/charges/ch_1', reply: { body: declined } });
    expect(await h.adapter.getTransaction(h.ctx, 'ch_1')).toMatchObject({
      status: 'REJECTED',
      declineReason: 'insufficient_funds',
      declineMessage: 'Saldo insuficiente',
    });
    h.fake.expect({ method: 'GET', path: '/v1/charges/ch_1', reply: { body: { ...declined, declineReason: undefined } } });
    expect(await h.adapter.getTransaction(h.ctx, 'ch_1')).not.toHaveProperty('declineMessage');
  });

  it('a list that is not one is UNAVAILABLE, never "nothing found"; an empty list is none', async () => {
    h.fake.expect({ method: 'GET', path: '/v1/charges', reply: { body: { data: 'none' } } });
    expect((await failure(h.adapter.findTransactionByReference(h.ctx, 'ref-1'))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/v1/withdrawals', reply: { body: { data: [{ id: 'wd_1', status: 'paid' }] } } });
    expect((await failure(h.adapter.findWithdrawalByReference(h.ctx, 'ref-1'))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/v1/withdrawals', reply: { body: { data: [] } } });
    expect(await h.adapter.findWithdrawalByReference(h.ctx, 'ref-1')).toBeUndefined();
  });

  it('card tokens, cards and installments without what was asked for are UNAVAILABLE', async () => {
    h.fake.expect({ method: 'POST', path: '/v1/card-tokens', reply: { body: { token: 7 } } });
    const card = { cardNumber: '4111111111111111', holderName: 'Ana', holderDocument: '12345678909', expMonth: '12', expYear: '2030', cvv: '123' };
    expect((await failure(h.adapter.createCardToken(h.ctx, card))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/v1/cards', reply: { body: {} } });
    expect((await failure(h.adapter.createCardId(h.ctx, { cardToken: 'tok_1' }))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/v1/installments', reply: { body: { options: [{ installmentNumber: 1 }] } } });
    expect((await failure(h.adapter.calculateInstallments(h.ctx, 1990))).code).toBe('UNAVAILABLE');
  });

  it("a failed withdrawal's failureReason is the payout's refusal reason, read or notified; a 422 when asked is a definite refusal", async () => {
    h.fake.expect({
      method: 'GET',
      path: '/v1/withdrawals/wd_1',
      reply: { body: { id: 'wd_1', status: 'failed', amount: 1050, failureReason: 'chave bloqueada' } },
    });
    expect(await h.adapter.getWithdraw(h.ctx, 'wd_1')).toMatchObject({ status: 'REJECTED', refusalReason: 'chave bloqueada' });
    const body = Buffer.from(
      JSON.stringify({ id: 'evt_1', type: 'withdrawal.failed', data: { id: 'wd_1', status: 'failed', amount: 1050, failureReason: 'chave bloqueada' } }),
    );
    expect(await h.adapter.processWebhook(h.ctx, { body, headers: {} })).toMatchObject({
      type: 'WITHDRAW',
      status: 'REJECTED',
      refusalReason: 'chave bloqueada',
    });
    h.fake.expect({ method: 'POST', path: '/v1/withdrawals', reply: { status: 422, body: { error: { message: 'payouts to this PIX key are blocked' } } } });
    const refused = await h.adapter.withdraw(h.ctx, PAYOUT).catch((error: unknown) => error);
    expect(outcomeOf(refused)).toBe('failed');
    expect((refused as Error).message).toContain('payouts to this PIX key are blocked');
  });

  it('ignores a notification of an event it reads when its resource has no status (never a status from nothing)', async () => {
    const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'charge.paid', data: { id: 'ch_1', amount: 100 } }));
    expect(await h.adapter.processWebhook(h.ctx, { body, headers: {} })).toBeUndefined();
  });
});
