import { randomBytes } from 'node:crypto';
import { expect } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, type TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from './clients.js';
import { eventually } from './eventually.js';
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

/** A SANDBOX account on the gateway's own fake PSP, created through `client`: its id. */
export const builtInSandboxAccount = async (client: Driver, name: string, secretKey: string) =>
  (await client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey })).providerAccount.id as string;

/** A PIX charge of `amount` cents through `client`: the transaction answered. */
export const pixCharge = async (client: Driver, providerAccountId: string, amount: number) =>
  (
    await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId, transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    )
  ).transaction;

/** The charge `id` once the gateway holds it in `status` (15 s at most). */
export const transactionReaching = (client: Driver, id: string, status: TransactionStatus, what: string) =>
  eventually(
    async () => {
      const { transaction } = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
      return transaction.status === status && transaction;
    },
    15_000,
    what,
  );
