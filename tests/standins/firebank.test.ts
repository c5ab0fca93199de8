import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hasError, parsePix } from 'pix-utils';
import { GetAccountBalanceRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { FIREBANK } from '../../server/providers/firebank/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { eventually } from '../support/eventually.js';
import { startFileServer, type FileServer } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { todaysStatement } from '../support/statement.js';
import { FIREBANK_ERROR, FIREBANK_SOURCES, startFirebankStandIn, type FirebankStandIn } from './firebank.js';

/**
 * FIREBANK's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from the documentation of the platform
 * Fire Banking runs on (Avista; tests/standins/firebank.ts): the JWT taken with
 * the account's certificate, a PIX charge read back and paid by the CashIn
 * event, refunded in part and then in full, PIX payouts settled and failed by
 * CashOut events, every event carrying the custom header the merchant set up.
 */

const CLIENT_ID = 'account-93-550e8400';
const CLIENT_SECRET = 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6';
const CERTIFICATE = `-----BEGIN CERTIFICATE-----\n${Buffer.from('fire banking stand-in client certificate, linked to account 93').toString('base64')}\n-----END CERTIFICATE-----`;
const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
const WEBHOOK_TOKEN = 'fb-webhook-token-5d1c9e7a';
const ANA = { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', phone: '(11) 98765-4321' };

let stack: TestStack;
let files: FileServer;
let firebank: FirebankStandIn;
let accountId: string;

/** The merchant's own calls (setting up the webhooks): a token with the certificate, then the call. */
async function merchantCall(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const login = await fetch(`${firebank.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ssl-client-cert': encodeURIComponent(CERTIFICATE) },
    body: JSON.stringify({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const response = await fetch(`${firebank.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const charge = (transaction: Record<string, unknown>) =>
  stack.client.call('gateway', 'createTransaction', CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction }));
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const refund = (id: string, amount: number, idempotencyKey: string) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));
const payout = async (withdraw: Record<string, unknown>) =>
  (
    await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({ providerAccountId: accountId, withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, ...withdraw } }),
    )
  ).withdrawal;
const balance = () => stack.client.call('accounts', 'getAccountBalance', GetAccountBalanceRequest.fromPartial({ providerAccountId: accountId }));
const withdrawal = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;

beforeAll(async () => {
  stack = await startTestStack();
  files = await startFileServer({ '/fire/account-93.pem': `${CERTIFICATE}\n${PRIVATE_KEY}\n` });
  firebank = await startFirebankStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, certificatePem: CERTIFICATE });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'FIREBANK',
    name: 'Fire Banking stand-in',
    publicKey: CLIENT_ID,
    secretKey: CLIENT_SECRET,
    baseUrl: firebank.url,
    certCashInUrl: files.url('/fire/account-93.pem'),
    webhookSecret: WEBHOOK_TOKEN,
  });
  accountId = providerAccount.id;
  // The merchant points each event type at the gateway with a custom header, as the setup guide shows both kinds.
  for (const [eventType, header] of [
    ['cash_in', { key: 'Authorization', value: `Bearer ${WEBHOOK_TOKEN}` }],
    ['refund_in', { key: 'Authorization', value: `Bearer ${WEBHOOK_TOKEN}` }],
    ['cash_out', { key: 'X-Webhook-Secret', value: WEBHOOK_TOKEN }],
  ] as const)
    expect(await merchantCall('/api/webhooks', { url: providerAccount.notificationUrl, eventType, headers: [header] })).toEqual({
      status: 200,
      body: { success: true, message: 'Webhook configurado com sucesso' },
    });
});

afterAll(async () => {
  await firebank?.close();
  await files?.close();
  await stack?.close();
});

