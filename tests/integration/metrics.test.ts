import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, WatchEventsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { closedPort } from '../support/closedPort.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { samplesOf, scrape, valueOf, type Sample } from '../support/metrics.js';

let stack: TestStack;
let grpc: Driver;
let connect: Driver;
let metricsUrl: string;
let accountId: string;
/** A caller's webhook_url that answers 200. */
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  stack = await startTestStack();
  grpc = stack.client;
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  metricsUrl = stack.gateway.metricsUrl!;
  accountId = await sandboxAccount({ name: 'metrics', webhookSecret: 'whsec-m' });
  receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  connect?.close();
  await stack?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** A SANDBOX provider account; its id. */
const sandboxAccount = async (settings: { name: string; webhookSecret?: string; baseUrl?: string }): Promise<string> =>
  (await grpc.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', publicKey: 'pk', secretKey: 'sk', ...settings })).providerAccount.id;

const RPC = 'gateway_rpc_requests_total';
const method = (name: string) => `gateway.v1.PaymentGatewayService/${name}`;
const pix = (providerAccountId: string, webhookUrl?: string) =>
  CreateTransactionRequest.fromPartial({
    providerAccountId,
    idempotencyKey: randomUUID(),
    transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, webhookUrl },
  });

/** How much each counter went up between two scrapes. */
const delta = (before: Sample[], after: Sample[]) => (name: string, labels: Record<string, string>) =>
  valueOf(after, name, labels) - valueOf(before, name, labels);

