import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateCardTokenRequest, CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus, WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import type { Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

const WEBHOOK_SECRET = 'whsec-notify';
let stack: TestStack;
let client: Driver;
let account: { id: string; notificationUrl: string };
let fake: FakeProvider;
let db: pg.Client;

beforeAll(async () => {
  stack = await startTestStack();
  client = stack.client;
  fake = await startFakeProvider();
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  ({ providerAccount: account } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'notify',
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret: WEBHOOK_SECRET,
  }));
});

afterAll(async () => {
  await db?.end();
  await fake?.close();
  await stack?.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const pendingPix = async () =>
  (
    await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: account.id, transaction: { amount: 1200, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    )
  ).transaction;
const statusOf = async (id: string) => (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction.status;
const paidEvent = (eventId: string, chargeId: string) =>
  JSON.stringify({ id: eventId, type: 'charge.paid', createdAt: new Date().toISOString(), data: { id: chargeId, status: 'paid', amount: 1200 } });
const post = (body: string, headers: Record<string, string>) =>
  fetch(account.notificationUrl, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
const signedAt = (timestamp: number, body: string) => ({ 'x-sandbox-signature': signSandboxPayload(WEBHOOK_SECRET, timestamp, body) });
const outcomesFor = async (subjectId: string) =>
  (
    await client.call('webhooks', 'listWebhookNotifications', { subjectId, providerAccountId: '', provider: '', outcome: 0, pageSize: 50, pageToken: '' })
  ).notifications.map((n: any) => n.outcome);

describe('notification signatures carry a replay window', () => {
  it('refuses a correctly signed notification older than five minutes, or dated more than five minutes ahead', async () => {
    const charge = await pendingPix();
    const body = paidEvent('evt_replayed', charge.transactionId);
    expect((await post(body, signedAt(nowSeconds() - 360, body))).status).toBe(401);
    expect((await post(body, signedAt(nowSeconds() + 360, body))).status).toBe(401);
    const { rows } = await db.query(`select outcome from webhook_notifications where provider_account_id = $1 and convert_from(body, 'UTF8') = $2`, [
      account.id,
      body,
    ]);
    expect(rows.map((row) => row.outcome)).toEqual(['REJECTED', 'REJECTED']);
    expect(await statusOf(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    // The same notification signed just now is accepted.
    expect((await post(body, signedAt(nowSeconds() - 60, body))).status).toBe(200);
    await eventually(async () => (await statusOf(charge.id)) === TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('deduplicates by the event id inside the signed body, whatever an unsigned header says', async () => {
    const charge = await pendingPix();
    const body = paidEvent('evt_signed_id', charge.transactionId);
    expect((await post(body, { 'x-sandbox-event-id': 'header-1', ...signedAt(nowSeconds(), body) })).status).toBe(200);
    await eventually(async () => (await outcomesFor(charge.id)).includes(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED));
    // Re-sent with a fresh signature and a different header: still the same event.
    expect((await post(body, { 'x-sandbox-event-id': 'header-2', ...signedAt(nowSeconds(), body) })).status).toBe(200);
    const outcomes = await eventually(async () => {
      const list = await outcomesFor(charge.id);
      return list.length === 2 && list;
    });
    expect(outcomes.sort()).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE].sort());
  });
});

describe('secrets stay out of storage and answers', () => {
  it('stores notification headers without authorization, cookies or API keys', async () => {
    const charge = await pendingPix();
    const body = paidEvent('evt_headers', charge.transactionId);
    const credentials = {
      authorization: 'Bearer provider-token',
      cookie: 'session=abc',
      'x-api-key': 'k1',
      'api-key': 'k2',
      apikey: 'k3',
      'x-auth-token': 'k4',
    };
    expect((await post(body, { ...credentials, 'x-request-id': 'req-7', ...signedAt(nowSeconds(), body) })).status).toBe(200);
    const { rows } = await db.query(`select headers from webhook_notifications where provider_account_id = $1 and convert_from(body, 'UTF8') = $2`, [
      account.id,
      body,
    ]);
    const stored = rows[0].headers as Record<string, string>;
    for (const name of Object.keys(credentials)) expect(stored).not.toHaveProperty(name);
    expect(JSON.stringify(stored)).not.toMatch(/provider-token|session=abc|"k[1-4]"/);
    expect(stored).toMatchObject({ 'x-request-id': 'req-7', 'content-type': 'application/json', 'x-sandbox-signature': expect.stringMatching(/^t=\d+,v1=/) });
    // The stored copy still verifies when processed.
    await eventually(async () => (await outcomesFor(charge.id)).includes(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED));
  });

  it('shows certificate URLs without their presigned query, and keeps the stored URL whole', async () => {
    const presigned = 'https://certs.example.com/platform/cert.pem?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=deadbeef';
    const { providerAccount: created } = await client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: 'mtls',
      publicKey: 'pk',
      secretKey: 'sk',
      certCashInUrl: presigned,
      certCashOutUrl: presigned,
    });
    expect(created.certCashInUrl).toBe('https://certs.example.com/platform/cert.pem');
    const { providerAccount: read } = await client.call('accounts', 'getProviderAccount', { id: created.id });
    expect([read.certCashInUrl, read.certCashOutUrl]).toEqual(['https://certs.example.com/platform/cert.pem', 'https://certs.example.com/platform/cert.pem']);
    const { providerAccounts } = await client.call('accounts', 'listProviderAccounts', { provider: 'SANDBOX' });
    expect(JSON.stringify(providerAccounts)).not.toContain('X-Amz-Signature');
    // A form that sends back what it was shown does not wipe the query out of the stored URL.
    await client.call('accounts', 'updateProviderAccount', { id: created.id, name: 'mtls renamed', certCashInUrl: read.certCashInUrl });
    const { rows } = await db.query('select cert_cash_in_url from provider_accounts where id = $1', [created.id]);
    expect(rows[0].cert_cash_in_url).toBe(presigned);
  });

  it('keeps card data a provider echoes in its error out of the gateway error', async () => {
    const { providerAccount: echoing } = await client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: 'echo',
      publicKey: 'pk',
      secretKey: 'sk',
      baseUrl: fake.url,
    });
    fake.expect({
      method: 'POST',
      path: '/v1/card-tokens',
      reply: {
        status: 422,
        body: { message: 'invalid request {"number":"4111111111111111","cvv":"123","expYear":"2030"}: card 4111 1111 1111 1111 cvv=123 refused' },
      },
    });
    const card = { cardNumber: '4111111111111111', holderName: 'ANA SILVA', holderDocument: '52998224725', expMonth: '12', expYear: '30', cvv: '123' };
    const failure: any = await client
      .call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: echoing.id, card }))
      .catch((error: unknown) => error);
    expect(failure.details).toMatch(/^Erro ao criar token do cartão: invalid request/);
    expect(failure.details).not.toMatch(/4111|"123"|=123/);
    expect(failure.details).toContain('"number":"[redacted]"');
    fake.assertAllDone();
  });
});
