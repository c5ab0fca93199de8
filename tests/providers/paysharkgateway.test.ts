import { describe, expect, it } from '@jest/globals';
import type { PixKeyType } from '../../server/domain/types.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { PAYSHARKGATEWAY, PaySharkGatewayAdapter } from '../../server/providers/members/paysharkgateway.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { failure, notification, providerHarness, transactionInput } from './conformance/harness.js';
import { F1_BODIES, statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

// Research (F1, two public integrations): Basic base64(secretKey:), the password empty; the secret key packs the payouts' withdraw key.
const AUTH = `Basic ${Buffer.from('sk_shark:').toString('base64')}`;
const keys = { publicKey: '', secretKey: 'sk_shark|wk_shark' };
const create = (runtime: AdapterRuntime) => new PaySharkGatewayAdapter(PAYSHARKGATEWAY, runtime);
transactionsApiConformance(PAYSHARKGATEWAY, { keys, authHeaders: { authorization: AUTH }, create, ...F1_BODIES });

describe('PAYSHARKGATEWAY (spec doc 3, group 3)', () => {
  const h = providerHarness({ create, account: () => keys });
  const receiverInput = { name: 'Loja Ana', email: 'ana@loja.example', document: '12.345.678/0001-95', userId: 'user-7' };

  it("keeps §7's /v1 paths on a host without /v1, so no path is doubled", () => {
    expect(PAYSHARKGATEWAY.identity.defaultBaseUrl).toBe('https://api.paysharkgateway.com.br');
    expect(Object.values(PAYSHARKGATEWAY.paths ?? {}).map((path) => (typeof path === 'string' ? path : path.path))).toEqual([
      '/v1/transactions',
      '/v1/transactions/{id}',
      '/v1/transactions/{id}/refund',
      '/v1/transfers',
      '/v1/transfers/{id}',
    ]);
  });

  it("maps the statuses the research names and doc 3's common pattern (§4); unknown is PENDING", () => {
    const named = { pending: 'PENDING', paid: 'APPROVED', refunded: 'REFUNDED', refused: 'REJECTED', authorized: 'APPROVED', in_dispute: 'CHARGEBACK' };
    for (const [status, expected] of Object.entries({ ...named, mystery: 'PENDING' }))
      expect([status, statusOf(PAYSHARKGATEWAY, status)]).toEqual([status, expected]);
  });

  it('sends the F1 body with pix.expiresInDays 1 (24 h, §9) and the sidecar as postback URL', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/transactions',
      headers: { authorization: AUTH },
      body: {
        amount: 1990,
        paymentMethod: 'pix',
        pix: { expiresInDays: 1 },
        customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', document: { number: '12345678909', type: 'cpf' } },
        items: [{ externalRef: 'sku-1', title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }],
        postbackUrl: h.ctx.notificationUrl,
        externalRef: 'order-77',
        currency: 'BRL',
      },
      reply: { body: { id: 'ps_1', status: 'pending', amount: 1990, pix: { qrcode: '000201abc' } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({ transactionId: 'ps_1', status: 'PENDING', pixCode: '000201abc' });
  });

  it.each([
    ['CPF', '123.456.789-09', '12345678909', 'cpf'],
    ['CNPJ', '12.345.678/0001-95', '12345678000195', 'cnpj'],
    ['EMAIL', 'Ana@Loja.example', 'Ana@Loja.example', 'email'],
    ['PHONE', '(11) 98765-4321', '11987654321', 'phone'],
    ['RANDOM', '123e4567-e12b-12d1-a456-426655440000', '123e4567-e12b-12d1-a456-426655440000', 'evp'],
    [undefined, ' 123e4567-e12b ', '123e4567-e12b', 'evp'],
  ] as const)(
    'pays out a %s key by POST /v1/transfers with the withdraw key and a lower-case key type, evp by default (§5)',
    async (type, key, sent, sentType) => {
      h.fake.expect({
        method: 'POST',
        path: '/v1/transfers',
        headers: { authorization: AUTH, 'x-withdraw-key': 'wk_shark' },
        body: { method: 'fiat', amount: 2500, pixKey: sent, pixKeyType: sentType, description: 'Saque', postbackUrl: h.ctx.notificationUrl },
        reply: { body: { id: 'tr_1', status: 'pending', amount: 2500 } },
      });
      const pixType = type as PixKeyType | undefined;
      expect(
        await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: key, ...(pixType ? { pixType } : {}), description: 'Saque' }),
      ).toEqual({
        withdrawId: 'tr_1',
        amount: 2500,
        status: 'PENDING',
      });
    },
  );

  it.each([
    ['pending', 'PENDING'],
    ['completed', 'APPROVED'],
    ['failed', 'REJECTED'],
  ])('reads a transfer by GET /v1/transfers/{id}: %s → %s', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/v1/transfers/tr_9', headers: { authorization: AUTH }, reply: { body: { id: 'tr_9', status, amount: 700 } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'tr_9')).toEqual({ withdrawId: 'tr_9', amount: 700, status: expected });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a transfer or receiver read answered with %s is UNAVAILABLE, never a result', async (_label, body) => {
    h.fake.expect({ method: 'GET', path: '/v1/transfers/tr_9', reply: { body } });
    expect((await failure(h.adapter.getWithdraw(h.ctx, 'tr_9'))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/v1/receivers/rc_1', reply: { body } });
    expect((await failure(h.adapter.getReceiver(h.ctx, 'rc_1'))).code).toBe('UNAVAILABLE');
  });

  it("creates a receiver by POST /v1/receivers {name, email, document {number, type}, externalRef}; the answer's fields win", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/receivers',
      headers: { authorization: AUTH },
      body: { name: 'Loja Ana', email: 'ana@loja.example', document: { number: '12345678000195', type: 'cnpj' }, externalRef: 'user-7' },
      reply: { status: 201, body: { data: { id: 'rc_1', status: 'pending', name: 'Loja Ana LTDA' } } },
    });
    expect(await h.adapter.createReceiver(h.ctx, receiverInput)).toEqual({
      ...{ receiverId: 'rc_1', receiverProvider: 'PAYSHARKGATEWAY', name: 'Loja Ana LTDA', email: 'ana@loja.example' },
      ...{ document: '12345678000195', documentType: 'CNPJ', status: 'PENDING', balance: 0 },
    });
  });

  it.each([
    ['active', 'ACTIVE'],
    ['approved', 'ACTIVE'],
    ['rejected', 'REJECTED'],
    ['cancelled', 'REJECTED'],
    ['pending', 'PENDING'],
  ])("reads a receiver by GET /v1/receivers/{id} through §4's receiver rule: %s → %s", async (status, expected) => {
    const body = { id: 'rc_1', status, name: 'Ana', email: 'a@b.c', document: { number: '12345678909', type: 'cpf' }, balance: { available: 15990 } };
    h.fake.expect({ method: 'GET', path: '/v1/receivers/rc_1', headers: { authorization: AUTH }, reply: { body } });
    expect(await h.adapter.getReceiver(h.ctx, 'rc_1')).toEqual({
      ...{ receiverId: 'rc_1', receiverProvider: 'PAYSHARKGATEWAY', name: 'Ana', email: 'a@b.c', document: '12345678909', documentType: 'CPF' },
      ...{ status: expected, balance: 15990 },
    });
  });

  it('reads any other receiver status, or none, as PENDING ("otherwise PENDING", §4)', async () => {
    h.fake.expect({
      method: 'GET',
      path: '/v1/receivers/rc_2',
      reply: { body: { id: 'rc_2', status: 'under_review', document: '123.456.789-09', balance: 0 } },
    });
    expect(await h.adapter.getReceiver(h.ctx, 'rc_2')).toMatchObject({ status: 'PENDING', document: '12345678909', documentType: 'CPF', balance: 0 });
    h.fake.expect({ method: 'GET', path: '/v1/receivers/rc_3', reply: { body: { id: 'rc_3' } } });
    expect((await h.adapter.getReceiver(h.ctx, 'rc_3')).status).toBe('PENDING');
  });

  const call = {
    createTransaction: () => h.adapter.createTransaction(h.ctx, transactionInput()),
    getTransaction: () => h.adapter.getTransaction(h.ctx, 'tx_1'),
    refoundTransaction: () => h.adapter.refoundTransaction(h.ctx, 'tx_1', 100),
    withdraw: () => h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.c', pixType: 'EMAIL' }),
    getWithdraw: () => h.adapter.getWithdraw(h.ctx, 'tr_1'),
    createReceiver: () => h.adapter.createReceiver(h.ctx, receiverInput),
    getReceiver: () => h.adapter.getReceiver(h.ctx, 'rc_1'),
  };
  it.each([
    ['createTransaction', 'POST', '/v1/transactions', 'Erro ao criar transação'],
    ['getTransaction', 'GET', '/v1/transactions/tx_1', 'Erro ao buscar transação'],
    ['refoundTransaction', 'POST', '/v1/transactions/tx_1/refund', 'Erro ao processar reembolso'],
    ['withdraw', 'POST', '/v1/transfers', 'Erro ao processar saque'],
    ['getWithdraw', 'GET', '/v1/transfers/tr_1', 'Erro ao buscar saque'],
    ['createReceiver', 'POST', '/v1/receivers', 'Erro ao criar recebedor'],
    ['getReceiver', 'GET', '/v1/receivers/rc_1', 'Erro ao buscar recebedor'],
  ] as const)("words a failed %s '%s %s' as '%s: <provider message>' (§8)", async (operation, method, path, text) => {
    h.fake.expect({ method, path, reply: { status: 422, body: { message: 'Dados inválidos' } } });
    expect(await failure(call[operation]())).toEqual({ code: 'INVALID_ARGUMENT', message: `${text}: Dados inválidos` });
  });

  it('needs only the secret key (the Basic user), the withdraw key packed after it; the layout checked when the account is created', () => {
    for (const secretKey of ['sk', 'sk|wk', 'sk|']) expect(() => h.adapter.checkAccount({ publicKey: '', secretKey })).not.toThrow();
    expect(() => h.adapter.checkAccount({ publicKey: 'pk', secretKey: '' })).toThrow('secretKey is required');
    expect(() => h.adapter.checkAccount({ publicKey: 'pk', secretKey: '' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    for (const secretKey of ['sk|wk|extra', '|wk'])
      expect(() => h.adapter.checkAccount({ publicKey: '', secretKey })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'Formato de credenciais inválido. Use: secret|withdrawKey' }),
      );
  });

  it('refuses a payout without the withdraw key before calling, saying how to set it; charges need none', async () => {
    const ctx = { ...h.ctx, secretKey: 'sk_shark' };
    expect(await failure(h.adapter.withdraw(ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.c', pixType: 'EMAIL' }))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: "PAYSHARKGATEWAY payouts need the account's withdraw key (sent as x-withdraw-key): set the secret key as '<secret key>|<withdraw key>'",
    });
    expect(h.fake.received).toHaveLength(0);
    h.fake.expect({
      method: 'GET',
      path: '/v1/transactions/ps_1',
      headers: { authorization: AUTH },
      reply: { body: { id: 'ps_1', status: 'paid', amount: 100 } },
    });
    expect((await h.adapter.getTransaction(ctx, 'ps_1')).status).toBe('APPROVED');
  });

  it('reads the F1 transfer postback as a payout', async () => {
    const body = { id: 'pb_9', type: 'withdraw', objectId: 'tr_1', data: { id: 'tr_1', status: 'completed', amount: 2500 } };
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'WITHDRAW', transactionId: 'tr_1', status: 'APPROVED' });
  });
});
