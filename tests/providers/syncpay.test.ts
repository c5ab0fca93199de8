import { describe, expect, it } from '@jest/globals';
import { SYNCPAY, SyncpayAdapter, syncpayChargeRequest, toSyncpayCharge } from '../../server/providers/syncpay/adapter.js';
import {
  NOW,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';

const AUTH = { authorization: `Basic ${Buffer.from('sync-key-1').toString('base64')}` };

describe('SYNCPAY (spec doc 3, group 3; Syncpay documentation)', () => {
  const h = providerHarness({ create: (runtime) => new SyncpayAdapter(SYNCPAY, runtime), account: () => ({ publicKey: '', secretKey: 'sync-key-1' }) });

  it("supports PIX only, with the spec's text for anything else (§5, §8); the rest rejects with 'Method not implemented.'", async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'getAccountBalance']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    const card = await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })));
    expect(card).toEqual({ code: 'UNIMPLEMENTED', message: 'Syncpay only supports PIX payment method' });
  });

  it('requires its API key (§5), at the door and before any call', async () => {
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect((await failure(h.adapter.getTransaction({ ...h.ctx, secretKey: '' }, 't1'))).code).toBe('FAILED_PRECONDITION');
  });

  it("builds bodies of its request schema (the adapter's wire section)", () => {
    const terms = { amount: 19.9, pixSeconds: 2 * 86_400, notificationUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(syncpayChargeRequest, [
      toSyncpayCharge(transactionInput({ customerIp: '203.0.113.7' }), terms),
      toSyncpayCharge(bareTransactionInput(), terms),
    ]);
  });

  it('charges by POST /v1/gateway/api/ with Basic <base64 key>, reais and a 2-day PIX (§9); the answer is PENDING with its code', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/gateway/api/',
      headers: AUTH,
      body: {
        amount: 19.9,
        customer: { name: 'Ana Souza', email: 'ana@example.com', cpf: '12345678909', phone: '11987654321' },
        pix: { expiresInDays: 2 },
        postbackUrl: h.ctx.notificationUrl,
      },
      reply: { body: { idTransaction: 'sp_1', paymentCode: '00020126' } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'sp_1', status: 'PENDING', amount: 1990, pixCode: '00020126' },
      ...{ expiresAt: new Date(NOW.getTime() + 2 * 86_400_000) },
    });
  });

  it.each([
    ['paid', 'APPROVED'],
    ['pending', 'PENDING'],
    ['authorized', 'APPROVED'],
    ['mystery', 'REJECTED'],
  ])('reads getTransactionStatus.php: %s → %s', async (status, expected) => {
    h.fake.expect({
      method: 'GET',
      path: '/s1/getTransaction/api/getTransactionStatus.php',
      query: { id_transaction: 'sp_1' },
      headers: AUTH,
      reply: { body: { data: { status, amount: 19.9 } } },
    });
    expect(await h.adapter.getTransaction(h.ctx, 'sp_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'sp_1', status: expected, amount: 1990 });
  });

  describe('bad answers are UNAVAILABLE under the prefix, never a charge or a status', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /v1/gateway/api/', () => h.adapter.createTransaction(h.ctx, transactionInput())],
      ['getTransaction', 'GET /s1/getTransaction/api/getTransactionStatus.php', () => h.adapter.getTransaction(h.ctx, 'sp_1')],
    ]);

    it.each([
      ['an id of the wrong type', { idTransaction: { id: 1 }, paymentCode: '00020126' }, 'idTransaction'],
      ['no copy-and-paste code', { idTransaction: 'sp_1' }, 'paymentCode'],
    ])('a charge answer with %s names the field', async (_label, body, field) => {
      h.fake.expect({ method: 'POST', path: '/v1/gateway/api/', reply: { body } });
      const { code, message } = await failure(h.adapter.createTransaction(h.ctx, transactionInput()));
      expect([code, message]).toEqual(['UNAVAILABLE', expect.stringContaining(`resposta do provedor em formato inesperado (${field}`)]);
    });

    it('a status record without a status, even inside data, is not read as one', async () => {
      h.fake.expect({ method: 'GET', path: '/s1/getTransaction/api/getTransactionStatus.php', reply: { body: { data: { amount: 19.9 } } } });
      expect((await failure(h.adapter.getTransaction(h.ctx, 'sp_1'))).code).toBe('UNAVAILABLE');
    });

    it('an amount that is no amount in reais is UNAVAILABLE, never INTERNAL', async () => {
      h.fake.expect({ method: 'GET', path: '/s1/getTransaction/api/getTransactionStatus.php', reply: { body: { status: 'paid', amount: 1e21 } } });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'sp_1'))).toEqual({
        code: 'UNAVAILABLE',
        message: 'Erro ao buscar transação: resposta do provedor sem valor legível',
      });
    });

    it("reads Portuguese 'situacao' and 'valor' at the top level", async () => {
      h.fake.expect({ method: 'GET', path: '/s1/getTransaction/api/getTransactionStatus.php', reply: { body: { situacao: 'paid', valor: '19.90' } } });
      expect(await h.adapter.getTransaction(h.ctx, 'sp_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'sp_1', status: 'APPROVED', amount: 1990 });
    });
  });

  describe("the account balance (GET /s1/getsaldo/api/, the documentation's balance section)", () => {
    /** The documentation's example answer, with a balance in place of its 0. */
    const saldo = (saldoLiquido: unknown) => ({
      data: {
        usuario: 'gustavo',
        nome: 'gustavo',
        saldo_liquido: saldoLiquido,
        transacoes: { entrada: { quantidade: 1, bruto: '1151.00', liquido: '1146.00' }, saida: { quantidade: 4, bruto: '889.00', liquido: '880.00' } },
      },
      status: 200,
      message: 'Sucesso ao consultar saldo!',
      error: '',
    });

    it('reads `saldo_liquido` in reais as cents, with no pending figure, and 0 as 0', async () => {
      h.fake.expect({ method: 'GET', path: '/s1/getsaldo/api/', headers: AUTH, reply: { body: saldo(266) } });
      expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: 26_600, currency: 'BRL' });
      h.fake.expect({ method: 'GET', path: '/s1/getsaldo/api/', headers: AUTH, reply: { body: saldo('1146.35') } });
      expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: 114_635, currency: 'BRL' });
      h.fake.expect({ method: 'GET', path: '/s1/getsaldo/api/', headers: AUTH, reply: { body: saldo(0) } });
      expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: 0, currency: 'BRL' });
    });

    it('an answer without `saldo_liquido` is a bad answer, never a balance of 0', async () => {
      h.fake.expect({ method: 'GET', path: '/s1/getsaldo/api/', reply: { body: { data: { usuario: 'gustavo' }, status: 200 } } });
      expect(await failure(h.adapter.getAccountBalance(h.ctx))).toMatchObject({ code: 'UNAVAILABLE' });
    });

    it("keeps Syncpay's refusal of a wrong key ('API Key incorreta!') under the balance read's prefix", async () => {
      h.fake.expect({ method: 'GET', path: '/s1/getsaldo/api/', reply: { status: 401, body: { message: 'API Key incorreta!' } } });
      expect(await failure(h.adapter.getAccountBalance(h.ctx))).toMatchObject({ message: 'Erro ao consultar saldo: API Key incorreta!' });
    });
  });

  it("keeps Syncpay's own message of a 404 ('Transação não encontrada.') under the prefix", async () => {
    h.fake.expect({
      method: 'GET',
      path: '/s1/getTransaction/api/getTransactionStatus.php',
      reply: { status: 404, body: { message: 'Transação não encontrada.' } },
    });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'nope'))).toEqual({
      code: 'NOT_FOUND',
      message: 'Erro ao buscar transação: Transação não encontrada.',
    });
  });
});
