import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, ListProvidersRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { saturateWhile } from '../support/eventLoop.js';
import { MIN_CALLS_UNDER_PRESSURE } from '../../server/transport/loopPressure.js';

/** A unary call of `path` whose request is `bytes` as they are, with the test token: what no generated client sends. */
function rawUnary(address: string, path: string, bytes: Buffer): Promise<Buffer> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${TEST_TOKEN}`);
  return new Promise<Buffer>((resolve, reject) =>
    client.makeUnaryRequest(
      path,
      (request: Buffer) => request,
      (response: Buffer) => response,
      bytes,
      metadata,
      (error, response) => (error ? reject(error) : resolve(response!)),
    ),
  ).finally(() => client.close());
}

/**
 * MAX_IN_FLIGHT (issue "Fast and observable", overload): past the cap of unary
 * calls being answered at once, a call is refused at once with
 * RESOURCE_EXHAUSTED and a retry delay instead of queueing behind the others,
 * over gRPC and Connect alike; the place is given back when a call ends.
 * SHED_EVENT_LOOP_DELAY_MS: while the event loop stays behind, only a few
 * calls are taken at once and the rest refused the same way; every call is
 * taken again once it has caught up.
 */
// Two gateways, one per rule: on a loaded machine (CI runs suites side by side on two cores) the event loop of the
// gateway that shares the test's process falls behind on its own, so the cap's test must not see the delay rule.
let stack: TestStack;
let connect: Driver;
let lagging: TestStack;
let laggingConnect: Driver;
let accountId: string;
let laggingAccountId: string;
beforeAll(async () => {
  stack = await startTestStack({ env: { MAX_IN_FLIGHT: '1' } });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'overload', publicKey: 'pk', secretKey: 'sk' }));
  lagging = await startTestStack({ env: { SHED_EVENT_LOOP_DELAY_MS: '50' } });
  laggingConnect = connectDriver(lagging.gateway.httpUrl!, TEST_TOKEN);
  ({
    providerAccount: { id: laggingAccountId },
  } = await lagging.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'lagging', publicKey: 'pk', secretKey: 'sk' }));
});
/** A gate the PSP's slow answers wait on: they come once the test opens it (and at the latest when the file ends). */
function gate(): { held: Promise<void>; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  opens.push(open);
  return { held, open };
}
const opens: (() => void)[] = [];
afterAll(async () => {
  for (const open of opens) open();
  connect?.close();
  laggingConnect?.close();
  await stack?.close();
  await lagging?.close();
});

it('refuses calls past the cap while one is in flight, on both transports, and takes them again once it ended', async () => {
  const provider = gate();
  stack.gateway.sandboxPsp!.injectFault({ resource: 'charges', mode: 'slowAnswer', heldUntil: provider.held });
  const slow = stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey: 'overload-slow',
      transaction: { amount: 500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );
  const listProviders = (driver: Driver) => driver.call('gateway', 'listProviders', ListProvidersRequest.fromPartial({}));
  for (const driver of [stack.client, connect]) {
    const refused = await eventually(async () => {
      const failure = await failureOf(listProviders(driver)).catch(() => undefined);
      return failure?.code === 'RESOURCE_EXHAUSTED' ? failure : undefined;
    }, 1_500);
    expect(refused.message).toBe('the gateway is answering 1 calls already; try again shortly');
    expect(await errorDetailsOf(listProviders(driver))).toMatchObject({ reason: 'OVERLOADED', retryDelayMs: 200 });
  }
  // Over gRPC the refusal comes before anything else the call would cost: a caller whose token is wrong, or whose
  // request is not even protobuf, is told the gateway is overloaded, not that it is unauthenticated or invalid.
  const stranger = grpcDriver(stack.gateway.grpcAddress!, 'not-a-token');
  try {
    expect(await failureOf(listProviders(stranger))).toEqual({
      code: 'RESOURCE_EXHAUSTED',
      message: 'the gateway is answering 1 calls already; try again shortly',
    });
  } finally {
    stranger.close();
  }
  expect(await failureOf(rawUnary(stack.gateway.grpcAddress!, '/gateway.v1.PaymentGatewayService/ListProviders', Buffer.from([0xff, 0xff])))).toMatchObject({
    code: 'RESOURCE_EXHAUSTED',
  });
  provider.open();
  expect((await slow).transaction.id).toBeDefined();
  expect((await listProviders(stack.client)).providers.length).toBeGreaterThan(0);
  expect((await listProviders(connect)).providers.length).toBeGreaterThan(0);
  // Once the place is free again, the same two calls get their own answers: UNAUTHENTICATED and INVALID_ARGUMENT.
  const strangerAgain = grpcDriver(stack.gateway.grpcAddress!, 'not-a-token');
  try {
    expect((await failureOf(listProviders(strangerAgain))).code).toBe('UNAUTHENTICATED');
  } finally {
    strangerAgain.close();
  }
  expect(await failureOf(rawUnary(stack.gateway.grpcAddress!, '/gateway.v1.PaymentGatewayService/ListProviders', Buffer.from([0xff, 0xff])))).toMatchObject({
    code: 'INVALID_ARGUMENT',
  });
});

it('takes only a few calls at once while the event loop stays behind (calls over both transports), and every call again once it caught up', async () => {
  const calls = 2 * MIN_CALLS_UNDER_PRESSURE;
  // Every charge taken stays in flight at the provider until every call has been decided, so a place is never given
  // back while the calls arrive (a fixed 4 s, as before, was outlasted on a loaded machine: a fifth call was taken).
  const provider = gate();
  for (let i = 0; i < calls; i += 1) lagging.gateway.sandboxPsp!.injectFault({ resource: 'charges', mode: 'slowAnswer', heldUntil: provider.held });
  const charge = (driver: Driver, i: number) =>
    driver.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: laggingAccountId,
        idempotencyKey: `lagging-${i}`,
        transaction: { amount: 500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
      }),
    );
  // The loop is kept behind (this process is the gateway's) until every call has been decided: refused, or taken
  // and arrived at the provider. What is counted is what the shedder decided, not what a clock allowed: the calls are
  // sent once its limit is down to the minimum, and it cannot rise again while the loop stays behind.
  const pressure = lagging.gateway.pressure!;
  const arrived = () => lagging.gateway.sandboxPsp!.received.get('POST /v1/charges') ?? 0;
  let refusedSoFar = 0;
  let outcomes: Promise<(Awaited<ReturnType<typeof failureOf>> | 'taken')[]> | undefined;
  const decided = () => outcomes !== undefined && refusedSoFar + arrived() === calls;
  const busy = saturateWhile(
    () => !decided(),
    120,
    30_000,
    () => {
      if (outcomes || pressure.currentLimit !== MIN_CALLS_UNDER_PRESSURE) return;
      outcomes = Promise.all(
        Array.from({ length: calls }, (_, i) =>
          failureOf(charge(i % 2 ? laggingConnect : lagging.client, i)).then(
            (failure) => ((refusedSoFar += 1), failure),
            () => 'taken' as const,
          ),
        ),
      );
    },
  );
  await busy;
  expect(decided()).toBe(true);
  expect(arrived()).toBe(MIN_CALLS_UNDER_PRESSURE);
  provider.open();
  const settled = await outcomes!;
  // The limit held the minimum: that many were taken (and answered once the provider did), the rest refused at once.
  expect(settled.filter((outcome) => outcome === 'taken')).toHaveLength(MIN_CALLS_UNDER_PRESSURE);
  const refused = settled.filter((outcome) => outcome !== 'taken');
  expect(refused).toHaveLength(calls - MIN_CALLS_UNDER_PRESSURE);
  for (const failure of refused)
    expect(failure).toEqual({ code: 'RESOURCE_EXHAUSTED', message: 'the gateway is overloaded (its calls are already answered late); try again shortly' });
  const listProviders = (driver: Driver) => driver.call('gateway', 'listProviders', ListProvidersRequest.fromPartial({}));
  for (const driver of [lagging.client, laggingConnect])
    await eventually(async () => (await listProviders(driver).catch(() => undefined))?.providers.length, 3_000);
});
