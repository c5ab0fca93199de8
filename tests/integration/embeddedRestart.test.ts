import { afterAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver } from '../support/clients.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';

let dataDir: string | undefined;
afterAll(() => {
  if (dataDir) removeDir(dataDir);
});

it('on embedded defaults, has a SANDBOX account from the first start and keeps transactions across a restart', async () => {
  const first = await startTestGateway();
  dataDir = first.dataDir;
  expect(first.db!.embedded).toBe(true);
  const accountId = first.sandboxAccountId!;
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);
  let client = grpcDriver(first.grpcAddress!, TEST_TOKEN);
  const { transaction } = await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount: 4200, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );
  client.close();
  await first.close();

  const second = await startTestGateway({ dataDir });
  try {
    expect(second.sandboxAccountId).toBe(accountId);
    client = grpcDriver(second.grpcAddress!, TEST_TOKEN);
    const read = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
    expect(read.transaction).toMatchObject({
      id: transaction.id,
      amount: 4200,
      status: TransactionStatus.TRANSACTION_STATUS_PENDING,
      pixCode: transaction.pixCode,
    });
    client.close();
  } finally {
    await second.close();
  }
}, 120_000);
