import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import type { Driver } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';

const SECRET = 'sk-sidecar-secret';
const WEBHOOK_SECRET = 'whsec-hidden';
// Signatures are refused five minutes after their timestamp.
const SIGNED_AT = Math.floor(Date.now() / 1000);
let stack: TestStack;
let gateway: TestStack['gateway'];
let client: Driver;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  gateway = stack.gateway;
  client = stack.client;
  ({
    providerAccount: { id: accountId },
  } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'sidecar',
    publicKey: 'pk',
    secretKey: SECRET,
    webhookSecret: WEBHOOK_SECRET,
  }));
});

afterAll(async () => {
  await stack?.close();
});

const post = (path: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
  fetch(`${gateway.webhookUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

async function pendingPix(): Promise<{ id: string; transactionId: string }> {
  const { transaction } = await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount: 990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );
  return transaction;
}

const paidEvent = (chargeId: string) =>
  JSON.stringify({ id: 'evt_test', type: 'charge.paid', createdAt: new Date().toISOString(), data: { id: chargeId, status: 'paid', amount: 990 } });

describe('webhook sidecar', () => {
  it('applies a correctly signed notification and stores it as received', async () => {
    const charge = await pendingPix();
    const body = paidEvent(charge.transactionId);
    const response = await post(`/webhooks/SANDBOX/${accountId}`, body, { 'x-sandbox-signature': signSandboxPayload(WEBHOOK_SECRET, SIGNED_AT, body) });
    expect(response.status).toBe(200);
    // Stored and acknowledged first; a worker applies it moments later.
    expect(await response.json()).toMatchObject({ outcome: 'RECEIVED' });
    await eventually(
      async () =>
        (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: charge.id }))).transaction.status ===
        TransactionStatus.TRANSACTION_STATUS_APPROVED,
    );

    const db = new pg.Client({ connectionString: stack.database.url });
    await db.connect();
    const { rows } = await eventually(async () => {
      const result = await db.query(
        'select body, headers, outcome from webhook_notifications where provider_account_id = $1 order by received_at desc limit 1',
        [accountId],
      );
      return result.rows[0]?.outcome === 'APPLIED' && result;
    });
    await db.end();
    expect(rows[0].body.toString('utf8')).toBe(body);
    expect(rows[0].headers['x-sandbox-signature']).toBe(signSandboxPayload(WEBHOOK_SECRET, SIGNED_AT, body));
    expect(rows[0].outcome).toBe('APPLIED');
  });

  it("takes a notification posted to the account's URL with /pix appended, as the API Pix's PSPs post their callbacks", async () => {
    const charge = await pendingPix();
    const body = JSON.stringify({
      id: 'evt_pix_path',
      type: 'charge.paid',
      createdAt: new Date().toISOString(),
      data: { id: charge.transactionId, status: 'paid', amount: 990 },
    });
    const response = await post(`/webhooks/SANDBOX/${accountId}/pix`, body, { 'x-sandbox-signature': signSandboxPayload(WEBHOOK_SECRET, SIGNED_AT, body) });
    expect(response.status).toBe(200);
    await eventually(
      async () =>
        (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: charge.id }))).transaction.status ===
        TransactionStatus.TRANSACTION_STATUS_APPROVED,
    );
    expect((await post(`/webhooks/SANDBOX/${accountId}/other`, body)).status).toBe(404);
  });

  it('answers 401 to a forged notification and changes nothing', async () => {
    const charge = await pendingPix();
    const body = paidEvent(charge.transactionId);
    const forged = await post(`/webhooks/SANDBOX/${accountId}`, body, { 'x-sandbox-signature': signSandboxPayload('not-the-secret', SIGNED_AT, body) });
    expect(forged.status).toBe(401);
    const unsigned = await post(`/webhooks/SANDBOX/${accountId}`, body);
    expect(unsigned.status).toBe(401);
    const read = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: charge.id }));
    expect(read.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it('answers 404 for an unknown account or provider, and 413 for a body over 1 MiB', async () => {
    expect((await post('/webhooks/SANDBOX/5b0c4e1e-0000-4000-8000-000000000000', '{}')).status).toBe(404);
    expect((await post(`/webhooks/VOLUTI/${accountId}`, '{}')).status).toBe(404);
    expect((await post(`/webhooks/SANDBOX/${accountId}`, new Uint8Array(1024 * 1024 + 1).fill(97))).status).toBe(413);
  });
});

describe('addresses on port 0', () => {
  it('are read back from the servers that bound them, so the URLs handed out are the ones listened on', async () => {
    const port = (url: string) => Number(new URL(url).port);
    const { config } = gateway;
    expect([config.grpcPort, config.httpPort, config.webhookPort, config.sandboxPort].every((value) => value > 0)).toBe(true);
    expect(gateway.grpcAddress).toBe(`${config.host}:${config.grpcPort}`);
    expect(port(gateway.httpUrl!)).toBe(config.httpPort);
    expect(port(gateway.webhookUrl!)).toBe(config.webhookPort);
    expect(port(gateway.sandboxUrl!)).toBe(config.sandboxPort);
    expect((await fetch(`${gateway.webhookUrl}/healthz`)).status).toBe(200);
  });
});

describe('provider accounts', () => {
  it('never returns secrets and keeps them encrypted at rest', async () => {
    const { providerAccount } = await client.call('accounts', 'getProviderAccount', { id: accountId });
    expect(providerAccount).toMatchObject({ id: accountId, provider: 'SANDBOX', hasSecretKey: true, hasWebhookSecret: true });
    expect(JSON.stringify(providerAccount)).not.toContain(SECRET);
    expect(providerAccount.notificationUrl).toBe(`${gateway.webhookUrl}/webhooks/SANDBOX/${accountId}`);

    const db = new pg.Client({ connectionString: stack.database.url });
    await db.connect();
    const { rows } = await db.query('select * from provider_accounts where id = $1', [accountId]);
    await db.end();
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(SECRET);
    expect(stored).not.toContain('whsec-hidden');
    expect(rows[0].secret_key_sealed).toMatch(/^v1\./);
  });

  it('refuses an unknown provider and updates only what it is given', async () => {
    await expect(client.call('accounts', 'createProviderAccount', { provider: 'NOPE', name: 'x', publicKey: '', secretKey: '' })).rejects.toMatchObject({
      details: 'unknown provider NOPE; ListProviders shows the registered ones',
    });
    const { providerAccount } = await client.call('accounts', 'updateProviderAccount', { id: accountId, name: 'renamed' });
    expect(providerAccount).toMatchObject({ name: 'renamed', publicKey: 'pk', hasSecretKey: true });
  });
});
