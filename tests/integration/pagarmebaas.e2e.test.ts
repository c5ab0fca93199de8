import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createStaticPix, hasError } from 'pix-utils';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { Operation, PaymentMethod, ProviderEvidence, StatusSource, TransactionStatus, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { partial, startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { brCodeCrcIsValid } from '../support/brCode.js';

const SECRET = 'sk_test_pagarmebaas_e2e';
/** Pagar.me's basic auth: the secret key as user, an empty password. */
const BASIC = `Basic ${Buffer.from(`${SECRET}:`).toString('base64')}`;

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

/** A real BR Code for the amount, as the provider would return it. */
function brCode(amountInReais: number): string {
  const pix = createStaticPix({
    merchantName: 'Loja Exemplo',
    merchantCity: 'Sao Paulo',
    pixKey: '123e4567-e12b-12d1-a456-426655440000',
    infoAdicional: 'Pedido',
    transactionAmount: amountInReais,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

const order = (id: string, status: string, pixCode: string, charge: Record<string, unknown> = {}) => ({
  id,
  status,
  amount: 1990,
  charges: [
    {
      id: `ch_${id}`,
      status,
      amount: 1990,
      payment_method: 'pix',
      ...charge,
      last_transaction: {
        id: `tran_${id}`,
        status: 'waiting_payment',
        qr_code: pixCode,
        qr_code_url: `https://api.pagar.me/core/v5/transactions/tran_${id}/qrcode`,
        expires_at: '2030-01-02T00:00:00Z',
      },
    },
  ],
});

async function pixCharge(accountId: string, orderId: string, pixCode: string) {
  const created = fake.expect({
    method: 'POST',
    path: '/orders',
    headers: { authorization: BASIC },
    body: partial({
      payments: [{ payment_method: 'pix', amount: 1990, pix: { expires_in: 86_400 } }],
      customer: { document: '12345678909', type: 'individual' },
    }),
    reply: { body: order(orderId, 'pending', pixCode) },
  });
  const { transaction } = await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: {
        amount: 1990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', phone: '11987654321' },
      },
    }),
  );
  expect(created.done).toBe(true);
  return transaction;
}

const notify = (url: string, event: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
const read = async (id: string) => (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction;

describe('PAGARMEBAAS through the public gRPC API', () => {
  it('is listed with its payment methods, withdraw method and operations', async () => {
    const { providers } = await client.call('gateway', 'listProviders', {});
    expect(providers.find((provider: { id: string }) => provider.id === 'PAGARMEBAAS')).toEqual({
      id: 'PAGARMEBAAS',
      aliases: [],
      specGroup: 'document 2 (group 2)',
      paymentMethods: [PaymentMethod.PAYMENT_METHOD_PIX, PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, PaymentMethod.PAYMENT_METHOD_BILLET],
      withdrawMethods: [WithdrawMethod.WITHDRAW_METHOD_RECEIVER],
      operations: [
        Operation.OPERATION_CREATE_CARD_TOKEN,
        Operation.OPERATION_CREATE_CARD_ID,
        Operation.OPERATION_CREATE_TRANSACTION,
        Operation.OPERATION_GET_TRANSACTION,
        Operation.OPERATION_REFOUND_TRANSACTION,
        Operation.OPERATION_WITHDRAW,
        Operation.OPERATION_PROCESS_WEBHOOK,
        // The default recipient's balance, as PAGARME reads it (GET /recipients/{id}/balance).
        Operation.OPERATION_GET_ACCOUNT_BALANCE,
        // Quoted by the gateway from the account's installment plan.
        Operation.OPERATION_CALCULATE_INSTALLMENTS,
      ],
      family: 'orders API',
      evidence: ProviderEvidence.PROVIDER_EVIDENCE_DOCUMENTED,
      evidenceAddresses: expect.arrayContaining(['https://docs.pagar.me/reference/pix-2']),
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

  it('creates a PIX order, takes an unsigned order.paid, confirms it with GET /orders/{id}, and reads APPROVED', async () => {
    const { providerAccount: account } = await client.call('accounts', 'createProviderAccount', {
      provider: 'pagarmebaas',
      name: 'Pagar.me BaaS e2e',
      publicKey: 'pk_test_e2e',
      secretKey: SECRET,
      baseUrl: fake.url,
    });
    expect(account.provider).toBe('PAGARMEBAAS');
    const pixCode = brCode(19.9);

    const transaction = await pixCharge(account.id, 'or_e2e_paid', pixCode);
    expect(transaction).toMatchObject({
      provider: 'PAGARMEBAAS',
      transactionId: 'or_e2e_paid',
      status: TransactionStatus.TRANSACTION_STATUS_PENDING,
      amount: 1990,
      pixCode,
    });
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(transaction.expiresAt).toEqual(new Date('2030-01-02T00:00:00Z'));

    // Pagar.me does not sign its webhooks: the gateway asks for the order before approving.
    const confirmed = fake.expect({
      method: 'GET',
      path: '/orders/or_e2e_paid',
      headers: { authorization: BASIC },
      reply: { body: order('or_e2e_paid', 'paid', pixCode, { paid_at: '2026-03-10T12:10:00Z', paid_amount: 1990 }) },
    });
    const response = await notify(account.notificationUrl, {
      id: 'hook_e2e_1',
      account: { id: 'acc_1', name: 'Loja' },
      type: 'order.paid',
      created_at: '2026-03-10T12:10:00',
      data: order('or_e2e_paid', 'paid', pixCode),
    });
    expect(response.status).toBe(200);

    const approved = await eventually(async () => {
      const current = await read(transaction.id);
      return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
    });
    expect(confirmed.done).toBe(true);
    expect(approved.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    fake.assertAllDone();
  });

  it('does not approve a charge when the provider, asked, says it is still pending', async () => {
    const { providerAccount: account } = await client.call('accounts', 'createProviderAccount', {
      provider: 'PAGARMEBAAS',
      name: 'Pagar.me BaaS forged',
      publicKey: 'pk_test_e2e',
      secretKey: SECRET,
      baseUrl: fake.url,
    });
    const pixCode = brCode(19.9);
    const transaction = await pixCharge(account.id, 'or_e2e_forged', pixCode);

    const asked = fake.expect({
      method: 'GET',
      path: '/orders/or_e2e_forged',
      headers: { authorization: BASIC },
      reply: { body: order('or_e2e_forged', 'pending', pixCode) },
    });
    const response = await notify(account.notificationUrl, { id: 'hook_e2e_forged', type: 'order.paid', data: order('or_e2e_forged', 'paid', pixCode) });
    expect(response.status).toBe(200);

    await eventually(async () => asked.done, 10_000, 'the gateway to ask the provider about the order');
    // The worker applies what the provider said right after asking; give it a moment, then check nothing moved.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const current = await read(transaction.id);
    expect(current.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(current.statusHistory).toHaveLength(1);
    fake.assertAllDone();
  });
});
