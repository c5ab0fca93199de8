import { describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { CATALOGUE, failureMessage } from '../../server/lib/providerMessages.js';
import { VELTRAX, VeltraxAdapter } from '../../server/providers/veltrax/adapter.js';
import {
  expectUnsupportedOperationsRejected,
  itRefusesGarbageAnswers,
  failure,
  NOW,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';

/**
 * VELTRAX (spec doc 3, group 3), also VEXYPAYMENTS (group 4): a bespoke adapter
 * on the F5 dialect (login, deposit, withdraw), with the statuses, webhook rule,
 * key inference and texts of doc 3 §4/§5/§8.
 */

const LOGIN = { method: 'POST', path: '/api/auth/login', body: { client_id: 'vx-client', client_secret: 'vx-secret' } };
const BEARER = { authorization: 'Bearer vx-jwt' };
const PIX_CODE = '00020126360014br.gov.bcb.pix0114+55119999999995204000053039865406119.905802BR5907VELTRAX6009SAO PAULO62070503***6304ABCD';
const WITHDRAWAL: WithdrawInput = { paymentMethod: 'PIX', amount: 1050, pixKey: 'ana@example.com', withdrawReference: 'saque-42' };
const deposit = (status: string) => ({ transaction_id: 'vx-1', external_id: 'order-77', status, amount: 19.9, fee: 0.5, total: 19.4, qr_code: PIX_CODE });
const withdrawal = (status: string) => ({
  message: 'Withdrawal processed successfully.',
  transactionId: 'wd-9',
  withdrawal: { transaction_id: 'wd-9', external_id: 'saque-42', status, amount: 10.5, fee: 0.3, total: 10.8, type: 'Withdrawal' },
});

describe('VELTRAX (spec doc 3, group 3; VEXYPAYMENTS, group 4), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new VeltraxAdapter(VELTRAX, runtime),
    account: () => ({ publicKey: 'vx-client', secretKey: 'vx-secret' }),
  });
  /** This test's account logs in once, on its first call. */
  const withLogin = () => h.fake.expect({ ...LOGIN, headers: { authorization: (value) => value === undefined }, reply: { body: { token: 'vx-jwt' } } });

  it('is VELTRAX and VEXYPAYMENTS (an alias, not a copy): PIX charges and payouts, their reads, notifications; no refunds, no receivers', async () => {
    expect(h.adapter.identity).toEqual({
      id: 'VELTRAX',
      aliases: ['VEXYPAYMENTS'],
      specGroup: 'document 3 (group 3)',
      defaultBaseUrl: 'https://api.veltrax.com.br',
    });
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
  });

  it('PIX only, with its texts (§8): a card, another method, a payout not by PIX; nothing is sent', async () => {
    const refused = async (promise: Promise<unknown>) => failure(promise);
    expect(await refused(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual(CATALOGUE.VELTRAX_NO_CREDIT_CARD);
    expect(await refused(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual(CATALOGUE.VELTRAX_PIX_PAYMENTS_ONLY);
    expect(await refused(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, paymentMethod: 'BANK_ACCOUNT' }))).toEqual(CATALOGUE.VELTRAX_PIX_WITHDRAWALS_ONLY);
    expect(h.fake.received).toHaveLength(0);
  });

  it('logs in once (POST /api/auth/login {client_id, client_secret}), then creates the deposit with the token and reads it back', async () => {
    const login = withLogin();
    h.fake.expect({
      method: 'POST',
      path: '/api/payments/deposit',
      headers: BEARER,
      body: {
        amount: 19.9,
        external_id: 'idem-charge-1',
        clientCallbackUrl: h.ctx.notificationUrl,
        description: 'Pedido 42',
        payer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com' },
      },
      reply: { status: 201, body: { message: 'ok', deposit: deposit('PENDING') } },
    });
    h.fake.expect({ method: 'GET', path: '/api/payments/vx-1', headers: BEARER, reply: { body: deposit('COMPLETED') } });
    const created = await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Pedido 42', idempotencyKey: 'idem-charge-1' }));
    expect(created).toMatchObject({ paymentMethod: 'PIX', transactionId: 'vx-1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE });
    expect([created.expiresAt, created.pixQrCode]).toEqual([new Date(NOW.getTime() + 86_400_000), undefined]);
    await expect(h.adapter.getTransaction(h.ctx, 'vx-1')).resolves.toMatchObject({ transactionId: 'vx-1', status: 'APPROVED', amount: 1990 });
    expect(login.calls).toHaveLength(1);
  });

  it("a refused login is 'Falha na autenticação' (§8); a login down is UNAVAILABLE; a login without a token is UNAVAILABLE", async () => {
    h.fake.expect({ ...LOGIN, reply: { status: 401, body: { message: 'Invalid credentials' } } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'vx-1'))).toEqual(CATALOGUE.VELTRAX_AUTHENTICATION_FAILED);
    h.fake.expect({ ...LOGIN, reply: { status: 503, body: { message: 'Manutenção' } } });
    expect(await failure(h.adapter.getWithdraw(h.ctx, 'wd-9'))).toEqual({ code: 'UNAVAILABLE', message: failureMessage.GET_WITHDRAW('Manutenção') });
    h.fake.expect({ ...LOGIN, reply: { body: { message: 'Authentication successful.' } } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'vx-1'))).code).toBe('UNAVAILABLE');
  });

  it('a token the API refuses (401) is forgotten: the next call logs in again', async () => {
    const login = h.fake.expect({ ...LOGIN, times: 2, reply: { body: { token: 'vx-jwt' } } });
    h.fake.expect({ method: 'GET', path: '/api/payments/vx-1', reply: { status: 401, body: { message: 'Token expired' } } });
    h.fake.expect({ method: 'GET', path: '/api/payments/vx-1', reply: { body: deposit('PROCESSING') } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'vx-1'))).code).toBe('FAILED_PRECONDITION');
    await expect(h.adapter.getTransaction(h.ctx, 'vx-1')).resolves.toMatchObject({ status: 'PENDING' });
    expect(login.calls).toHaveLength(2);
  });

  it.each([
    ['an hour', 3600, 1],
    ['30 seconds (within the minute kept in hand)', 30, 2],
  ])('a JWT token valid for %s (%i s) serves two calls with %i login(s): it is kept until a minute before its exp', async (_label, seconds, logins) => {
    const jwt = (payload: object) => ['{"alg":"HS256"}', JSON.stringify(payload), 'sig'].map((part) => Buffer.from(part).toString('base64url')).join('.');
    const token = jwt({ sub: 'vx-client', exp: NOW.getTime() / 1000 + seconds });
    const login = h.fake.expect({ ...LOGIN, times: logins, reply: { body: { message: 'Authentication successful.', token } } });
    h.fake.expect({ method: 'GET', path: '/api/payments/vx-1', times: 2, headers: { authorization: `Bearer ${token}` }, reply: { body: deposit('PENDING') } });
    await h.adapter.getTransaction(h.ctx, 'vx-1');
    await h.adapter.getTransaction(h.ctx, 'vx-1');
    expect(login.calls).toHaveLength(logins);
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['PROCESSING', 'PENDING'],
    ['COMPLETED', 'APPROVED'],
    ['RETIDO', 'CHARGEBACK'],
    ['EXPIRED', 'REJECTED'],
  ])('GET /api/payments/{id} answering %s is %s (§4; unknown REJECTED)', async (status, expected) => {
    withLogin();
    h.fake.expect({ method: 'GET', path: '/api/payments/vx-1', reply: { body: deposit(status) } });
    await expect(h.adapter.getTransaction(h.ctx, 'vx-1')).resolves.toMatchObject({ status: expected });
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['PROCESSING', 'PENDING'],
    ['COMPLETED', 'APPROVED'],
    ['RETIDO', 'PENDING'],
    ['FAILED', 'REJECTED'],
  ])('GET /api/withdrawals/{id} answering %s is %s (§4; a payout has no CHARGEBACK; unknown REJECTED)', async (status, expected) => {
    withLogin();
    h.fake.expect({ method: 'GET', path: '/api/withdrawals/wd-9', headers: BEARER, reply: { body: withdrawal(status) } });
    await expect(h.adapter.getWithdraw(h.ctx, 'wd-9')).resolves.toEqual({ withdrawId: 'wd-9', amount: 1050, status: expected });
  });

  it.each([
    ['ana@example.com', undefined, 'ana@example.com', 'EMAIL'],
    ['123.456.789-09', undefined, '12345678909', 'CPF'],
    ['12.345.678/0001-99', undefined, '12345678000199', 'CNPJ'],
    ['(11) 3456-7890', undefined, '1134567890', 'PHONE'],
    ['c873834c-ed18-4e63-8e5d-90190392b744', undefined, 'c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM'],
    ['(11) 98765-4321', 'PHONE', '11987654321', 'PHONE'],
  ] as const)('pays out to %s (type %s) as pix_key %s, key_type %s (§5 inference when no type is given)', async (key, type, pixKey, keyType) => {
    withLogin();
    h.fake.expect({
      method: 'POST',
      path: '/api/withdrawals/withdraw',
      headers: BEARER,
      body: {
        amount: 10.5,
        external_id: 'idem-payout-1',
        pix_key: pixKey,
        key_type: keyType,
        description: 'Saque solicitado',
        clientCallbackUrl: h.ctx.notificationUrl,
      },
      reply: { status: 201, body: withdrawal('PROCESSING') },
    });
    const input = { ...WITHDRAWAL, pixKey: key, idempotencyKey: 'idem-payout-1', ...(type ? { pixType: type } : {}) };
    await expect(h.adapter.withdraw(h.ctx, input)).resolves.toEqual({ withdrawId: 'wd-9', amount: 1050, status: 'PENDING' });
  });

  it("external_id is the caller's idempotency key, else a new UUID; never the order id or payout reference (the platform answers a used one with the earlier resource)", async () => {
    withLogin();
    const deposits = h.fake.expect({ method: 'POST', path: '/api/payments/deposit', times: 2, reply: { status: 201, body: { deposit: deposit('PENDING') } } });
    const payouts = h.fake.expect({ method: 'POST', path: '/api/withdrawals/withdraw', times: 2, reply: { status: 201, body: withdrawal('PROCESSING') } });
    await h.adapter.createTransaction(h.ctx, transactionInput({ orderId: 'order-77' }));
    await h.adapter.createTransaction(h.ctx, transactionInput({ orderId: 'order-77' }));
    await h.adapter.withdraw(h.ctx, WITHDRAWAL);
    await h.adapter.withdraw(h.ctx, WITHDRAWAL);
    const sent = [...deposits.calls, ...payouts.calls].map((call) => (call.body as { external_id: unknown }).external_id);
    expect(sent).toHaveLength(4);
    for (const externalId of sent) expect(externalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(sent).size).toBe(4);
  });

  describe('a 2xx answer that is not the resource is UNAVAILABLE, never a status', () => {
    itRefusesGarbageAnswers(
      h,
      [
        ['createTransaction', 'POST /api/payments/deposit', () => h.adapter.createTransaction(h.ctx, transactionInput())],
        ['getTransaction', 'GET /api/payments/vx-1', () => h.adapter.getTransaction(h.ctx, 'vx-1')],
        ['withdraw', 'POST /api/withdrawals/withdraw', () => h.adapter.withdraw(h.ctx, WITHDRAWAL)],
        ['getWithdraw', 'GET /api/withdrawals/wd-9', () => h.adapter.getWithdraw(h.ctx, 'wd-9')],
      ],
      () => withLogin(),
    );

    it.each([
      ['a status that is a number', { ...deposit('PENDING'), status: 3 }],
      ['an amount that is an object', { ...deposit('PENDING'), amount: { value: 19.9 } }],
      ['an id that is an object', { ...deposit('PENDING'), transaction_id: { id: 'vx-1' } }],
      ['a wrapped deposit without any id', { deposit: { ...deposit('PENDING'), transaction_id: undefined } }],
    ])('a deposit answered with %s is the bad answer: UNAVAILABLE, outcome unknown, never a charge', async (_label, body) => {
      withLogin();
      h.fake.expect({ method: 'POST', path: '/api/payments/deposit', reply: { body } });
      const error = await h.adapter.createTransaction(h.ctx, transactionInput()).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'PROVIDER_BAD_RESPONSE', outcome: 'unknown' } });
    });

    it('a deposit without its PIX code is UNAVAILABLE: nobody could pay it', async () => {
      withLogin();
      h.fake.expect({ method: 'POST', path: '/api/payments/deposit', reply: { body: { ...deposit('PENDING'), qr_code: undefined } } });
      expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: failureMessage.CREATE_TRANSACTION('resposta do provedor sem código PIX do pagamento'),
      });
    });
  });

  describe('notifications (§4): accepted only with amount, fee and net amount, or recipient bank details', () => {
    const event = { transaction_id: 'vx-1', external_id: 'order-77', status: 'COMPLETED', amount: 19.9, fee: 0.5 };
    it.each([
      [
        'a payment with amount, fee and net_amount, its fee in cents',
        { ...event, net_amount: 19.4 },
        { type: 'TRANSACTION', transactionId: 'vx-1', status: 'APPROVED', providerFee: 50 },
      ],
      [
        'a payment with F5 total as its net amount',
        { ...event, total: 19.4, status: 'RETIDO' },
        { type: 'TRANSACTION', transactionId: 'vx-1', status: 'CHARGEBACK', providerFee: 50 },
      ],
      [
        'a payment whose fee is negative: no fee',
        { ...event, fee: -0.5, net_amount: 20.4 },
        { type: 'TRANSACTION', transactionId: 'vx-1', status: 'APPROVED' },
      ],
      [
        'a withdrawal with recipient bank details only',
        { transaction_id: 'wd-9', status: 'COMPLETED', type: 'Withdrawal', recipient: { bank: '260', branch: '0001', account: '12345-6' } },
        { type: 'WITHDRAW', transactionId: 'wd-9', status: 'APPROVED' },
      ],
      ['without a net amount or bank details', event, undefined],
      ['with an empty recipient', { ...event, recipient: {} }, undefined],
      ['without an id', { status: 'COMPLETED', amount: 19.9, fee: 0.5, net_amount: 19.4 }, undefined],
      ['not JSON', 'not json', undefined],
      ['with a status that is not text', { ...event, net_amount: 19.4, status: 7 }, undefined],
      ['with a fee that is not an amount', { ...event, net_amount: 19.4, fee: 'free' }, undefined],
    ])('%s', async (_label, body, expected) => {
      await expect(h.adapter.processWebhook(h.ctx, notification(body))).resolves.toEqual(expected);
    });

    it('unsigned; keyed by kind, id and status, so a re-delivery is one and a status change another', () => {
      const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
      expect(h.adapter.verifyNotification(h.ctx, notification(event))).toBe('unsigned');
      expect(key({ ...event, net_amount: 19.4 })).toBe('transaction:vx-1:completed');
      expect(key({ ...event, net_amount: 19.4, status: 'PENDING' })).toBe('transaction:vx-1:pending');
      expect(key('not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
    });
  });
});
