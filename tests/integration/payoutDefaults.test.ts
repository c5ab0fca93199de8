import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PixKeyType, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { failureOf } from '../support/clients.js';
import { partial, startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * What the gateway fills in, or refuses, for a payout the caller left something out of: the
 * provider's rules and texts of the specification, not the gateway's generic ones.
 * - doc 1 §9 / doc 3 §9: "Default withdraw description: 'Saque solicitado' or 'Saque de R$ {amount}'", per provider;
 * - doc 3 §5: "Veltrax infers: contains @ EMAIL; 11 digits CPF; 14 digits CNPJ; 10 to 11 digits PHONE; else RANDOM";
 * - doc 3 §8: "Veltrax suporta apenas saques via PIX".
 */

let stack: TestStack;
let fake: FakeProvider;
let veltrax: string;
let gatyway: string;
let fastsoft: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  fake = await startFakeProvider();
  const account = async (provider: string, publicKey: string, secretKey: string) =>
    (await stack.client.call('accounts', 'createProviderAccount', { provider, name: provider, publicKey, secretKey, baseUrl: fake.url })).providerAccount.id;
  veltrax = await account('VELTRAX', 'vx-client', 'vx-secret');
  gatyway = await account('GATYWAY', '', 'gw-secret');
  fastsoft = await account('FASTSOFT', '', 'fs-secret');
});
afterAll(async () => {
  await fake?.close();
  await stack?.close();
});
beforeEach(() => fake.reset());

const withdraw = (providerAccountId: string, withdraw: Record<string, unknown>) =>
  stack.client.call('gateway', 'withdraw', WithdrawRequest.fromPartial({ providerAccountId, withdraw: { amount: 2500, ...withdraw } }));

/** The account's token is kept across payouts: the login is answered whenever it comes. */
const veltraxLogin = () =>
  fake.expect({
    method: 'POST',
    path: '/api/auth/login',
    body: { client_id: 'vx-client', client_secret: 'vx-secret' },
    times: Infinity,
    reply: { body: { token: 'vx-jwt' } },
  });
const veltraxPayout = (body: Record<string, unknown>) =>
  fake.expect({
    method: 'POST',
    path: '/api/withdrawals/withdraw',
    headers: { authorization: 'Bearer vx-jwt' },
    body: partial(body),
    reply: { status: 201, body: { transactionId: 'wd-1', withdrawal: { transaction_id: 'wd-1', status: 'PENDING', amount: 25, fee: 0, total: 25 } } },
  });

it.each([
  ['123.456.789-09', '12345678909', 'CPF'],
  ['seller@example.com', 'seller@example.com', 'EMAIL'],
  ['12.345.678/0001-99', '12345678000199', 'CNPJ'],
  ['c873834c-ed18-4e63-8e5d-90190392b744', 'c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM'],
])('VELTRAX: a PIX payout to %s without a key type is sent with the type inferred (%s as %s) and "Saque solicitado"', async (key, sent, type) => {
  veltraxLogin();
  const payout = veltraxPayout({ amount: 25, pix_key: sent, key_type: type, description: 'Saque solicitado' });
  const { withdrawal } = await withdraw(veltrax, { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, pixKey: key });
  expect([withdrawal.withdrawId, withdrawal.status]).toEqual(['wd-1', WithdrawStatus.WITHDRAW_STATUS_PENDING]);
  expect(payout.done).toBe(true);
  fake.assertAllDone();
});

it("VELTRAX: the caller's key type and description are sent as given", async () => {
  veltraxLogin();
  const payout = veltraxPayout({ pix_key: '11987654321', key_type: 'PHONE', description: 'Repasse de março' });
  await withdraw(veltrax, {
    paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX,
    pixKey: '(11) 98765-4321',
    pixType: PixKeyType.PIX_KEY_TYPE_PHONE,
    description: 'Repasse de março',
  });
  expect(payout.done).toBe(true);
});

it("VELTRAX: a payout by another method is refused with Veltrax's own text, nothing sent", async () => {
  for (const paymentMethod of [WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT, WithdrawMethod.WITHDRAW_METHOD_RECEIVER])
    expect(await failureOf(withdraw(veltrax, { paymentMethod, receiverId: 'rcv_1' }))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Veltrax suporta apenas saques via PIX',
    });
  expect(fake.received).toHaveLength(0);
});

it('a provider without such a rule refuses a PIX payout without a key type, and the generic method text stays the common one', async () => {
  expect(await failureOf(withdraw(gatyway, { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, pixKey: 'seller@example.com' }))).toEqual({
    code: 'INVALID_ARGUMENT',
    message: 'withdraw.pix_type is required for PIX withdrawals',
  });
  expect(await failureOf(withdraw(gatyway, { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT }))).toEqual({
    code: 'UNIMPLEMENTED',
    message: 'Método de saque não implementado',
  });
  expect(fake.received).toHaveLength(0);
});

it("GATYWAY (no wording of its own): the common 'Saque de R$ {amount}' when the caller gives no description", async () => {
  const payout = fake.expect({
    method: 'POST',
    path: '/transfers',
    body: partial({ pixKey: 'seller@example.com', pixKeyType: 'email', description: 'Saque de R$ 25,00' }),
    reply: { body: { id: 'tr_1', status: 'pending', amount: 2500 } },
  });
  await withdraw(gatyway, { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL });
  expect(payout.done).toBe(true);
});

it("FASTSOFT (its payout body words it 'Saque solicitado'): that default reaches the provider, not the gateway's", async () => {
  const payout = fake.expect({
    method: 'POST',
    path: '/user/cashout',
    body: partial({ pixKey: 'seller@example.com', pixType: 'EMAIL', description: 'Saque solicitado' }),
    reply: { body: { data: { id: 'co_1', amount: 2500, status: 'PENDING' }, status: 200, message: 'ok' } },
  });
  await withdraw(fastsoft, { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL });
  expect(payout.done).toBe(true);
});
