import { describe, expect, it } from '@jest/globals';
import { NEXTPAY, NEXTPAY_PATHS, NextpayAdapter } from '../../server/providers/nextpay/adapter.js';
import type { WithdrawInput } from '../../server/domain/types.js';
import { GARBAGE_2XX_BODIES, absent, type Expectation } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, providerHarness, transactionInput } from './conformance/harness.js';

const PIX_CODE = '00020126360014br.gov.bcb.pix0114+55119999999995204000053039865406159.905802BR5907NEXTPAY6009SAO PAULO62070503***6304BEEF';
const KEYS = { publicKey: 'nextpay-client', secretKey: 'nextpay-secret' };
const BEARER = { authorization: 'Bearer np-token-1' };

/** The spec's token request (§7): a form of grant_type, client_id and client_secret, with no Authorization header. */
const TOKEN: Expectation = {
  method: 'POST',
  path: NEXTPAY_PATHS.token,
  headers: { 'content-type': /^application\/x-www-form-urlencoded/, authorization: absent },
  body: { grant_type: 'client_credentials', client_id: KEYS.publicKey, client_secret: KEYS.secretKey },
  reply: { body: { access_token: 'np-token-1', token_type: 'Bearer', expires_in: 3600 } },
};

const payout = (extra: Partial<WithdrawInput> = {}): WithdrawInput => ({
  paymentMethod: 'PIX',
  amount: 1050,
  pixKey: '123.456.789-09',
  pixType: 'CPF',
  description: 'Saque de R$ 10,50',
  name: 'Ana Souza',
  document: '123.456.789-09',
  email: 'ana@example.com',
  ...extra,
});

