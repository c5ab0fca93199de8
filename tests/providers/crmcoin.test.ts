import { describe, expect, it } from '@jest/globals';
import type { Operation, WithdrawInput } from '../../server/domain/types.js';
import { FAILURE_PREFIXES, failureMessage } from '../../server/lib/providerMessages.js';
import {
  CRMCOIN,
  CRMCOIN_REFERENCE_MAX,
  CrmcoinAdapter,
  consultaRequest,
  createPixRequest,
  crmcoinReference,
  devolverRequest,
  pixOutRequest,
  toConsulta,
  toCreatePix,
  toDevolver,
  toPixOut,
} from '../../server/providers/crmcoin/adapter.js';
import { GARBAGE_2XX_BODIES } from '../support/fakeProvider.js';
import { NOW, bareTransactionInput, expectUnsupportedOperationsRejected, failure, providerHarness, transactionInput } from './conformance/harness.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

/**
 * CRMCOIN (spec doc 2, group 2), a bespoke adapter: the five POSTs of §7 each
 * carrying the partner key, the numeric status codes of §4, the 22-character
 * withdraw reference of §5/§9. The bodies are the gateway's decision (no
 * public material exists), recorded in docs/decisions.md.
 */

const PARTNER_KEY = 'parceiro-7f3a';
const BEARER = { authorization: 'Bearer crm_token_1' };
const PIX_CODE = '00020126360014br.gov.bcb.pix0114+55119999999995204000053039865406119.905802BR5907CRMCOIN6009SAO PAULO62070503***6304ABCD';
const WITHDRAWAL: WithdrawInput = {
  paymentMethod: 'PIX',
  amount: 1050,
  pixKey: '(11) 98765-4321',
  pixType: 'PHONE',
  withdrawReference: 'saque-2025-03-10-000042-extra',
};

