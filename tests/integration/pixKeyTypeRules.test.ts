import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { failureOf } from '../support/clients.js';
import { partial, startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * A PIX payout without a key type follows the provider's rule where the spec
 * has one, and is refused elsewhere before anything is sent (doc 3 §5:
 * "PaySharkGateway uses lowercase and defaults to evp").
 */

let stack: TestStack;
let fake: FakeProvider;

beforeAll(async () => {
  stack = await startTestStack();
  fake = await startFakeProvider();
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

async function account(provider: string, secretKey: string): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider,
    name: `${provider} key types`,
    publicKey: 'pk_key_types',
    secretKey,
    baseUrl: fake.url,
  });
  return providerAccount.id;
}

const untypedPayout = (providerAccountId: string, idempotencyKey: string) =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId,
      idempotencyKey,
      withdraw: { amount: 2500, paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, pixKey: '123e4567-e12b-12d1-a456-426655440000' },
    }),
  );

describe('a PIX payout without a key type', () => {
  it("is sent as evp at PAYSHARKGATEWAY, the spec's default there", async () => {
    const id = await account('PAYSHARKGATEWAY', 'sk_shark|wk_shark');
    fake.expect({
      method: 'POST',
      path: '/v1/transfers',
      headers: { 'x-withdraw-key': 'wk_shark' },
      body: partial({ amount: 2500, pixKey: '123e4567-e12b-12d1-a456-426655440000', pixKeyType: 'evp' }),
      reply: { body: { id: 'tr_evp', status: 'pending', amount: 2500 } },
    });
    const { withdrawal } = await untypedPayout(id, 'untyped-shark');
    expect(withdrawal).toMatchObject({ withdrawId: 'tr_evp', status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    fake.assertAllDone();
  });

  it('is refused elsewhere (PODPAY2, of the same platform, has no such rule), before anything is sent', async () => {
    const id = await account('PODPAY2', 'sk_podpay|wk_podpay');
    const before = fake.received.length;
    expect(await failureOf(untypedPayout(id, 'untyped-podpay2'))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'withdraw.pix_type is required for PIX withdrawals',
    });
    expect(fake.received).toHaveLength(before);
  });
});