describe('NEXTPAY (spec doc 2, group 2), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new NextpayAdapter(NEXTPAY, runtime), account: () => KEYS });
  /** Each test's account takes one token, on its first call. */
  const withToken = () => h.fake.expect(TOKEN);

  it('offers PIX charges, their refund and PIX payouts read back; the rest rejects with the spec text', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).message).toBe(
      'Payment method not supported by NEXTPAY',
    );
  });

  it('asks its token with the OAuth form, then creates the PIX by POST /pix/generate in reais with fixedAmount (§7)', async () => {
    const token = withToken();
    h.fake.expect({
      method: 'POST',
      path: '/pix/generate',
      headers: { ...BEARER, 'content-type': /^application\/json/ },
      body: {
        amount: 19.9,
        fixedAmount: true,
        description: 'Pedido 77',
        customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
      },
      reply: { body: { id: 'np-tx-1', status: 'waiting', amount: 19.9, qrCode: PIX_CODE } },
    });
    h.fake.expect({ method: 'GET', path: '/pix/consult/np-tx-1', headers: BEARER, reply: { body: { id: 'np-tx-1', status: 'paid', amount: '19.90' } } });

    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Pedido 77' }))).toEqual({
      paymentMethod: 'PIX',
      transactionId: 'np-tx-1',
      status: 'PENDING',
      amount: 1990,
      pixCode: PIX_CODE,
      // NEXTPAY is sent no validity; the spec's default PIX day applies unless it answers its own.
      expiresAt: new Date(NOW.getTime() + 86_400_000),
    });
    // The token is cached: the second call presents it again without asking.
    expect(await h.adapter.getTransaction(h.ctx, 'np-tx-1')).toMatchObject({ transactionId: 'np-tx-1', status: 'APPROVED', amount: 1990 });
    expect(token.calls).toHaveLength(1);
  });

  it("keeps NEXTPAY's own expiry, and sends no customer without a name and a document", async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/pix/generate',
      body: { amount: 0.29, fixedAmount: true },
      reply: { body: { id: 7, status: 'processing', qrCode: PIX_CODE, expiresAt: '2025-03-10T12:30:00.000Z' } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ amount: 29, customer: undefined, description: undefined }))).toMatchObject({
      transactionId: '7',
      status: 'PENDING',
      amount: 29,
      expiresAt: new Date('2025-03-10T12:30:00.000Z'),
    });
  });

  it.each([
    ['waiting', 'PENDING'],
    ['processing', 'PENDING'],
    ['authorized', 'PENDING'],
    ['paid', 'APPROVED'],
    ['refunded', 'REFUNDED'],
    ['chargedback', 'CHARGEBACK'],
    ['expired', 'REJECTED'],
    ['something new', 'REJECTED'],
  ])('reads GET /pix/consult/{id}: %s → %s (the common pattern, unknown REJECTED)', async (status, expected) => {
    withToken();
    h.fake.expect({ method: 'GET', path: '/pix/consult/np-tx-1', headers: BEARER, reply: { body: { id: 'np-tx-1', status, amount: 19.9 } } });
    expect(await h.adapter.getTransaction(h.ctx, 'np-tx-1')).toMatchObject({ transactionId: 'np-tx-1', status: expected, amount: 1990 });
    expect(h.warn).toHaveBeenCalledTimes(status === 'something new' ? 1 : 0);
  });

  it.each(GARBAGE_2XX_BODIES)('a 2xx answer that is %s is UNAVAILABLE under the prefix, never a status', async (_label, body) => {
    withToken();
    h.fake.expect({ method: 'GET', path: '/pix/consult/np-tx-1', reply: { body } });
    h.fake.expect({ method: 'POST', path: '/pix/generate', reply: { body } });
    h.fake.expect({ method: 'POST', path: '/pix/cashout', reply: { body } });
    h.fake.expect({ method: 'GET', path: '/payments/queryTransaction/np-out-1', reply: { body } });
    h.fake.expect({ method: 'PUT', path: '/payments/cancel/np-tx-1', reply: { body } });
    const unavailable = (message: string) => ({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(new RegExp(`^${message}: resposta do provedor em formato inesperado \\(`)),
    });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'np-tx-1'))).toEqual(unavailable('Erro ao buscar transação'));
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual(unavailable('Erro ao criar transação'));
    expect(await failure(h.adapter.withdraw(h.ctx, payout()))).toEqual(unavailable('Erro ao realizar saque'));
    expect(await failure(h.adapter.getWithdraw(h.ctx, 'np-out-1'))).toEqual(unavailable('Erro ao buscar saque'));
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'np-tx-1', 1990))).toEqual(unavailable('Erro ao estornar transação'));
  });

  it.each([
    ['a numeric status', { id: 'np-1', status: 2, amount: 19.9, qrCode: PIX_CODE }, 'status'],
    ['an object id', { id: { v: 1 }, status: 'paid', amount: 19.9, qrCode: PIX_CODE }, 'id'],
    ['a non-numeric amount', { id: 'np-1', status: 'paid', amount: 'dezenove', qrCode: PIX_CODE }, 'amount'],
  ])("an answer with %s is the kit's bad answer under each operation's prefix, never a status", async (_label, body, field) => {
    withToken();
    h.fake.expect({ method: 'GET', path: '/pix/consult/np-tx-1', reply: { body } });
    h.fake.expect({ method: 'POST', path: '/pix/generate', reply: { body } });
    h.fake.expect({ method: 'POST', path: '/pix/cashout', reply: { body } });
    h.fake.expect({ method: 'GET', path: '/payments/queryTransaction/np-out-1', reply: { body } });
    const bad = (prefix: string) => ({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(new RegExp(`^${prefix}: resposta do provedor em formato inesperado \\(${field}:`)),
    });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'np-tx-1'))).toEqual(bad('Erro ao buscar transação'));
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual(bad('Erro ao criar transação'));
    expect(await failure(h.adapter.withdraw(h.ctx, payout()))).toEqual(bad('Erro ao realizar saque'));
    expect(await failure(h.adapter.getWithdraw(h.ctx, 'np-out-1'))).toEqual(bad('Erro ao buscar saque'));
  });

  it('a charge answered without its code, a read without any amount, a cancellation with a numeric status: UNAVAILABLE', async () => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/pix/generate', reply: { body: { id: 'np-1', status: 'waiting', amount: 19.9 } } });
    h.fake.expect({ method: 'GET', path: '/pix/consult/np-tx-1', reply: { body: { id: 'np-tx-1', status: 'paid' } } });
    h.fake.expect({ method: 'PUT', path: '/payments/cancel/np-tx-1', reply: { body: { id: 'np-cancel-1', status: 0 } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('(qrCode:'),
    });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'np-tx-1'))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao buscar transação: resposta do provedor sem valor do PIX',
    });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'np-tx-1', 500))).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('(status:'),
    });
  });

  it('pays out by POST /pix/cashout (description, destinatary.dictKey, amount in reais, customer) and reads it by GET /payments/queryTransaction/{id}', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/pix/cashout',
      headers: BEARER,
      body: {
        description: 'Saque de R$ 10,50',
        destinatary: { dictKey: '12345678909' },
        amount: 10.5,
        customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com' },
      },
      reply: { body: { id: 'np-out-1', status: 'processing', amount: 10.5 } },
    });
    h.fake.expect({
      method: 'GET',
      path: '/payments/queryTransaction/np-out-1',
      headers: BEARER,
      reply: { body: { id: 'np-out-1', status: 'paid', amount: '10.50', paidAt: '2025-03-10T12:01:00.000Z' } },
    });
    expect(await h.adapter.withdraw(h.ctx, payout())).toEqual({ withdrawId: 'np-out-1', amount: 1050, status: 'PENDING' });
    expect(await h.adapter.getWithdraw(h.ctx, 'np-out-1')).toEqual({
      withdrawId: 'np-out-1',
      amount: 1050,
      status: 'APPROVED',
      approvedAt: new Date('2025-03-10T12:01:00.000Z'),
    });
  });

  it.each([
    ['failed', 'REJECTED'],
    ['canceled', 'CANCELED'],
    ['in review', 'PENDING'],
  ])('reads a payout %s as %s (unknown payout statuses stay PENDING)', async (status, expected) => {
    withToken();
    h.fake.expect({ method: 'GET', path: '/payments/queryTransaction/np-out-1', reply: { body: { id: 'np-out-1', status, amount: 10.5 } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'np-out-1')).toMatchObject({ status: expected });
  });

  it('keeps an EMAIL key as given, and refuses other withdraw methods and a missing key before sending', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/pix/cashout',
      body: { description: 'Saque de R$ 10,50', destinatary: { dictKey: 'Ana@Example.com' }, amount: 10.5 },
      reply: { body: { id: 'np-out-2', status: 'pending' } },
    });
    const bare = { name: undefined, document: undefined, email: undefined };
    expect(await h.adapter.withdraw(h.ctx, payout({ ...bare, pixKey: 'Ana@Example.com', pixType: 'EMAIL' }))).toMatchObject({
      withdrawId: 'np-out-2',
      amount: 1050,
    });
    expect(await failure(h.adapter.withdraw(h.ctx, payout({ paymentMethod: 'BANK_ACCOUNT' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Método de saque não implementado',
    });
    expect((await failure(h.adapter.withdraw(h.ctx, payout({ pixKey: ' ' })))).code).toBe('INVALID_ARGUMENT');
  });

  it('refunds a charge by PUT /payments/cancel/{id} with the amount in reais; a refused cancellation is status false', async () => {
    withToken();
    h.fake.expect({
      method: 'PUT',
      path: '/payments/cancel/np-tx-1',
      headers: BEARER,
      body: { amount: 5 },
      reply: { body: { id: 'np-cancel-1', status: 'refunded' } },
    });
    h.fake.expect({ method: 'PUT', path: '/payments/cancel/np-tx-1', body: { amount: 19.9 }, reply: { body: { status: 'refused' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'np-tx-1', 500)).toEqual({ refundId: 'np-cancel-1', status: true });
    expect(await h.adapter.refoundTransaction(h.ctx, 'np-tx-1', 1990)).toEqual({ refundId: 'np-tx-1', status: false });
  });

  it("keeps NEXTPAY's message of a 4xx under the prefix; a 5xx is UNAVAILABLE; a refused token is the account's configuration", async () => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/pix/generate', reply: { status: 422, body: { message: 'amount inválido' } } });
    h.fake.expect({ method: 'POST', path: '/pix/cashout', reply: { status: 502, body: { message: 'indisponível' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: amount inválido',
    });
    expect(await failure(h.adapter.withdraw(h.ctx, payout()))).toEqual({ code: 'UNAVAILABLE', message: 'Erro ao realizar saque: indisponível' });
    const other = { ...h.ctx, accountId: `${h.ctx.accountId}-b` };
    h.fake.expect({ ...TOKEN, reply: { status: 401, body: { error: 'invalid_client', error_description: 'client inválido' } } });
    expect(await failure(h.adapter.getTransaction(other, 'np-tx-1'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao buscar transação: client inválido',
    });
  });

  it('needs both keys (client_id and client_secret), checked before anything is sent', async () => {
    expect((await failure(h.adapter.getTransaction({ ...h.ctx, secretKey: '' }, 'np-tx-1'))).code).toBe('FAILED_PRECONDITION');
    expect((await failure(h.adapter.getTransaction({ ...h.ctx, publicKey: '' }, 'np-tx-1'))).code).toBe('FAILED_PRECONDITION');
    expect(h.fake.received).toHaveLength(0);
  });
});
