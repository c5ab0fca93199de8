import { randomBytes } from 'node:crypto';
import { expect } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from './clients.js';
import type { ExpectationHandle, FakeProvider } from './fakeProvider.js';

/** A SANDBOX charge as the fake PSP answers it, pending PIX. */
export const sandboxCharge = (id: string, status: string, amount: number) => ({
  id,
  amount,
  method: 'pix',
  status,
  installments: 1,
  createdAt: '2027-01-15T08:00:00Z',
  refundedAmount: 0,
  pix: { copyPaste: '000201', qrCodeDataUrl: 'data:,', expiresAt: '2099-01-01T00:00:00Z' },
});

/** Every charge of every SANDBOX account pointed at `fake` is answered pending, R$ 15; the calls record the credentials sent. */
export const answerEveryCharge = (fake: FakeProvider): ExpectationHandle =>
  fake.expect({
    method: 'POST',
    path: '/v1/charges',
    times: Infinity,
    reply: () => ({ status: 201, body: sandboxCharge(`ch_${randomBytes(6).toString('hex')}`, 'pending', 1500) }),
  });

/** A SANDBOX account of `fake`'s, created through `client`: its id. */
export const newSandboxAccount = async (client: Driver, fake: FakeProvider, name: string, secretKey: string) =>
  (await client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey, baseUrl: fake.url })).providerAccount
    .id as string;

/** Charges through `client`; the secret the provider was sent. */
export async function chargeSecret(client: Driver, charges: ExpectationHandle, providerAccountId: string): Promise<string> {
  const before = charges.calls.length;
  await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId, transaction: { amount: 1500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );
  expect(charges.calls.length).toBe(before + 1);
  return charges.calls.at(-1)!.headers.authorization!.replace(/^Bearer /, '');
}
