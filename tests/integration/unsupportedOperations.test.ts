import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { failureOf } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The gateway refuses an operation the account's provider does not offer before
 * anything is sent or stored, with the provider's own text where the spec gives
 * one (doc 3 §8: Payber's 'Withdraw method not implemented'), else the spec's
 * 'Method not implemented.'.
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

async function payoutOn(provider: string) {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider,
    name: provider,
    publicKey: '',
    secretKey: `sk_${provider.toLowerCase()}`,
    baseUrl: fake.url,
  });
  const request = WithdrawRequest.fromPartial({
    providerAccountId: providerAccount.id,
    withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
  });
  return failureOf(stack.client.call('gateway', 'withdraw', request));
}

describe('an operation the provider does not offer', () => {
  it.each([
    ['PAYBER', 'Withdraw method not implemented'],
    ['XITBANK', 'Method not implemented.'],
  ])('%s: a payout is UNIMPLEMENTED %j, and the provider is never called', async (provider, message) => {
    expect(await payoutOn(provider)).toEqual({ code: 'UNIMPLEMENTED', message });
    expect(fake.received).toHaveLength(0);
  });
});
