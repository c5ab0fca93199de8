import { afterAll, beforeAll, expect, it } from '@jest/globals';
import * as grpc from '@grpc/grpc-js';
import { createClient, ConnectError } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { CreateTransactionRequest, GetTransactionRequest, PaymentGatewayServiceClient } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue "Fast and observable", overload: a caller's deadline or cancellation
 * reaches the provider call. A read nobody waits for any more is stopped (the
 * provider sees the connection closed), it does not count against the
 * account's circuit, and nothing moves.
 */
const PIX = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';
let stack: TestStack;
let fake: FakeProvider;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { RECONCILE_AFTER_MS: '3600000' } });
  fake = await startFakeProvider();
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'PAGARMEBAAS',
    name: 'slow reads',
    publicKey: 'pk',
    secretKey: 'sk_slow',
    baseUrl: fake.url,
  }));
});
afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

const order = (id: string, status: string) => ({
  id,
  status,
  amount: 1990,
  charges: [{ id: `ch_${id}`, status, amount: 1990, payment_method: 'pix', last_transaction: { id: `tr_${id}`, status: 'waiting_payment', qr_code: PIX } }],
});

async function pendingCharge(orderId: string): Promise<string> {
  fake.expect({ method: 'POST', path: '/orders', reply: { body: order(orderId, 'pending') } });
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: {
        amount: 1990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana', document: '12345678909', email: 'a@example.com' },
      },
    }),
  );
  return transaction.id;
}

it('a gRPC deadline stops the refresh read at the provider, and nothing moves', async () => {
  const id = await pendingCharge('or_deadline');
  fake.expect({ method: 'GET', path: '/orders/or_deadline', reply: { body: order('or_deadline', 'paid'), delayMs: 5_000 } });
  const client = new PaymentGatewayServiceClient(stack.gateway.grpcAddress!, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${TEST_TOKEN}`);
  const failure = await new Promise<grpc.ServiceError>((resolve, reject) =>
    client.getTransaction(GetTransactionRequest.fromPartial({ id, refresh: true }), metadata, { deadline: Date.now() + 500 }, (error) =>
      error ? resolve(error) : reject(new Error('the call succeeded')),
    ),
  );
  client.close();
  expect(failure.code).toBe(grpc.status.DEADLINE_EXCEEDED);
  // Long before the provider's 5-second answer, the gateway has closed the connection.
  await eventually(async () => fake.abandoned.some((request) => request.path === '/orders/or_deadline'), 3_000);
  const { transaction } = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
});

it('a Connect caller that gives up stops the read too', async () => {
  const id = await pendingCharge('or_cancel');
  fake.expect({ method: 'GET', path: '/orders/or_cancel', reply: { body: order('or_cancel', 'paid'), delayMs: 5_000 } });
  const transport = createConnectTransport({
    baseUrl: stack.gateway.httpUrl!,
    httpVersion: '1.1',
    interceptors: [(next) => (request) => (request.header.set('authorization', `Bearer ${TEST_TOKEN}`), next(request))],
  });
  const abort = new AbortController();
  const call = createClient(PaymentGatewayService, transport).getTransaction({ id, refresh: true }, { signal: abort.signal });
  await eventually(async () => fake.received.some((request) => request.path === '/orders/or_cancel'), 3_000);
  abort.abort();
  await expect(call).rejects.toBeInstanceOf(ConnectError);
  await eventually(async () => fake.abandoned.some((request) => request.path === '/orders/or_cancel'), 3_000);
});
