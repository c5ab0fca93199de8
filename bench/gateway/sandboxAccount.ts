/** A SANDBOX provider account on a gateway under measurement, and charges through it (the built-in PSP's path). */
import { randomUUID } from 'node:crypto';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import type { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from '../../tests/support/clients.js';

/** Creates the account; the function it resolves to makes one charge of R$ 19.90 through it, each with a new idempotency key. */
export async function sandboxCharger(driver: Driver, prefix: string): Promise<(method: PaymentMethod, omitPixQrImage?: boolean) => Promise<unknown>> {
  const { providerAccount } = await driver.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'bench', publicKey: 'pk_bench', secretKey: 'sk_bench' }),
  );
  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  return (method, omitPixQrImage = false) =>
    driver.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: providerAccount.id,
        idempotencyKey: `${prefix}-${run}-${sequence++}`,
        omitPixQrImage,
        transaction: { amount: 1990, paymentMethod: method, customer: { name: 'Maria Silva', email: 'maria@example.com', document: '52998224725' } },
      }),
    );
}
