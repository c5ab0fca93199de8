import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { Operation, PaymentMethod, ProviderEvidence, StatusSource, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';

const SECRET = 'sk_paguesafe_e2e';
const BASIC = `Basic ${Buffer.from(`${SECRET}:x`).toString('base64')}`;
const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';

let stack: TestStack;
let fake: FakeProvider;
let client: Driver;

beforeAll(async () => {
  stack = await startTestStack();
  fake = await startFakeProvider();
  client = stack.client;
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

async function notificationOutcomes(accountId: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    const { rows } = await db.query('select outcome from webhook_notifications where provider_account_id = $1 order by received_at', [accountId]);
    return rows.map((row) => row.outcome);
  } finally {
    await db.end();
  }
}

describe('PAGUESAFE through the public gRPC API', () => {
  it('is listed with its payment methods and operations', async () => {
    const { providers } = await client.call('gateway', 'listProviders', {});
    expect(providers.find((provider: { id: string }) => provider.id === 'PAGUESAFE')).toEqual({
      id: 'PAGUESAFE',
      aliases: [],
      specGroup: 'document 2 (group 2)',
      paymentMethods: [PaymentMethod.PAYMENT_METHOD_PIX, PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, PaymentMethod.PAYMENT_METHOD_BILLET],
      withdrawMethods: [],
      operations: [
        // The gateway's own card token: PAGUESAFE takes cards and tokenises none itself.
        Operation.OPERATION_CREATE_CARD_TOKEN,
        Operation.OPERATION_CREATE_TRANSACTION,
        Operation.OPERATION_GET_TRANSACTION,
        Operation.OPERATION_REFOUND_TRANSACTION,
        Operation.OPERATION_PROCESS_WEBHOOK,
        // Quoted by the gateway from the account's installment plan.
        Operation.OPERATION_CALCULATE_INSTALLMENTS,
      ],
      family: 'transactions API',
      evidence: ProviderEvidence.PROVIDER_EVIDENCE_SPECIFICATION_ONLY,
      evidenceAddresses: [],
      apiVersions: [],
      certificateFields: [],
      takesInstallmentPlan: true,
      // Only the secret key is needed, as one value.
      credentialKeys: [
        { field: 'public_key', required: false, parts: [] },
        { field: 'secret_key', required: true, parts: [] },
      ],
    });
  });

  it('creates a PIX charge on the provider, takes its unsigned postback, confirms it with GET /transactions/{id}, and reads APPROVED', async () => {
    const { providerAccount: account } = await client.call('accounts', 'createProviderAccount', {
      provider: 'paguesafe',
      name: 'PagueSafe e2e',
      publicKey: 'pk_e2e',
      secretKey: SECRET,
      baseUrl: fake.url,
    });
    expect(account.provider).toBe('PAGUESAFE');

    const created = fake.expect({
      method: 'POST',
      path: '/transactions',
      headers: { authorization: BASIC },
      body: (body) => {
        const charge = body as Record<string, any>;
        return charge.amount === 1990 && charge.paymentMethod === 'pix' && charge.postbackUrl === account.notificationUrl && charge.pix?.expiresInDays === 1;
      },
      reply: {
        status: 200,
        body: {
          id: 'ps_1001',
          status: 'waiting_payment',
          amount: 1990,
          paymentMethod: 'pix',
          pix: { qrcode: PIX_CODE, expirationDate: '2030-01-02T00:00:00.000Z' },
        },
      },
    });
    const { transaction } = await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: account.id,
        transaction: {
          amount: 1990,
          paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
          customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
        },
      }),
    );
    expect(created.done).toBe(true);
    expect(transaction).toMatchObject({
      provider: 'PAGUESAFE',
      transactionId: 'ps_1001',
      status: TransactionStatus.TRANSACTION_STATUS_PENDING,
      amount: 1990,
      pixCode: PIX_CODE,
    });
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(transaction.expiresAt).toEqual(new Date('2030-01-02T00:00:00.000Z'));

    // The notification is unsigned: the gateway asks the provider before approving.
    const confirmed = fake.expect({
      method: 'GET',
      path: '/transactions/ps_1001',
      headers: { authorization: BASIC },
      reply: {
        body: { id: 'ps_1001', status: 'paid', amount: 1990, paymentMethod: 'pix', pix: { qrcode: PIX_CODE, expirationDate: '2030-01-02T00:00:00.000Z' } },
      },
    });
    const postback = { id: 'pb_1', type: 'transaction', objectId: 'ps_1001', data: { id: 'ps_1001', status: 'paid', amount: 1990, paymentMethod: 'pix' } };
    const response = await fetch(account.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(postback) });
    expect(response.status).toBe(200);

    const read = await eventually(async () => {
      const { transaction: current } = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
      return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
    });
    expect(confirmed.done).toBe(true);
    expect(read.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    await eventually(async () => (await notificationOutcomes(account.id)).join() === 'APPLIED', 10_000, 'the postback to be APPLIED');

    // The provider re-sends the same change in a new envelope: a duplicate, and no second call to the provider.
    const again = await fetch(account.notificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...postback, id: 'pb_2' }),
    });
    expect(again.status).toBe(200);
    await eventually(async () => (await notificationOutcomes(account.id)).join() === 'APPLIED,DUPLICATE', 10_000, 'the re-delivery to be a DUPLICATE');
    fake.assertAllDone();
  });
});
