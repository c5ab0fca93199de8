import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CalculateInstallmentsRequest,
  CreateCardIdRequest,
  CreateCardTokenRequest,
  CreateTransactionRequest,
  GetTransactionRequest,
  WatchEventsRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { closedPort } from '../support/closedPort.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { startOtlpReceiver, type ReceivedSpan } from '../support/otlpReceiver.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

const CARD_NUMBER = '4111111111111111';
const HOLDER_DOCUMENT = '12345678909';
const PUBLIC_KEY = 'pk-tracing-7f3a9c';
const SECRET_KEY = 'sk-tracing-secret-5b1e8d';

/** A caller's W3C trace context: its trace id and the id of the caller's own span. */
const callerTrace = () => {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let traced: TestStack;
let untraced: TestStack | undefined;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  traced = await startTestStack({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gateway-under-test', OTEL_BSP_SCHEDULE_DELAY: '50' },
  });
});

afterAll(async () => {
  await traced?.close();
  await untraced?.close();
  await receiver?.close();
});

const sandboxAccount = async (driver: Driver, settings: { name: string; baseUrl?: string }): Promise<string> =>
  (await driver.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', publicKey: PUBLIC_KEY, secretKey: SECRET_KEY, ...settings })).providerAccount
    .id;

const pix = (providerAccountId: string) =>
  CreateTransactionRequest.fromPartial({
    providerAccountId,
    idempotencyKey: randomUUID(),
    transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
  });

const cardToken = (driver: Driver, providerAccountId: string) =>
  driver.call(
    'gateway',
    'createCardToken',
    CreateCardTokenRequest.fromPartial({
      providerAccountId,
      card: { cardNumber: CARD_NUMBER, holderName: 'Ana Souza', holderDocument: HOLDER_DOCUMENT, expMonth: '12', expYear: '30', cvv: '123' },
    }),
  );

/** The spans of one trace, once `ready` holds for them (the exporter sends in batches). */
const traceOf = (traceId: string, ready: (spans: ReceivedSpan[]) => boolean) =>
  eventually(async () => {
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    return ready(spans) && spans;
  });

const named = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0]!;
};

