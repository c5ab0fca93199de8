import { describe, expect, it } from '@jest/globals';
import { FAILURE_PREFIXES } from '../../server/lib/providerMessages.js';
import { IUGU_ACCOUNT_INFORMATION, IUGU_API_DOCUMENTATION, IUGU_MARKETPLACE_DOCUMENTATION } from '../../server/providers/families/iugu/index.js';
import { IUGU } from '../../server/providers/members/iugu.js';
import { IUGUBAAS } from '../../server/providers/members/iugubaas.js';
import { iuguConformance, trigger } from './conformance/iugu.suite.js';

/** Iugu itself: the family's canned answers are its own. */
const h = iuguConformance(IUGU, { keys: { publicKey: 'A083919DEE244A0FA2705E309B378CD0', secretKey: 'live_iugu_1' } });

describe('IUGU (spec doc 2, group 1)', () => {
  it("is IUGUBAAS's API without IUGUBAAS's group-2 texts: a failed refund keeps the common prefix and Iugu's words", async () => {
    const apart = { identity: undefined, sources: undefined, failures: undefined, capabilities: undefined, notFound: undefined, evidence: undefined };
    expect({ ...IUGU, ...apart }).toEqual({ ...IUGUBAAS, ...apart });
    // Both are verified against Iugu's documentation and its account page (their balance); IUGU's payouts and receivers against its marketplace pages too.
    expect(IUGU.evidence).toEqual({
      level: 'documented',
      addresses: [...IUGU_API_DOCUMENTATION, ...IUGU_MARKETPLACE_DOCUMENTATION, IUGU_ACCOUNT_INFORMATION],
    });
    expect(IUGUBAAS.evidence).toEqual({ level: 'documented', addresses: [...IUGU_API_DOCUMENTATION, IUGU_ACCOUNT_INFORMATION] });
    expect(IUGU.notFound).toEqual({ getReceiver: 'RECEBEDOR_NAO_ENCONTRADO' });
    expect(IUGU.capabilities).toEqual({ ...IUGUBAAS.capabilities, withdrawMethods: ['BANK_ACCOUNT'], receivers: true });
    expect(IUGUBAAS.capabilities.balances).toBe(true);
    expect(IUGU.identity).toEqual({ id: 'IUGU', specGroup: 'document 2 (group 1)', defaultBaseUrl: 'https://api.iugu.com/v1' });
    h.fake.expect({
      method: 'GET',
      path: '/invoices/INV9',
      reply: { body: { id: 'INV9', status: 'paid', total_cents: 100, payment_method: 'iugu_credit_card' } },
    });
    h.fake.expect({ method: 'POST', path: '/invoices/INV9/refund', reply: { status: 422, body: { errors: 'Fatura não pode ser reembolsada' } } });
    const refused = h.adapter.refoundTransaction(h.ctx, 'INV9', 100);
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `${FAILURE_PREFIXES.REFUND_TRANSACTION}: Fatura não pode ser reembolsada`,
    });
  });

  describe("the account's balance: GET /accounts/{the public key} (Informações da Conta)", () => {
    const read = (body: unknown) => {
      h.fake.expect({
        method: 'GET',
        path: '/accounts/A083919DEE244A0FA2705E309B378CD0',
        headers: { authorization: `Basic ${Buffer.from('live_iugu_1:').toString('base64')}` },
        reply: { body },
      });
      return h.adapter.getAccountBalance(h.ctx);
    };

    it('reads what can be withdrawn, written "R$ 1.234,56", as cents; else the balance', async () => {
      const account = { id: 'A083919DEE244A0FA2705E309B378CD0', name: 'Loja' };
      expect(await read({ ...account, balance: 'R$ 2.000,00', balance_available_for_withdraw: 'R$ 1.234,56' })).toEqual({
        available: 123_456,
        currency: 'BRL',
      });
      expect(await read({ ...account, balance: 'R$ 10,50' })).toEqual({ available: 1050, currency: 'BRL' });
    });

    it("an answer without a balance is a bad answer; Iugu's refusal keeps its words; no account id sends nothing", async () => {
      expect(await read({ id: 'A083919DEE244A0FA2705E309B378CD0' }).catch((error: unknown) => error)).toMatchObject({ code: 'UNAVAILABLE' });
      await expect(read({ errors: 'Unauthorized' })).rejects.toMatchObject({ message: 'Erro ao consultar saldo: Unauthorized' });
      const sent = h.fake.received.length;
      await expect(h.adapter.getAccountBalance({ ...h.ctx, publicKey: ' ' })).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
      expect(h.fake.received).toHaveLength(sent);
    });
  });

  describe("payouts: Iugu's withdraw request to the account's registered bank domicile", () => {
    const payout = { paymentMethod: 'BANK_ACCOUNT' as const, amount: 12345 };

    it('POSTs /accounts/{the public key}/request_withdraw {amount in reais} with the API token; PENDING', async () => {
      h.fake.expect({
        method: 'POST',
        path: '/accounts/A083919DEE244A0FA2705E309B378CD0/request_withdraw',
        headers: { authorization: `Basic ${Buffer.from('live_iugu_1:').toString('base64')}` },
        body: { amount: 123.45 },
        reply: { body: { id: 'F9EAB5678DC43ABC89123JKL45678QW', amount: '123.45' } },
      });
      expect(await h.adapter.withdraw(h.ctx, payout)).toEqual({ withdrawId: 'F9EAB5678DC43ABC89123JKL45678QW', status: 'PENDING', amount: 12345 });
    });

    it('refuses a payout that names a destination, a PIX payout, an account without its id; sends nothing', async () => {
      const bankAccount = { bankCode: '341', branchNumber: '1', accountNumber: '2', accountHolder: 'Ana' };
      for (const input of [
        { ...payout, bankAccount },
        { ...payout, pixKey: 'a@b.c' },
        { ...payout, receiverId: 'sub-1' },
      ])
        await expect(h.adapter.withdraw(h.ctx, input as typeof payout)).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: 'IUGU pays out only to the bank account registered on the Iugu account: leave withdraw.bank_account, pix_key and receiver_id empty',
        });
      await expect(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.c', pixType: 'EMAIL' })).rejects.toMatchObject({
        code: 'UNIMPLEMENTED',
        message: 'Método de saque não implementado',
      });
      await expect(h.adapter.withdraw({ ...h.ctx, publicKey: '' }, payout)).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
      expect(h.fake.received).toHaveLength(0);
    });

    it('refuses an answer without the request id, or with one of another type (Iugu errors as the provider message)', async () => {
      h.fake.expect({ method: 'POST', path: /.*\/request_withdraw/, reply: { body: { errors: 'Saldo insuficiente' } } });
      await expect(h.adapter.withdraw(h.ctx, payout)).rejects.toMatchObject({ message: `${FAILURE_PREFIXES.WITHDRAW}: Saldo insuficiente` });
      for (const body of ['<html>oops</html>', { id: { value: 'WR' } }, { amount: '123.45' }, { id: 'WR1', status: 3 }]) {
        h.fake.expect({ method: 'POST', path: /.*\/request_withdraw/, reply: { body } });
        await expect(h.adapter.withdraw(h.ctx, payout)).rejects.toMatchObject({
          code: 'UNAVAILABLE',
          message: expect.stringContaining(`${FAILURE_PREFIXES.WITHDRAW}: resposta do provedor em formato inesperado (`),
        });
      }
    });

    it.each([
      ['withdraw_request.created', 'pending', 'PENDING'],
      ['withdraw_request.status_changed', 'processing', 'PENDING'],
      ['withdraw_request.status_changed', 'accepted', 'APPROVED'],
      ['withdraw_request.status_changed', 'rejected', 'REJECTED'],
      ['withdraw_request.status_changed', 'mystery', 'PENDING'],
    ])('reads the %s trigger: %s is %s', async (event, status, expected) => {
      const body = trigger({ event, 'data[withdraw_request_id]': 'WR1', 'data[account_id]': 'A0839', 'data[status]': status });
      expect(await h.adapter.processWebhook(h.ctx, body)).toEqual({ type: 'WITHDRAW', transactionId: 'WR1', status: expected });
      expect(h.adapter.notificationKey(h.ctx, body)).toBe(`withdraw_request:WR1:${status}`);
    });

    it("a rejected request's data[feedback] is the payout's refusal reason; an accepted one keeps none (Saque)", async () => {
      const rejected = { event: 'withdraw_request.status_changed', 'data[withdraw_request_id]': 'WR1', 'data[status]': 'rejected' };
      // dev.iugu.com/docs/saque: data[feedback], "Motivo da rejeição do saque", example CH11; data[rejected_after_accepted].
      const body = trigger({ ...rejected, 'data[rejected_after_accepted]': 'true', 'data[feedback]': 'CH11' });
      expect(await h.adapter.processWebhook(h.ctx, body)).toEqual({ type: 'WITHDRAW', transactionId: 'WR1', status: 'REJECTED', refusalReason: 'CH11' });
      expect(await h.adapter.processWebhook(h.ctx, trigger({ ...rejected, 'data[feedback]': '' }))).toEqual({
        type: 'WITHDRAW',
        transactionId: 'WR1',
        status: 'REJECTED',
      });
      const accepted = trigger({ ...rejected, 'data[status]': 'accepted', 'data[feedback]': 'CH11' });
      expect(await h.adapter.processWebhook(h.ctx, accepted)).toEqual({ type: 'WITHDRAW', transactionId: 'WR1', status: 'APPROVED' });
    });

    it('ignores a withdraw trigger without its id or status', async () => {
      const incomplete: Array<Record<string, string>> = [
        { event: 'withdraw_request.created', 'data[status]': 'pending' },
        { event: 'withdraw_request.created', 'data[withdraw_request_id]': 'WR1' },
      ];
      for (const fields of incomplete) expect(await h.adapter.processWebhook(h.ctx, trigger(fields))).toBeUndefined();
    });
  });

  it('reads a refunded invoice from its form-encoded trigger', async () => {
    const body = trigger({ event: 'invoice.refund', 'data[id]': 'F00D', 'data[status]': 'refunded' });
    expect(await h.adapter.processWebhook(h.ctx, body)).toEqual({ type: 'TRANSACTION', transactionId: 'F00D', status: 'REFUNDED' });
  });
});
