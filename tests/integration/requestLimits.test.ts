import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import { failureOf } from '../support/clients.js';
import { capturedLogger } from '../support/logCapture.js';
import { rawRequest, type RawResponse } from '../support/rawHttp.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * What an unauthenticated or oversized request may cost. The large requests
 * here declare their size in Content-Length but never send the body: an
 * answer that arrives anyway proves the server decided without reading it.
 */
const MiB = 1024 * 1024;
const WEBHOOK_SECRET = 'whsec-limits';
let stack: TestStack;
let accountId: string;
let otherAccountId: string;
const log = capturedLogger('warn');

beforeAll(async () => {
  // One failed notification per 1000 s after a burst of 6: a refill cannot happen during the test.
  stack = await startTestStack({
    env: { WEBHOOK_RATE_PER_SECOND: '0.001', WEBHOOK_RATE_BURST: '6', WEBHOOK_BAD_SIGNATURE_STORE_LIMIT: '2' },
    logger: log.logger,
  });
  const create = (name: string) =>
    stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: 'sk', webhookSecret: WEBHOOK_SECRET });
  ({
    providerAccount: { id: accountId },
  } = await create('limits'));
  ({
    providerAccount: { id: otherAccountId },
  } = await create('limits-other'));
});

afterAll(async () => {
  await stack?.close();
});

const header = (response: RawResponse, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(response.head)?.[1]?.trim();

describe('Connect', () => {
  const path = '/gateway.v1.PaymentGatewayService/CreateTransaction';
  const host = () => new URL(stack.gateway.httpUrl!).host;

  it('refuses a 64 MiB unauthenticated POST from its headers, without reading the body', async () => {
    const response = await rawRequest(stack.gateway.httpUrl!, [
      `POST ${path} HTTP/1.1`,
      `Host: ${host()}`,
      'Content-Type: application/json',
      `Content-Length: ${64 * MiB}`,
    ]);
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'unauthenticated' });
  });

  it('answers a gRPC-web caller in its own protocol: trailers-only UNAUTHENTICATED', async () => {
    const response = await rawRequest(stack.gateway.httpUrl!, [
      `POST ${path} HTTP/1.1`,
      `Host: ${host()}`,
      'Content-Type: application/grpc-web+proto',
      `Content-Length: ${64 * MiB}`,
    ]);
    expect(response.status).toBe(200);
    expect(header(response, 'grpc-status')).toBe('16');
  });

  it('refuses an authenticated body over MAX_REQUEST_BYTES as resource_exhausted, from its declared length', async () => {
    const response = await rawRequest(stack.gateway.httpUrl!, [
      `POST ${path} HTTP/1.1`,
      `Host: ${host()}`,
      'Content-Type: application/json',
      `Authorization: Bearer ${TEST_TOKEN}`,
      `Content-Length: ${64 * MiB}`,
      'Connection: close',
    ]);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'resource_exhausted' });
  });

  it('refuses an authenticated chunked body once it passes MAX_REQUEST_BYTES', async () => {
    const chunk = 'a'.repeat(MiB);
    const chunks = Array.from({ length: 5 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const response = await rawRequest(
      stack.gateway.httpUrl!,
      [
        `POST ${path} HTTP/1.1`,
        `Host: ${host()}`,
        'Content-Type: application/json',
        `Authorization: Bearer ${TEST_TOKEN}`,
        'Transfer-Encoding: chunked',
        'Connection: close',
      ],
      `${chunks}0\r\n\r\n`,
    );
    expect(JSON.parse(response.body)).toMatchObject({ code: 'resource_exhausted' });
  });
});

describe('gRPC', () => {
  it('refuses a request message over MAX_REQUEST_BYTES with RESOURCE_EXHAUSTED', async () => {
    const request = CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: { amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, description: 'x'.repeat(5 * MiB) },
    });
    expect((await failureOf(stack.client.call('gateway', 'createTransaction', request))).code).toBe('RESOURCE_EXHAUSTED');
  });
});

describe('webhook sidecar', () => {
  const notify = (account: string, body: string, signature = signSandboxPayload(WEBHOOK_SECRET, Math.floor(Date.now() / 1000), body)) =>
    fetch(`${stack.gateway.webhookUrl}/webhooks/SANDBOX/${account}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
    });
  const event = (id: string) =>
    JSON.stringify({ id, type: 'charge.paid', createdAt: new Date().toISOString(), data: { id: `ch_${id}`, status: 'paid', amount: 100 } });

  it('refuses a 64 MiB body with 413 from its declared length, without reading it', async () => {
    const { host } = new URL(stack.gateway.webhookUrl!);
    const response = await rawRequest(stack.gateway.webhookUrl!, [
      `POST /webhooks/SANDBOX/${otherAccountId} HTTP/1.1`,
      `Host: ${host}`,
      'Content-Type: application/json',
      `Content-Length: ${64 * MiB}`,
    ]);
    expect(response.status).toBe(413);
  });

  it('stores at most WEBHOOK_BAD_SIGNATURE_STORE_LIMIT bad-signature notifications per account; the rest are refused, counted and logged', async () => {
    const statuses: number[] = [];
    for (const id of ['bad1', 'bad2', 'bad3', 'bad4']) statuses.push((await notify(accountId, event(id), 't=1,v1=forged')).status);
    expect(statuses).toEqual([401, 401, 401, 401]);
    const db = new pg.Client({ connectionString: stack.database.url });
    await db.connect();
    const { rows } = await db.query('select outcome from webhook_notifications where provider_account_id = $1', [accountId]);
    await db.end();
    expect(rows.map((row) => row.outcome)).toEqual(['REJECTED', 'REJECTED']);
    const refused = log.records().filter((line) => line.providerAccountId === accountId && line.unstoredBadSignatures !== undefined);
    expect(refused.map((line) => line.unstoredBadSignatures)).toEqual([1, 2]);
  });

  it('rate-limits failures per account with 429 and Retry-After; authentic notifications and another account are not affected', async () => {
    // The previous test spent 4 of this account's burst of 6 with bad signatures.
    expect((await notify(accountId, event('bad5'), 't=1,v1=forged')).status).toBe(401);
    expect((await notify(accountId, event('bad6'), 't=1,v1=forged')).status).toBe(401);
    const limited = await notify(accountId, event('bad7'), 't=1,v1=forged');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Past the burst of 6, and still taken: authentic notifications never count.
    for (const id of ['ok1', 'ok2', 'ok3', 'ok4', 'ok5', 'ok6', 'ok7']) expect((await notify(accountId, event(id))).status).toBe(200);
    expect((await notify(otherAccountId, event('other-bad'), 't=1,v1=forged')).status).toBe(401);
  });
});