describe('with an OTLP endpoint configured', () => {
  it('traces a gRPC call in the caller trace, with its provider call and that call HTTP exchange as children', async () => {
    const accountId = await sandboxAccount(traced.client, { name: 'traced-grpc' });
    const caller = callerTrace();
    const grpc = grpcDriver(traced.gateway.grpcAddress!, TEST_TOKEN, { traceparent: caller.traceparent });
    try {
      await cardToken(grpc, accountId);
    } finally {
      grpc.close();
    }

    const spans = await traceOf(caller.traceId, (found) => found.length >= 3);
    const rpc = named(spans, 'gateway.v1.PaymentGatewayService/CreateCardToken');
    expect(rpc).toMatchObject({
      kind: SERVER,
      parentSpanId: caller.spanId,
      statusCode: 0,
      service: 'gateway-under-test',
      attributes: {
        'rpc.system': 'grpc',
        'rpc.service': 'gateway.v1.PaymentGatewayService',
        'rpc.method': 'CreateCardToken',
        'rpc.grpc.status_code': 0,
      },
    });
    const providerCall = named(spans, 'SANDBOX createCardToken');
    expect(providerCall).toMatchObject({
      kind: CLIENT,
      parentSpanId: rpc.spanId,
      statusCode: 0,
      attributes: { 'gateway.provider': 'SANDBOX', 'gateway.provider.operation': 'createCardToken', 'gateway.provider.outcome': 'ok' },
    });
    const sandbox = new URL(traced.gateway.sandboxUrl!);
    expect(named(spans, 'POST /v1/card-tokens')).toMatchObject({
      kind: CLIENT,
      parentSpanId: providerCall.spanId,
      attributes: {
        'gateway.provider': 'SANDBOX',
        'http.request.method': 'POST',
        'server.address': sandbox.hostname,
        'server.port': Number(sandbox.port),
        'url.template': '/v1/card-tokens',
        'http.response.status_code': expect.any(Number),
      },
    });
  });

  it('traces Connect calls the same way: in the caller trace when it sends one, else in a trace of their own', async () => {
    const accountId = await sandboxAccount(traced.client, { name: 'traced-connect' });
    const { cardToken: token } = await cardToken(traced.client, accountId);
    const caller = callerTrace();
    const connect = connectDriver(traced.gateway.httpUrl!, TEST_TOKEN, { traceparent: caller.traceparent });
    const plainConnect = connectDriver(traced.gateway.httpUrl!, TEST_TOKEN);
    try {
      await connect.call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId: accountId, cardToken: token }));
      await plainConnect.call('gateway', 'createTransaction', pix(accountId));
    } finally {
      connect.close();
      plainConnect.close();
    }

    const spans = await traceOf(caller.traceId, (found) => found.length >= 3);
    const rpc = named(spans, 'gateway.v1.PaymentGatewayService/CreateCardId');
    expect(rpc).toMatchObject({
      kind: SERVER,
      parentSpanId: caller.spanId,
      attributes: { 'rpc.system': 'connect_rpc', 'rpc.service': 'gateway.v1.PaymentGatewayService', 'rpc.method': 'CreateCardId', 'rpc.grpc.status_code': 0 },
    });
    const providerCall = named(spans, 'SANDBOX createCardId');
    expect(providerCall).toMatchObject({ kind: CLIENT, parentSpanId: rpc.spanId, attributes: { 'gateway.provider.outcome': 'ok' } });
    expect(named(spans, 'POST /v1/cards')).toMatchObject({ parentSpanId: providerCall.spanId });

    // Without a traceparent the call starts a trace; its provider call is still its child.
    const created = await eventually(async () =>
      receiver.spans.find((span) => span.name === 'gateway.v1.PaymentGatewayService/CreateTransaction' && span.attributes['rpc.system'] === 'connect_rpc'),
    );
    expect(created.parentSpanId).toBeUndefined();
    const charge = await traceOf(created.traceId, (found) => found.some((span) => span.name === 'POST /v1/charges'));
    expect(named(charge, 'SANDBOX createTransaction')).toMatchObject({ parentSpanId: created.spanId });
  });

  it('marks a provider outage as an error on the RPC and the provider call, and a caller mistake only by its code', async () => {
    const downId = await sandboxAccount(traced.client, { name: 'traced-down', baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const down = callerTrace();
    const missing = callerTrace();
    const grpcDown = grpcDriver(traced.gateway.grpcAddress!, TEST_TOKEN, { traceparent: down.traceparent });
    const grpcMissing = grpcDriver(traced.gateway.grpcAddress!, TEST_TOKEN, { traceparent: missing.traceparent });
    try {
      expect(await failureOf(grpcDown.call('gateway', 'createTransaction', pix(downId)))).toMatchObject({ code: 'UNAVAILABLE' });
      expect(await failureOf(grpcMissing.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: randomUUID() })))).toMatchObject({
        code: 'NOT_FOUND',
      });
    } finally {
      grpcDown.close();
      grpcMissing.close();
    }

    const failed = await traceOf(down.traceId, (found) => found.length >= 3);
    expect(named(failed, 'gateway.v1.PaymentGatewayService/CreateTransaction')).toMatchObject({
      statusCode: ERROR,
      attributes: { 'rpc.grpc.status_code': 14 },
    });
    expect(named(failed, 'SANDBOX createTransaction')).toMatchObject({ statusCode: ERROR, attributes: { 'gateway.provider.outcome': 'unavailable' } });
    expect(named(failed, 'POST /v1/charges')).toMatchObject({ statusCode: ERROR, attributes: { 'error.type': 'ECONNREFUSED' } });

    const [notFound] = await traceOf(missing.traceId, (found) => found.length >= 1);
    expect(notFound).toMatchObject({ name: 'gateway.v1.PaymentGatewayService/GetTransaction', statusCode: 0, attributes: { 'rpc.grpc.status_code': 5 } });
  });

  it('traces calls refused for their credential, and a WatchEvents stream until the caller leaves', async () => {
    const refused = callerTrace();
    const watching = callerTrace();
    const connect = connectDriver(traced.gateway.httpUrl!, TEST_TOKEN, { traceparent: refused.traceparent });
    const grpc = grpcDriver(traced.gateway.grpcAddress!, TEST_TOKEN, { traceparent: watching.traceparent });
    try {
      expect(await failureOf(connect.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: randomUUID() }), 'not-a-token'))).toMatchObject({
        code: 'UNAUTHENTICATED',
      });
      await traced.client.call('gateway', 'createTransaction', pix(await sandboxAccount(traced.client, { name: 'traced-watch' })));
      const watch = grpc.watch(WatchEventsRequest.fromPartial({ afterEventId: '0' }));
      await watch.next();
      watch.close();
    } finally {
      connect.close();
      grpc.close();
    }

    const [unauthenticated] = await traceOf(refused.traceId, (found) => found.length >= 1);
    expect(unauthenticated).toMatchObject({
      name: 'gateway.v1.PaymentGatewayService/GetTransaction',
      kind: SERVER,
      parentSpanId: refused.spanId,
      attributes: { 'rpc.system': 'connect_rpc', 'rpc.grpc.status_code': 16 },
    });
    const [stream] = await traceOf(watching.traceId, (found) => found.length >= 1);
    expect(stream).toMatchObject({
      name: 'gateway.v1.PaymentGatewayService/WatchEvents',
      parentSpanId: watching.spanId,
      statusCode: 0,
      attributes: { 'rpc.system': 'grpc', 'rpc.grpc.status_code': 1 },
    });
  });

  it('traces a background worker provider call as a root span, with ids in the path left out', async () => {
    const accountId = await sandboxAccount(traced.client, { name: 'traced-worker' });
    const { transaction } = await traced.client.call('gateway', 'createTransaction', pix(accountId));
    // The sandbox notifies the sidecar; the account has no webhook secret, so a worker confirms the status with the provider.
    await traced.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
    const confirm = await eventually(async () => receiver.spans.find((span) => span.name === 'SANDBOX getTransaction' && span.parentSpanId === undefined));
    expect(confirm).toMatchObject({ kind: CLIENT, attributes: { 'gateway.provider.outcome': 'ok' } });
    const spans = await traceOf(confirm.traceId, (found) => found.some((span) => span.parentSpanId === confirm.spanId));
    // The sandbox's charge ids (ch_…) are never words.
    expect(spans.find((span) => span.parentSpanId === confirm.spanId)).toMatchObject({
      name: 'GET /v1/charges/{}',
      attributes: { 'http.request.method': 'GET', 'url.template': '/v1/charges/{}', 'http.response.status_code': 200 },
    });
  });
});

