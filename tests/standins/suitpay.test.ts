import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startSuitpayStandIn, type SuitpayStandIn } from './suitpay.js';

/**
 * SUITPAY driven end to end through the public gRPC contract against a stand-in
 * written from SuitPay's own documentation (tests/standins/suitpay.ts): PIX
 * charges, the PIX webhook with its hash, payouts to every key type and the
 * PIX_CASHOUT webhook. SuitPay documents no read and no PIX refund.
 */

const CI = 'suit-ci-e2e';
const CS = 'suit-cs-e2e-0123456789abcdef';

let stack: TestStack;
let client: Driver;
let standIn: SuitpayStandIn;
let account: { id: string; notificationUrl: string };

beforeAll(async () => {
  stack = await startTestStack();
  client = stack.client;
  standIn = await startSuitpayStandIn({ clientId: CI, clientSecret: CS, balance: 100 });
  ({ providerAccount: account } = await client.call('accounts', 'createProviderAccount', {
    provider: 'suitpay',
    name: 'SuitPay stand-in',
    publicKey: CI,
    secretKey: CS,
    baseUrl: standIn.url,
  }));
});

afterAll(async () => {
  await standIn?.close();
  await stack?.close();
});

const customer = { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', phone: '+55 (62) 99981-5500' };

const charge = async (amount: number, extra: Record<string, unknown> = {}) =>
  (
    await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: account.id,
        transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer, ...extra },
      }),
    )
  ).transaction;
const read = async (id: string) => (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction;
const payout = (withdraw: Record<string, unknown>, idempotencyKey = '') =>
  client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: account.id,
      idempotencyKey,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, ...withdraw },
    }),
  );
const readPayout = async (id: string) => (await client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;
const history = (subject: { statusHistory: Array<{ status: number; source: number }> }) =>
  subject.statusHistory.map((change) => [change.status, change.source]);

describe('SUITPAY against its documented API (stand-in)', () => {
  it('charges by PIX: request-qrcode in reais with the client, PENDING with a valid BR Code; the signed PIX webhook approves it', async () => {
    const transaction = await charge(1990, { orderId: 'pedido-suit-1' });
    expect(transaction).toMatchObject({ provider: 'SUITPAY', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const atSuitPay = standIn.charges.get(transaction.transactionId)!;
    expect(atSuitPay).toMatchObject({
      requestNumber: 'pedido-suit-1',
      amount: 19.9,
      client: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phoneNumber: '62999815500' },
      callbackUrl: account.notificationUrl,
      status: 'WAITING',
    });
    expect(transaction.pixCode).toBe(atSuitPay.paymentCode);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(transaction.expiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);

    expect(await standIn.pay(transaction.transactionId)).toBe(200);
    const approved = await eventually(async () => {
      const current = await read(transaction.id);
      return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
    });
    expect(history(approved)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
  });

  it('a chargeback webhook after payment moves the charge to CHARGEBACK', async () => {
    const transaction = await charge(2500);
    await standIn.pay(transaction.transactionId);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(await standIn.chargeback(transaction.transactionId)).toBe(200);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
  });

  it('a webhook whose hash was made with another secret is refused (401) and changes nothing', async () => {
    const transaction = await charge(1500);
    const fields = { idTransaction: transaction.transactionId, typeTransaction: 'PIX', statusTransaction: 'PAID_OUT', value: 15, requestNumber: 'x' };
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256')
      .update(Object.values(fields).join('') + 'not-the-secret')
      .digest('hex');
    const response = await fetch(account.notificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...fields, hash }),
    });
    expect(response.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it("refuses, before SuitPay is called, a charge without the client SuitPay requires, and a refund SuitPay's documentation does not offer", async () => {
    const before = standIn.received.length;
    expect((await failureOf(charge(1990, { customer: { name: 'Ana Souza', document: '', email: 'ana@example.com' } }))).code).toBe('INVALID_ARGUMENT');
    const transaction = await charge(1000);
    await standIn.pay(transaction.transactionId);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(
      await failureOf(
        client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: account.id, id: transaction.id, amount: 500 })),
      ),
    ).toEqual({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
    expect(standIn.received.length).toBe(before + 1);
  });

  it.each([
    ['123.456.789-09', 'CPF', '12345678909', 'document'],
    ['12.345.678/0001-99', 'CNPJ', '12345678000199', 'document'],
    ['(62) 99999-8888', 'PHONE', '62999998888', 'phoneNumber'],
    ['seller@example.com', 'EMAIL', 'seller@example.com', 'email'],
    ['c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM', 'c873834c-ed18-4e63-8e5d-90190392b744', 'randomKey'],
  ] as const)('pays out to %s (%s): pix-payment with key %s and typeKey %s; the PIX_CASHOUT webhook approves it', async (pixKey, type, key, typeKey) => {
    const { withdrawal } = await payout({ amount: 500, pixKey, pixType: PixKeyType[`PIX_KEY_TYPE_${type}`] });
    expect([withdrawal.status, Number(withdrawal.amount)]).toEqual([WithdrawStatus.WITHDRAW_STATUS_PENDING, 500]);
    expect(standIn.payouts.get(withdrawal.withdrawId)).toMatchObject({ key, typeKey, value: 5, callbackUrl: account.notificationUrl });
    expect(await standIn.settlePayout(withdrawal.withdrawId, 'PAID_OUT')).toBe(200);
    const paid = await eventually(async () => {
      const current = await readPayout(withdrawal.id);
      return current.status === WithdrawStatus.WITHDRAW_STATUS_APPROVED && current;
    });
    expect(history(paid)).toEqual([
      [WithdrawStatus.WITHDRAW_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [WithdrawStatus.WITHDRAW_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
  });

  it("a payout SuitPay cancels is CANCELED, its money back; one beyond the balance is SuitPay's NO_FUNDS, with its message", async () => {
    const { withdrawal } = await payout({ amount: 700, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL });
    const balance = standIn.balance();
    await standIn.settlePayout(withdrawal.withdrawId, 'CANCELED');
    expect(standIn.balance()).toBeCloseTo(balance + 7, 2);
    await eventually(async () => (await readPayout(withdrawal.id)).status === WithdrawStatus.WITHDRAW_STATUS_CANCELED);
    expect(await failureOf(payout({ amount: 10_000_000, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao realizar saque: Sem saldo para executar esta operação.',
    });
  });

  it("a retried payout with the caller's key reaches SuitPay once, with that key as externalId", async () => {
    const before = standIn.count('POST', '/api/v1/gateway/pix-payment');
    const first = await payout({ amount: 300, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL }, 'suit-payout-retry');
    const again = await payout({ amount: 300, pixKey: 'seller@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL }, 'suit-payout-retry');
    expect(again.withdrawal.id).toBe(first.withdrawal.id);
    expect(standIn.count('POST', '/api/v1/gateway/pix-payment')).toBe(before + 1);
    expect(standIn.payouts.get(first.withdrawal.withdrawId)!.externalId).toBe('suit-payout-retry');
  });

  it('met only documented routes, with the right credentials, and never crashed', () => {
    expect(standIn.unmatched).toEqual([]);
    expect(standIn.crashed).toEqual([]);
    expect(standIn.received.every((request) => request.headers.ci === CI && request.headers.cs === CS)).toBe(true);
  });
});
