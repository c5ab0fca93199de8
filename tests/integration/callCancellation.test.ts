import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
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

/** The idempotency key's state as stored. */
async function keyState(key: string): Promise<{ state: string; failure: string | null } | undefined> {
  const client = new pg.Client({ connectionString: stack.database.url });
  await client.connect();
  try {
    return (await client.query<{ state: string; failure: string | null }>('select state, failure from idempotency_keys where key = $1', [key])).rows[0];
  } finally {
    await client.end();
  }
}

/** The gateway's statements waiting for a lock `holder` holds. */
async function claimsWaitingOnLock(holder: pg.Client): Promise<number> {
  const client = new pg.Client({ connectionString: stack.database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and $1 = any(pg_blocking_pids(pid))`,
      [(holder as unknown as { processID: number }).processID],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

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

it('a charge whose caller’s deadline passes while it waits for its idempotency key is not sent to the provider, and the key is free for the retry', async () => {
  // Another transaction holds the key's row uncommitted: the charge's claim waits on it, as calls wait under load.
  const blocker = new pg.Client({ connectionString: stack.database.url });
  await blocker.connect();
  await blocker.query('begin');
  await blocker.query(
    `insert into idempotency_keys (id, provider_account_id, operation, key, request_hash, state, created_at, updated_at, expires_at)
     values (gen_random_uuid(), $1, 'createTransaction', 'late-caller', 'other', 'IN_PROGRESS', now(), now(), now() + interval '1 day')`,
    [accountId],
  );
  const request = CreateTransactionRequest.fromPartial({
    providerAccountId: accountId,
    idempotencyKey: 'late-caller',
    transaction: {
      amount: 1990,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
      customer: { name: 'Ana', document: '12345678909', email: 'a@example.com' },
    },
  });
  const posts = () => fake.received.filter((received) => received.method === 'POST' && received.path === '/orders').length;
  const postsBefore = posts();
  const client = new PaymentGatewayServiceClient(stack.gateway.grpcAddress!, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${TEST_TOKEN}`);
  // The gateway runs in this process: the server's own abort of the call (its deadline, which starts when the call
  // arrives, later than the client's on a loaded machine) is seen here. Until it comes, the gateway rightly takes the
  // call as wanted: releasing the lock before it let the charge go to the provider in two full runs at load.
  let aborts = 0;
  const abort = AbortController.prototype.abort;
  AbortController.prototype.abort = function counted(this: AbortController, reason?: unknown) {
    aborts += 1;
    return abort.call(this, reason);
  };
  try {
    const failed = new Promise<grpc.ServiceError>((resolve, reject) =>
      client.createTransaction(request, metadata, { deadline: Date.now() + 5_000 }, (error) =>
        error ? resolve(error) : reject(new Error('the call succeeded')),
      ),
    );
    // The claim is waiting on the key's row before the deadline passes (on a loaded machine a short deadline could
    // pass before the call reached the gateway, which then never runs it: 5 s, since at a load average of 14 the
    // 2 s it had were not always enough).
    await eventually(async () => (await claimsWaitingOnLock(blocker)) > 0, 4_800);
    expect((await failed).code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await eventually(async () => aborts > 0, 30_000, "the server's deadline for the call");
  } finally {
    AbortController.prototype.abort = abort;
    client.close();
    // The claim goes on once the other transaction is gone: it owns the key, then finds its caller gone.
    await blocker.query('rollback');
    await blocker.end();
  }
  // However long a loaded machine takes to run the claim once the lock is gone (5 s were not always enough).
  let seen: { state: string; failure: string | null } | undefined;
  await eventually(async () => (seen = await keyState('late-caller'))?.state === 'FAILED', 30_000, `the key FAILED (last seen: ${JSON.stringify(seen)})`).catch(
    () => {
      throw new Error(`the key did not become FAILED; last seen: ${JSON.stringify(seen)}`);
    },
  );
  expect((await keyState('late-caller'))?.failure).toMatch(/^the caller cancelled, or its deadline passed, before the createTransaction call to the provider/);
  expect(posts()).toBe(postsBefore);
  // The same request again reaches the provider once and succeeds.
  fake.expect({ method: 'POST', path: '/orders', reply: { body: order('or_late', 'pending') } });
  const { transaction } = await stack.client.call('gateway', 'createTransaction', request);
  expect(transaction.transactionId).toBe('or_late');
  expect(posts()).toBe(postsBefore + 1);
});

it('a call that ended is not cancelled afterwards: grpc-js reports every stream’s close as a cancellation, and costs no abort', async () => {
  const id = await pendingCharge('ended-calls');
  let aborts = 0;
  const abort = AbortController.prototype.abort;
  AbortController.prototype.abort = function counted(this: AbortController, reason?: unknown) {
    // Only the calls' own controllers, which the gRPC server aborts. Other code shares this process: the gateway's
    // workers abort their sleep when stored work wakes them. A CI run on a loaded machine counted 4 aborts in this
    // window when every abort counted; which code made them was not recorded.
    if (/transport[\\/]grpc[\\/]server\./.test(new Error().stack ?? '')) aborts += 1;
    return abort.call(this, reason);
  };
  try {
    for (let i = 0; i < 10; i += 1) await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
    // The stream's close comes after the answer.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    AbortController.prototype.abort = abort;
  }
  expect(aborts).toBe(0);
});