describe('what is never exported, and when nothing is', () => {
  it('sends no credentials, card data, documents or query strings', async () => {
    const accountId = await sandboxAccount(traced.client, { name: 'traced-secrets' });
    const caller = callerTrace();
    const grpc = grpcDriver(traced.gateway.grpcAddress!, TEST_TOKEN, { traceparent: caller.traceparent });
    let token: string;
    try {
      // The provider's installments request carries the amount in its query (?amount=10000).
      await grpc.call('gateway', 'calculateInstallments', CalculateInstallmentsRequest.fromPartial({ providerAccountId: accountId, amount: 10000 }));
      ({ cardToken: token } = await cardToken(grpc, accountId));
      await grpc.call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId: accountId, cardToken: token }));
    } finally {
      grpc.close();
    }
    await traceOf(caller.traceId, (found) =>
      ['GET /v1/installments', 'POST /v1/card-tokens', 'POST /v1/cards'].every((name) => found.some((span) => span.name === name)),
    );

    const exported = receiver.bodies.join('\n');
    expect(exported.length).toBeGreaterThan(0);
    for (const secret of [TEST_TOKEN, PUBLIC_KEY, SECRET_KEY, CARD_NUMBER, HOLDER_DOCUMENT, token, 'Bearer', 'authorization', 'amount=10000'])
      expect(exported).not.toContain(secret);
  });

  it('a gateway without an OTLP endpoint exports nothing, even beside a traced one in the same process', async () => {
    untraced = await startTestStack();
    const accountId = await sandboxAccount(untraced.client, { name: 'untraced' });
    const caller = callerTrace();
    const grpc = grpcDriver(untraced.gateway.grpcAddress!, TEST_TOKEN, { traceparent: caller.traceparent });
    const connect = connectDriver(untraced.gateway.httpUrl!, TEST_TOKEN, { traceparent: caller.traceparent });
    try {
      await grpc.call('gateway', 'createTransaction', pix(accountId));
      await connect.call('gateway', 'createTransaction', pix(accountId));
    } finally {
      grpc.close();
      connect.close();
    }
    // A call on the traced gateway afterwards: spans are exported in the order they end, so once its spans
    // have arrived, any span of the calls above that reached the traced gateway's exporter has too.
    const marker = callerTrace();
    const tracedGrpc = grpcDriver(traced.gateway.grpcAddress!, TEST_TOKEN, { traceparent: marker.traceparent });
    try {
      await tracedGrpc.call('gateway', 'createTransaction', pix(await sandboxAccount(traced.client, { name: 'marker' })));
    } finally {
      tracedGrpc.close();
    }
    await traceOf(marker.traceId, (found) => found.some((span) => span.name === 'POST /v1/charges'));
    expect(receiver.spans.filter((span) => span.traceId === caller.traceId)).toEqual([]);
    expect(receiver.spans.filter((span) => span.service !== 'gateway-under-test')).toEqual([]);
  });
});
