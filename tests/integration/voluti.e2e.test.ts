import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDynamicPix, hasError, type PixDynamicObject } from 'pix-utils';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, StatusSource, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { clearHttpsAgents, trustCertificateAuthority } from '../../server/lib/http/index.js';
import type { Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, startFileServer, testCertificates, type FakeProvider, type FileServer } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * VOLUTI end to end through the public gRPC API and real PostgreSQL: a charge
 * made at a fake VOLUTI (mTLS with the platform certificate from its URL), a
 * RECEIVE/LIQUIDATED notification posted to the sidecar, and the gateway
 * confirming it with GET /cob/{txid} before it approves the charge.
 */

const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';
const TXID = `e2e${randomUUID().replace(/-/g, '')}`;

let stack: TestStack;
let gateway: TestStack['gateway'];
let fake: FakeProvider;
let files: FileServer;
let client: Driver;
let untrust: (() => void) | undefined;

beforeAll(async () => {
  fake = await startFakeProvider({ tls: 'mtls' });
  const pki = await testCertificates();
  files = await startFileServer({ '/platform/voluti-cash-in.pem': pki.clientPem, '/platform/voluti-cash-out.pem': pki.clientPem });
  // The gateway runs in this process: its provider clients trust the fake's throwaway CA from here on.
  untrust = trustCertificateAuthority(fake.ca!);
  stack = await startTestStack();
  gateway = stack.gateway;
  client = stack.client;
});

afterAll(async () => {
  await stack?.close();
  untrust?.();
  clearHttpsAgents();
  await fake?.close();
  await files?.close();
});

it('creates a PIX charge at VOLUTI, takes its RECEIVE notification, confirms it with GET /cob and reads it back APPROVED', async () => {
  const brCode = createDynamicPix({ merchantName: 'LOJA TESTE', merchantCity: 'SAO PAULO', url: `pix.voluti.com.br/qr/v3/at/${randomUUID()}` });
  if (hasError(brCode)) throw new Error('could not build a test BR Code');
  const pixCopiaECola = (brCode as PixDynamicObject).toBRCode();
  const cob = (status: string) => ({
    calendario: { criacao: new Date().toISOString(), expiracao: 86400 },
    txid: TXID,
    revisao: 0,
    status,
    valor: { original: '25.00' },
    chave: CHAVE,
    pixCopiaECola,
  });

  const token = fake.expect({
    method: 'POST',
    path: '/oauth/token',
    body: { grant_type: 'client_credentials', client_id: 'voluti-e2e', client_secret: 'voluti-e2e-secret' },
    reply: { body: { access_token: 'e2e-token', expires_in: 3600 } },
  });
  fake.expect({
    method: 'POST',
    path: '/cob',
    headers: { authorization: 'Bearer e2e-token' },
    body: { calendario: { expiracao: 86400 }, devedor: { cpf: '12345678909', nome: 'Ana Souza' }, valor: { original: '25.00' }, chave: CHAVE },
    reply: { status: 201, body: cob('ATIVA') },
  });
  const confirmation = fake.expect({
    method: 'GET',
    path: `/cob/${TXID}`,
    headers: { authorization: 'Bearer e2e-token' },
    reply: {
      body: { ...cob('CONCLUIDA'), pix: [{ endToEndId: 'E00416968202601010000abcdefghijk', txid: TXID, valor: '25.00', horario: new Date().toISOString() }] },
    },
  });

  const { providerAccount } = await client.call('accounts', 'createProviderAccount', {
    provider: 'VOLUTI',
    name: 'VOLUTI e2e',
    publicKey: `voluti-e2e|${CHAVE}`,
    secretKey: 'voluti-e2e-secret',
    baseUrl: fake.url,
    certCashInUrl: files.url('/platform/voluti-cash-in.pem'),
    certCashOutUrl: files.url('/platform/voluti-cash-out.pem'),
  });
  expect(providerAccount.notificationUrl).toBe(`${gateway.webhookUrl}/webhooks/VOLUTI/${providerAccount.id}`);

  const { transaction } = await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      transaction: {
        amount: 2500,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
      },
    }),
  );
  expect(transaction).toMatchObject({
    provider: 'VOLUTI',
    transactionId: TXID,
    status: TransactionStatus.TRANSACTION_STATUS_PENDING,
    amount: 2500,
    pixCode: pixCopiaECola,
  });
  expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
  expect(confirmation.calls).toHaveLength(0);

  // VOLUTI's notification, as it posts it: unsigned, so the gateway must ask VOLUTI before approving.
  const notification = {
    data: {
      id: 6750828,
      txId: TXID,
      pixKey: CHAVE,
      status: 'LIQUIDATED',
      payment: { amount: '25.00', currency: 'BRL' },
      refunds: [],
      endToEndId: 'E00416968202601010000abcdefghijk',
      webhookType: 'RECEIVE',
      idempotencyKey: null,
    },
    type: 'RECEIVE',
  };
  const answer = await fetch(providerAccount.notificationUrl, {
    method: 'POST',
    body: JSON.stringify(notification),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ outcome: 'RECEIVED' });

  const read = await eventually(
    async () => {
      const { transaction: current } = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
      return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
    },
    15_000,
    'the VOLUTI charge to be APPROVED',
  );
  expect(read.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
    [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
    [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
  ]);
  expect(confirmation.calls).toHaveLength(1);
  expect(token.calls).toHaveLength(1);
  expect(fake.received.every((request) => request.clientCertificate === 'platform-client')).toBe(true);

  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    const { rows } = await db.query('select outcome from webhook_notifications where provider_account_id = $1', [providerAccount.id]);
    expect(rows).toEqual([{ outcome: 'APPLIED' }]);
  } finally {
    await db.end();
  }
  fake.assertAllDone();
});