describe("FIREBANK against a stand-in written from its platform's documentation", () => {
  it('declares the platform documentation it was verified against', () => {
    expect(FIREBANK.evidence).toEqual({ level: 'platform', addresses: FIREBANK_SOURCES });
    expect(firebank.sources).toEqual(FIREBANK_SOURCES);
  });

  it('PIX: a cash-in with the payer, read back, paid by the CashIn event, refunded in part and then in full', async () => {
    const { transaction } = await charge({
      amount: 1990,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
      customer: ANA,
      orderId: 'order-fb-1',
      description: `Pedido order-fb-1 ${'com uma descrição muito longa '.repeat(8)}`,
    });
    expect(transaction).toMatchObject({ provider: 'FIREBANK', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const stored = firebank.transactions.get(transaction.transactionId)!;
    expect(stored).toMatchObject({ type: 'PAYMENT', value: 1990, externalId: 'order-fb-1' });
    expect(stored.description!.length).toBe(140);
    expect(transaction.pixCode).toBe(stored.pixCode);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(hasError(parsePix(transaction.pixCode))).toBe(false);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,iVBOR/);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    expect(await firebank.pay(transaction.transactionId)).toEqual([200]);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED, 10_000, 'the CashIn event');
    expect((await read(transaction.id)).statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    // The CashIn event's `endToEndId` is shown on the charge; its `feeAmount` (the stand-in's R$ 0,01) is the provider's
    // fee, counted in the account's statement.
    expect((await read(transaction.id)).pixEndToEndId).toBe(firebank.transactions.get(transaction.transactionId)!.e2eId);
    expect((await read(transaction.id)).pixEndToEndId).toMatch(/^E00416968/);
    expect(await todaysStatement(stack, accountId)).toEqual([
      expect.objectContaining({ chargesCount: 1, chargesAmount: 1990, feesAmount: 1, feesReportedCount: 1 }),
    ]);

    // R$ 5,00 back: a devolução PENDING at the platform, the charge still APPROVED; its CashInReversal (partial) moves nothing.
    const partial = await refund(transaction.id, 500, 'fb-refund-1');
    expect(partial.refund.status).toBe(true);
    expect(partial.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const [first] = [...firebank.transactions.values()].filter((known) => known.type === 'REFUND_IN');
    expect(first).toMatchObject({ parentId: transaction.transactionId, value: 500, status: 'PENDING' });
    expect(await firebank.settleRefund(first!.id)).toEqual([200]);
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

    // The rest: REFUNDED; the platform holds two devoluções adding up to the charge.
    const rest = await refund(transaction.id, 1490, 'fb-refund-2');
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    const refunds = [...firebank.transactions.values()].filter((known) => known.type === 'REFUND_IN');
    expect(refunds.map((known) => known.value)).toEqual([500, 1490]);
    expect(await firebank.settleRefund(refunds[1]!.id)).toEqual([200]);
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    // The platform's read of the charge still says CONFIRMED (its refunds are transactions of their own): never a step back.
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it('a charge the platform refuses keeps its message', async () => {
    await expect(
      charge({ amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: { ...ANA, document: '123.456.789' } }),
    ).rejects.toMatchObject({ details: expect.stringContaining('payer.document deve ser um CPF ou CNPJ') });
  });

  it('PIX payouts: CONFIRMED by the CashOut event is APPROVED, ERROR is REJECTED with its errorMessage; keys as the platform writes them', async () => {
    const balanceBefore = firebank.balance;
    const done = await payout({
      amount: 2500,
      pixKey: '(11) 98765-4321',
      pixType: PixKeyType.PIX_KEY_TYPE_PHONE,
      name: 'Bruno Lima',
      document: '529.982.247-25',
    });
    expect(done).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    expect(firebank.transactions.get(done.withdrawId)).toMatchObject({
      type: 'WITHDRAW',
      value: 2500,
      details: { key: '5511987654321', keyType: 'PHONE', name: 'Bruno Lima', document: '52998224725' },
    });
    expect(firebank.balance).toBe(balanceBefore - 2501);
    expect((await withdrawal(done.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
    expect(await firebank.settleCashOut(done.withdrawId, 'CONFIRMED')).toEqual([200]);
    await eventually(async () => (await withdrawal(done.id)).status === WithdrawStatus.WITHDRAW_STATUS_APPROVED, 10_000, 'the CashOut event');
    expect((await withdrawal(done.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);

    const failed = await payout({ amount: 1000, pixKey: '529.982.247-25', pixType: PixKeyType.PIX_KEY_TYPE_CPF, name: 'Bruno Lima' });
    expect(firebank.transactions.get(failed.withdrawId)!.details).toMatchObject({ key: '52998224725', keyType: 'DOCUMENT', document: '52998224725' });
    expect(await firebank.settleCashOut(failed.withdrawId, 'ERROR')).toEqual([200]);
    await eventually(async () => (await withdrawal(failed.id)).status === WithdrawStatus.WITHDRAW_STATUS_REJECTED, 10_000, 'the failed CashOut');
    // The read names no error; the CashOut event does: the payout's page shows its errorMessage.
    expect((await withdrawal(failed.id)).refusalReason).toBe(FIREBANK_ERROR.message);
  });

  it("a payout above the balance is refused with the platform's message, and nothing is recorded as sent", async () => {
    await expect(
      payout({
        amount: firebank.balance + 100,
        pixKey: 'bruno@example.com',
        pixType: PixKeyType.PIX_KEY_TYPE_EMAIL,
        name: 'Bruno Lima',
        document: '52998224725',
      }),
    ).rejects.toMatchObject({ details: 'Erro ao realizar saque: Saldo insuficiente' });
  });

  it('GetAccountBalance: the net balance in reais read as cents; what a payout in flight holds is not reported as pending', async () => {
    const before = await balance();
    expect(before).toMatchObject({ available: firebank.balance, currency: 'BRL' });
    expect(before.pending).toBeUndefined();
    const inFlight = await payout({ amount: 1234, pixKey: '529.982.247-25', pixType: PixKeyType.PIX_KEY_TYPE_CPF, name: 'Bruno Lima' });
    expect(firebank.blocked).toBe(1235);
    const during = await balance();
    expect(during).toMatchObject({ available: before.available - 1235 });
    expect(during.pending).toBeUndefined();
    await firebank.settleCashOut(inFlight.withdrawId, 'ERROR');
    expect(await balance()).toMatchObject({ available: before.available });
    expect(firebank.count('GET', '/api/balance')).toBe(3);
  });

  it('took its token with the certificate and reused it; the stand-in saw only documented routes and never failed', () => {
    expect(firebank.count('POST', '/api/auth/token')).toBeLessThanOrEqual(5);
    const tokenCalls = firebank.received.filter((request) => request.path === '/api/auth/token');
    expect(new Set(tokenCalls.map((request) => request.headers['x-ssl-client-cert']))).toEqual(new Set([encodeURIComponent(CERTIFICATE)]));
    expect(firebank.unmatched).toEqual([]);
    expect(firebank.crashed).toEqual([]);
  });
});
