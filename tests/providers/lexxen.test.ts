import { describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { CATALOGUE, failureMessage } from '../../server/lib/providerMessages.js';
import { LEXXEN, LexxenAdapter } from '../../server/providers/lexxen/adapter.js';
import { GARBAGE_2XX_BODIES } from '../support/fakeProvider.js';
import { expectUnsupportedOperationsRejected, failure, providerHarness } from './conformance/harness.js';

/**
 * LEXXEN (spec doc 3, group 3), a bespoke adapter for PIX payouts: POST /auth,
 * POST /transaction/pix-out, GET /transaction/identifier/{id} (§7), its payout
 * statuses (§4), key rules (§5) and withdraw text (§8). Bodies are the
 * gateway's decision (no public material), recorded in docs/decisions.md.
 */

const CNPJ = '12345678000199';
const AUTH = { method: 'POST', path: '/auth', body: { cnpj: CNPJ, public_key: 'lx-key' } };
const BEARER = { authorization: 'Bearer lx-token' };
const WITHDRAWAL: WithdrawInput = { paymentMethod: 'PIX', amount: 1050, pixKey: 'ana@example.com', pixType: 'EMAIL', withdrawReference: 'saque-42' };
const FIXED = CATALOGUE.LEXXEN_WITHDRAW_FAILED.message;

describe('LEXXEN (spec doc 3, group 3), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new LexxenAdapter(LEXXEN, runtime),
    account: () => ({ publicKey: CNPJ, secretKey: 'lx-key' }),
  });
  const withLogin = () => h.fake.expect({ ...AUTH, reply: { body: { token: 'lx-token' } } });

  it('offers PIX payouts and their reads only; the rest rejects with the spec text', async () => {
    expect(h.adapter.identity).toEqual({ id: 'LEXXEN', aliases: [], specGroup: 'document 3 (group 3)', defaultBaseUrl: 'https://api.lexxen.com.br' });
    expect(h.adapter.operations).toEqual(['withdraw', 'getWithdraw']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
  });

  it.each([
    ['(11) 98765-4321', 'PHONE', '+5511987654321', 'PHONE'],
    ['55 11 98765-4321', 'PHONE', '+5511987654321', 'PHONE'],
    ['c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM', 'c873834c-ed18-4e63-8e5d-90190392b744', 'EVP'],
    ['123.456.789-09', 'CPF', '12345678909', 'CPF'],
    ['ana@example.com', 'EMAIL', 'ana@example.com', 'EMAIL'],
  ] as const)('logs in (POST /auth {cnpj, public_key}) and pays out to %s (%s) as %s, %s (§5)', async (key, type, pixKey, keyType) => {
    const login = withLogin();
    h.fake.expect({
      method: 'POST',
      path: '/transaction/pix-out',
      headers: BEARER,
      body: { amount: 10.5, pix_key: pixKey, pix_key_type: keyType, identifier: 'saque-42', description: 'Saque solicitado' },
      reply: { status: 201, body: { identifier: 'saque-42', status: 'CREATED', amount: 10.5 } },
    });
    await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixKey: key, pixType: type })).resolves.toEqual({
      withdrawId: 'saque-42',
      amount: 1050,
      status: 'PENDING',
    });
    expect(login.calls).toHaveLength(1);
  });

  it.each([
    ['CREATED', 'PENDING'],
    ['PROCESSING', 'PENDING'],
    ['COMPLETED', 'APPROVED'],
    ['FAILED', 'REJECTED'],
    ['CANCELED', 'REJECTED'],
  ])('GET /transaction/identifier/{id} answering %s is %s (§4: else REJECTED)', async (status, expected) => {
    withLogin();
    h.fake.expect({
      method: 'GET',
      path: '/transaction/identifier/saque-42',
      headers: BEARER,
      reply: { body: { data: { identifier: 'saque-42', status, amount: '10.50' } } },
    });
    await expect(h.adapter.getWithdraw(h.ctx, 'saque-42')).resolves.toEqual({ withdrawId: 'saque-42', amount: 1050, status: expected });
  });

  it("a refused payout, or a refused login, is 'Failed to process the withdraw request.' (§8), its code the exchange's", async () => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/transaction/pix-out', reply: { status: 422, body: { message: 'Saldo insuficiente' } } });
    expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({ code: 'INVALID_ARGUMENT', message: FIXED });
    const other = { ...h.ctx, accountId: 'acc-other' };
    h.fake.expect({ ...AUTH, reply: { status: 401, body: { message: 'Invalid public key' } } });
    expect(await failure(h.adapter.withdraw(other, WITHDRAWAL))).toEqual({ code: 'FAILED_PRECONDITION', message: FIXED });
    h.fake.expect({ ...AUTH, reply: { status: 503, body: { message: 'Manutenção' } } });
    expect(await failure(h.adapter.getWithdraw(other, 'saque-42'))).toEqual({ code: 'UNAVAILABLE', message: failureMessage.GET_WITHDRAW('Manutenção') });
  });

  it('refuses before sending: a payout not by PIX, without a key or without its type', async () => {
    await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, paymentMethod: 'BANK_ACCOUNT' })).rejects.toMatchObject(CATALOGUE.WITHDRAW_METHOD_NAO_IMPLEMENTADO);
    await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixKey: ' ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixType: undefined })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(0);
  });

  it.each(GARBAGE_2XX_BODIES)('a 2xx answered with %s is UNAVAILABLE, never a status', async (_label, body) => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/transaction/pix-out', reply: { status: 200, body } });
    expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({ code: 'UNAVAILABLE', message: FIXED });
    h.fake.expect({ method: 'GET', path: '/transaction/identifier/saque-42', reply: { status: 200, body } });
    const { code, message } = await failure(h.adapter.getWithdraw(h.ctx, 'saque-42'));
    expect([code, message.startsWith(failureMessage.GET_WITHDRAW(''))]).toEqual(['UNAVAILABLE', true]);
  });

  it.each([
    ['a numeric status', { identifier: 'saque-42', status: 3, amount: 10.5 }, 'status: esperado string'],
    ['an object identifier', { identifier: { id: 1 }, status: 'CREATED', amount: 10.5 }, 'identifier'],
    ['a text amount that is no number', { data: { identifier: 'saque-42', status: 'CREATED', amount: 'dez' } }, 'amount'],
    ['a wrapper without a status', { data: { identifier: 'saque-42', amount: 10.5 } }, 'status'],
  ])("a payout answered with %s is the kit's bad answer (UNAVAILABLE, the withdraw text), never a status", async (_label, body, field) => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/transaction/pix-out', reply: { status: 201, body } });
    expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({ code: 'UNAVAILABLE', message: FIXED });
    h.fake.expect({ method: 'GET', path: '/transaction/identifier/saque-42', reply: { status: 200, body } });
    const read = await failure(h.adapter.getWithdraw(h.ctx, 'saque-42'));
    expect(read.code).toBe('UNAVAILABLE');
    expect(read.message).toContain(field);
  });
});