describe('CRMCOIN (spec doc 2, group 2), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new CrmcoinAdapter(CRMCOIN, runtime),
    account: () => ({ publicKey: PARTNER_KEY, secretKey: 'crm_token_1' }),
  });
  /** A read (/getstatus, /consulta): the bearer token, the partner key and the id in the body. */
  const read = (path: string, id: string, answer: object) =>
    h.fake.expect({ method: 'POST', path, headers: BEARER, body: { chaveParceiro: PARTNER_KEY, id }, reply: { body: { id, ...answer } } });

  it('offers PIX charges, their reads and refunds, PIX payouts and their reads; the rest rejects with the spec text', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw']);
    expect(h.adapter.identity).toEqual({ id: 'CRMCOIN', aliases: [], specGroup: 'document 2 (group 2)', defaultBaseUrl: 'https://api.crmcoin.com.br' });
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by CRMCOIN',
    });
  });

  it('needs the partner key (publicKey) and the API token (secretKey) before anything is sent', async () => {
    for (const keys of [{ publicKey: '' }, { secretKey: ' ' }, { publicKey: 'a|b' }]) {
      const { code } = await failure(h.adapter.getTransaction({ ...h.ctx, ...keys }, 'crm-1'));
      expect(code).toBe('FAILED_PRECONDITION');
    }
    expect(h.fake.received).toHaveLength(0);
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    const terms = { chaveParceiro: 'parceiro-1', valor: 19.9, expirySeconds: 3600 };
    expectBodiesOf(createPixRequest, [toCreatePix(transactionInput({ description: 'Curso' }), terms), toCreatePix(bareTransactionInput(), terms)]);
    expectBodiesOf(consultaRequest, [toConsulta('parceiro-1', 'tx_1')]);
    expectBodiesOf(devolverRequest, [toDevolver('parceiro-1', 'tx_1', 5.5)]);
    const reference = 'r'.repeat(CRMCOIN_REFERENCE_MAX + 5);
    expectBodiesOf(
      pixOutRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) =>
        toPixOut({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType, withdrawReference: reference }, { chaveParceiro: 'parceiro-1', valor: 25 }),
      ),
    );
  });

  it('creates a charge by POST /createpix (partner key, reais, seconds) and answers the code, its image and expiry', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/createpix',
      headers: BEARER,
      body: {
        chaveParceiro: PARTNER_KEY,
        valor: 19.9,
        expiracao: 86_400,
        descricao: 'Pedido 42',
        referencia: 'order-77',
        pagador: { nome: 'Ana Souza', documento: '12345678909' },
      },
      reply: { body: { id: 'crm-1', status: 0, valor: 19.9, pixCopiaECola: PIX_CODE } },
    });
    const created = await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Pedido 42' }));
    expect(created).toMatchObject({ paymentMethod: 'PIX', transactionId: 'crm-1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE });
    expect([created.expiresAt, created.pixQrCode]).toEqual([new Date(NOW.getTime() + 86_400_000), undefined]);
  });

  it('a created charge without its BR Code is UNAVAILABLE, not a charge nobody can pay', async () => {
    h.fake.expect({ method: 'POST', path: '/createpix', reply: { body: { id: 'crm-1', status: 0 } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: failureMessage.CREATE_TRANSACTION('resposta do provedor em formato inesperado (pixCopiaECola: esperado string)'),
    });
  });

  it.each([
    [0, 'PENDING'],
    [1, 'PENDING'],
    [2, 'APPROVED'],
    [3, 'CHARGEBACK'],
    ['2', 'APPROVED'],
    [4, 'REJECTED'],
    ['pago', 'REJECTED'],
  ])('reads a charge by POST /getstatus: code %p is %s (0 and 1 PENDING, 2 APPROVED, 3 CHARGEBACK, other REJECTED)', async (status, expected) => {
    read('/getstatus', 'crm-1', { status, valor: '19.90' });
    expect(await h.adapter.getTransaction(h.ctx, 'crm-1')).toEqual({ paymentMethod: 'PIX', transactionId: 'crm-1', status: expected, amount: 1990 });
    if (expected === 'REJECTED')
      expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: 'CRMCOIN', providerStatus: String(status) }), expect.any(String));
  });

  it('refunds by POST /devolver {partner key, id, reais}; a refusal (sucesso false) is status false', async () => {
    const devolver = { method: 'POST', path: '/devolver', headers: BEARER, body: { chaveParceiro: PARTNER_KEY, id: 'crm-1', valor: 7.5 } };
    h.fake.expect({ ...devolver, reply: { body: { idDevolucao: 'dev-9', sucesso: true } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'crm-1', 750)).toEqual({ refundId: 'dev-9', status: true });
    h.fake.expect({ ...devolver, reply: { body: { sucesso: false, mensagem: 'saldo insuficiente' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'crm-1', 750)).toEqual({ refundId: 'crm-1', status: false });
  });

  it('pays out by POST /pixout: partner key, reais, the +55 phone key, the reference cut to 22 characters, the default description', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/pixout',
      headers: BEARER,
      body: {
        chaveParceiro: PARTNER_KEY,
        valor: 10.5,
        chavePix: '+5511987654321',
        tipoChave: 'TELEFONE',
        referencia: 'saque-2025-03-10-00004',
        descricao: 'Saque solicitado',
      },
      reply: { body: { id: 'out-1', status: 1, valor: 10.5 } },
    });
    expect(await h.adapter.withdraw(h.ctx, WITHDRAWAL)).toEqual({ withdrawId: 'out-1', amount: 1050, status: 'PENDING' });
    expect(crmcoinReference(WITHDRAWAL.withdrawReference)).toHaveLength(CRMCOIN_REFERENCE_MAX);
  });

  it.each([
    ['CPF', '123.456.789-09', '12345678909', 'CPF'],
    ['CNPJ', '12.345.678/0001-95', '12345678000195', 'CNPJ'],
    ['EMAIL', 'Ana@Example.com', 'Ana@Example.com', 'EMAIL'],
    ['RANDOM', '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456-426614174000', 'ALEATORIA'],
  ] as const)(
    'sends a %s key as %p with tipoChave %s; without a withdrawReference the idempotency key is the reference',
    async (pixType, pixKey, chavePix, tipoChave) => {
      h.fake.expect({
        method: 'POST',
        path: '/pixout',
        body: { chaveParceiro: PARTNER_KEY, valor: 10.5, chavePix, tipoChave, referencia: '5d3c9a1e-7b2f-4c1d-9e8', descricao: 'Saque do mês' },
        reply: { body: { id: 'out-2', status: 2 } },
      });
      const input: WithdrawInput = {
        paymentMethod: 'PIX',
        amount: 1050,
        pixKey,
        pixType,
        description: 'Saque do mês',
        idempotencyKey: '5d3c9a1e-7b2f-4c1d-9e8a-0f6b2c4d1e3a',
      };
      expect(await h.adapter.withdraw(h.ctx, input)).toEqual({ withdrawId: 'out-2', amount: 1050, status: 'APPROVED' });
    },
  );

  it.each<[string, Partial<WithdrawInput>, string]>([
    ['a payout other than PIX', { paymentMethod: 'BANK_ACCOUNT' }, 'UNIMPLEMENTED Método de saque não implementado'],
    ['a blank PIX key', { pixKey: ' ' }, 'INVALID_ARGUMENT withdraw.pix_key is required for PIX withdrawals'],
    ['a PIX key without its type', { pixType: undefined }, 'INVALID_ARGUMENT withdraw.pix_type is required for PIX withdrawals'],
  ])('refuses %s before anything is sent', async (_label, change, expected) => {
    const { code, message } = await failure(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, ...change }));
    expect([`${code} ${message}`, h.fake.received.length]).toEqual([expected, 0]);
  });

  it.each([
    [0, 'PENDING'],
    [1, 'PENDING'],
    [2, 'APPROVED'],
    [3, 'CANCELED'],
    [7, 'CANCELED'],
  ])('reads a payout by POST /consulta: code %p is %s (2 APPROVED, other unknown codes CANCELED)', async (status, expected) => {
    read('/consulta', 'out-1', { status, valor: 10.5, pagoEm: '2025-03-10T12:00:05.000Z' });
    const approvedAt = expected === 'APPROVED' ? { approvedAt: new Date('2025-03-10T12:00:05.000Z') } : {};
    expect(await h.adapter.getWithdraw(h.ctx, 'out-1')).toEqual({ withdrawId: 'out-1', amount: 1050, status: expected, ...approvedAt });
  });

  describe('a 2xx answer that is not the resource is UNAVAILABLE under the prefix, never a status or a success', () => {
    const calls: Array<[Operation, string, string, () => Promise<unknown>]> = [
      ['createTransaction', '/createpix', FAILURE_PREFIXES.CREATE_TRANSACTION, () => h.adapter.createTransaction(h.ctx, transactionInput())],
      ['getTransaction', '/getstatus', FAILURE_PREFIXES.GET_TRANSACTION, () => h.adapter.getTransaction(h.ctx, 'crm-1')],
      ['refoundTransaction', '/devolver', FAILURE_PREFIXES.REFUND_TRANSACTION, () => h.adapter.refoundTransaction(h.ctx, 'crm-1', 750)],
      ['withdraw', '/pixout', FAILURE_PREFIXES.WITHDRAW, () => h.adapter.withdraw(h.ctx, WITHDRAWAL)],
      ['getWithdraw', '/consulta', FAILURE_PREFIXES.GET_WITHDRAW, () => h.adapter.getWithdraw(h.ctx, 'out-1')],
    ];
    const garbage: Array<[string, unknown]> = [
      ...GARBAGE_2XX_BODIES,
      ['an unreadable amount', { id: 'x', status: 2, valor: 'dezenove' }],
      ['a status that is an object', { id: 'x', status: { code: 2 }, idDevolucao: 'd', sucesso: 'sim', pixCopiaECola: PIX_CODE }],
      ['an id that is a list', { id: ['x'], status: 2, idDevolucao: ['d'], pixCopiaECola: PIX_CODE }],
    ];
    it.each(calls.flatMap(([operation, path, prefix, call]) => garbage.map(([label, body]) => [operation, label, path, prefix, call, body] as const)))(
      '%s answered with %s',
      async (_operation, _label, path, prefix, call, body) => {
        h.fake.expect({ method: 'POST', path, reply: { body } });
        const { code, message } = await failure(call());
        expect([code, message.startsWith(`${prefix}: resposta do provedor em formato inesperado (`)]).toEqual(['UNAVAILABLE', true]);
      },
    );
  });

  it("keeps the provider's message of a 4xx under the prefix; a 5xx is UNAVAILABLE and a payout is sent once", async () => {
    h.fake.expect({ method: 'POST', path: '/getstatus', reply: { status: 404, body: { mensagem: 'cobrança não encontrada' } } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'crm-404'))).toEqual({
      code: 'NOT_FOUND',
      message: failureMessage.GET_TRANSACTION('cobrança não encontrada'),
    });
    h.fake.expect({ method: 'POST', path: '/pixout', reply: { status: 502, body: { mensagem: 'indisponível' } } });
    expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({ code: 'UNAVAILABLE', message: failureMessage.WITHDRAW('indisponível') });
    expect(h.fake.received).toHaveLength(2);
  });
});