it('serves GET /metrics and /healthz on its own port, and nothing else', async () => {
  expect(new URL(metricsUrl).port).not.toBe(new URL(stack.gateway.httpUrl!).port);
  const response = await fetch(`${metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(await (await fetch(`${metricsUrl}/healthz`)).json()).toEqual({ status: 'SERVING' });
  expect((await fetch(`${metricsUrl}/other`)).status).toBe(404);
  expect((await fetch(`${metricsUrl}/metrics`, { method: 'POST' })).status).toBe(405);
});

it('counts RPCs on both transports by method and code, provider calls, notifications and deliveries', async () => {
  const before = await scrape(metricsUrl);

  const { transaction } = await grpc.call('gateway', 'createTransaction', pix(accountId, receiverUrl));
  await connect.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
  for (const driver of [grpc, connect]) {
    expect(await failureOf(driver.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: randomUUID() })))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await failureOf(driver.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }), 'not-a-token'))).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  }
  const { secret: readOnly } = await grpc.call(
    'access',
    'createServiceToken',
    CreateServiceTokenRequest.fromPartial({ name: 'reader', scopes: ['payments:read'], providerAccountIds: [] }),
  );
  expect(await failureOf(connect.call('gateway', 'createTransaction', pix(accountId), readOnly))).toMatchObject({ code: 'PERMISSION_DENIED' });

  await grpc.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  // The sandbox notified the sidecar; a worker applies it, then delivers the change to webhook_url.
  const after = await eventually(async () => {
    const samples = await scrape(metricsUrl);
    return delta(before, samples)('gateway_outbound_deliveries_total', { outcome: 'delivered' }) >= 1 && samples;
  });
  const rose = delta(before, after);

  expect(rose(RPC, { method: method('CreateTransaction'), code: 'OK' })).toBe(1);
  expect(rose(RPC, { method: method('GetTransaction'), code: 'OK' })).toBe(1);
  expect(rose(RPC, { method: method('GetTransaction'), code: 'NOT_FOUND' })).toBe(2);
  expect(rose(RPC, { method: method('GetTransaction'), code: 'UNAUTHENTICATED' })).toBe(2);
  expect(rose(RPC, { method: method('CreateTransaction'), code: 'PERMISSION_DENIED' })).toBe(1);
  expect(rose(RPC, { method: 'gateway.v1.SandboxService/SimulatePayment', code: 'OK' })).toBe(1);
  // Timed: the calls the guard ran (not the ones refused for their credential).
  expect(rose('gateway_rpc_duration_seconds_count', { method: method('GetTransaction') })).toBe(3);
  // By the code they ended with, so that a fast refusal does not hide a slow success.
  expect(rose('gateway_rpc_duration_seconds_count', { method: method('GetTransaction'), code: 'OK' })).toBe(1);
  expect(rose('gateway_rpc_duration_seconds_count', { method: method('GetTransaction'), code: 'NOT_FOUND' })).toBe(2);

  expect(rose('gateway_provider_calls_total', { provider: 'SANDBOX', operation: 'createTransaction', outcome: 'ok' })).toBe(1);
  expect(rose('gateway_provider_calls_total', { provider: 'SANDBOX', operation: 'simulatePayment', outcome: 'ok' })).toBe(1);
  expect(rose('gateway_provider_call_duration_seconds_count', { provider: 'SANDBOX', operation: 'createTransaction' })).toBe(1);

  expect(rose('gateway_webhook_notifications_received_total', { provider: 'SANDBOX' })).toBe(1);
  expect(rose('gateway_webhook_notifications_processed_total', { provider: 'SANDBOX', outcome: 'APPLIED' })).toBe(1);
  expect(rose('gateway_outbound_deliveries_total', { outcome: 'delivered' })).toBe(1);

  expect(samplesOf(after, 'gateway_circuit_state', { provider: 'SANDBOX', provider_account_id: accountId })).toMatchObject([{ value: 0 }]);
  expect(samplesOf(after, 'gateway_webhook_queue_depth').map((sample) => sample.labels.state)).toEqual(['received', 'processing', 'retrying']);
  expect(samplesOf(after, 'gateway_outbound_backlog').map(({ labels, value }) => [labels.state, value])).toEqual([
    ['due', 0],
    ['scheduled', 0],
  ]);
  expect(valueOf(after, 'gateway_db_pool_max_connections', { pool: 'primary' })).toBe(10);
  expect(samplesOf(after, 'gateway_db_pool_connections', { pool: 'primary' }).map((sample) => sample.labels.state)).toEqual(['used', 'idle']);
  expect(samplesOf(after, 'gateway_db_pool_pending_acquires', { pool: 'primary' })).toHaveLength(1);
  // The process's own metrics.
  expect(samplesOf(after, 'process_cpu_user_seconds_total')).toHaveLength(1);
  expect(samplesOf(after, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
});

it('counts a WatchEvents stream when it ends: CANCELLED when the caller closes it', async () => {
  await grpc.call('gateway', 'createTransaction', pix(accountId));
  const before = await scrape(metricsUrl);
  for (const driver of [grpc, connect]) {
    const watch = driver.watch(WatchEventsRequest.fromPartial({ afterEventId: '0' }));
    await watch.next();
    watch.close();
  }
  await eventually(async () => delta(before, await scrape(metricsUrl))(RPC, { method: method('WatchEvents'), code: 'CANCELLED' }) === 2);
  expect(valueOf(await scrape(metricsUrl), 'gateway_rpc_duration_seconds_count', { method: method('WatchEvents') })).toBe(0);
});

it('shows a provider outage: failed calls, then an open circuit that fails fast', async () => {
  const downId = await sandboxAccount({ name: 'down', baseUrl: `http://127.0.0.1:${await closedPort()}` });
  const before = await scrape(metricsUrl);

  // Five refused connections open the account's circuit (the default breaker); the sixth is not sent.
  for (let i = 0; i < 6; i++) expect(await failureOf(grpc.call('gateway', 'createTransaction', pix(downId)))).toMatchObject({ code: 'UNAVAILABLE' });

  const after = await scrape(metricsUrl);
  const rose = delta(before, after);
  expect(rose('gateway_provider_calls_total', { provider: 'SANDBOX', operation: 'createTransaction', outcome: 'unavailable' })).toBe(5);
  expect(rose('gateway_provider_calls_total', { provider: 'SANDBOX', operation: 'createTransaction', outcome: 'circuit_open' })).toBe(1);
  // Timed by outcome, so that fast failures do not pull a provider's latency down.
  expect(rose('gateway_provider_call_duration_seconds_count', { provider: 'SANDBOX', operation: 'createTransaction', outcome: 'unavailable' })).toBe(5);
  expect(rose('gateway_provider_call_duration_seconds_count', { provider: 'SANDBOX', operation: 'createTransaction', outcome: 'ok' })).toBe(0);
  expect(rose(RPC, { method: method('CreateTransaction'), code: 'UNAVAILABLE' })).toBe(6);
  expect(samplesOf(after, 'gateway_circuit_state', { provider: 'SANDBOX', provider_account_id: downId })).toMatchObject([{ value: 2 }]);
  expect(samplesOf(after, 'gateway_circuit_state', { provider: 'SANDBOX', provider_account_id: accountId })).toMatchObject([{ value: 0 }]);
});
