import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { hasError, parsePix } from 'pix-utils';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetAccountStatementRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { VELTRAX } from '../../server/providers/veltrax/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { VELTRAX_SOURCES, startVeltraxStandIn, type VeltraxStandIn } from './veltrax.js';

/**
 * VELTRAX's acceptance test (also VEXYPAYMENTS, the same provider): the whole
 * gateway, through its public gRPC contract, against a stand-in written from
 * the documentation of the white-label PIX platform it runs on (7hubpag /
 * VexusPay / PulsePag; tests/standins/veltrax.ts): the login's JWT as Bearer,
 * a PIX deposit in reais read back and moved by the platform's webhook
 * (COMPLETED, then RETIDO), payouts whose key type the gateway infers as the
 * specification says (doc 3 §5), settled and failed by webhooks, a forged
 * webhook confirmed by a read and so refused, the platform's refusal of a key
 * type it does not list, and a refused login as 'Falha na autenticação'
 * (doc 3 §8). No refunds (doc 3 §8).
 */

const CLIENT_ID = 'vx_client_7f3a91c2';
const CLIENT_SECRET = 'vx_secret_4be08d6a1f9c2e57';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };

let stack: TestStack;
let veltrax: VeltraxStandIn;
let accountId: string;
let notificationUrl: string;

const createAccount = async (name: string, secretKey: string) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'VELTRAX',
      name,
      publicKey: CLIENT_ID,
      secretKey,
      baseUrl: veltrax.url,
    })
  ).providerAccount;

beforeAll(async () => {
  stack = await startTestStack();
  veltrax = await startVeltraxStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  const account = await createAccount('Veltrax stand-in', CLIENT_SECRET);
  accountId = account.id;
  notificationUrl = account.notificationUrl;
}, 60_000);

afterEach(() => {
  // Every request the gateway made is one the platform documents, and the stand-in never failed on one.
  expect(veltrax.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(veltrax.crashed).toEqual([]);
});

afterAll(async () => {
  await veltrax?.close();
  await stack?.close();
});

const charge = (transaction: Record<string, unknown>, providerAccountId = accountId, idempotencyKey = '') =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      idempotencyKey,
      transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, ...transaction },
    }),
  );
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const becomes = (id: string, status: TransactionStatus, what: string) =>
  eventually(
    async () => {
      const current = await read(id);
      return current.status === status && current;
    },
    10_000,
    what,
  );
const payout = (withdraw: Record<string, unknown>, providerAccountId = accountId, idempotencyKey = '') =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId,
      idempotencyKey,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, ...withdraw },
    }),
  );
const withdrawal = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;
const history = (transaction: { statusHistory: Array<{ status: number; source: number }> }) =>
  transaction.statusHistory.map((change) => [change.status, change.source]);

describe("VELTRAX against a stand-in written from its platform's documentation", () => {
  it('declares the platform documentation it was verified against', () => {
    expect(VELTRAX.evidence).toEqual({ level: 'platform', addresses: VELTRAX_SOURCES });
    expect(veltrax.sources).toEqual(VELTRAX_SOURCES);
  });

  it("PIX: a deposit in reais with the login's token, its BR Code and QR image, read back; COMPLETED by the webhook, then RETIDO", async () => {
    const { transaction } = await charge({ customer: ANA, orderId: 'order-vx-1', description: 'Pedido order-vx-1' }, accountId, 'charge-vx-1');
    expect(transaction).toMatchObject({ provider: 'VELTRAX', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const atPlatform = veltrax.transactions.get(transaction.transactionId)!;
    expect(atPlatform).toMatchObject({
      type: 'Deposit',
      amount: 19.9,
      external_id: 'charge-vx-1',
      description: 'Pedido order-vx-1',
      status: 'PENDING',
      clientCallbackUrl: notificationUrl,
    });
    expect(transaction.pixCode).toBe(atPlatform.qr_code);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(hasError(parsePix(transaction.pixCode))).toBe(false);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    // The payer pays: the platform's transactional webhook, unsigned, confirmed by a read.
    expect(await veltrax.settle(transaction.transactionId, 'COMPLETED')).toBeLessThan(300);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED, 'the COMPLETED webhook');
    expect(history(paid)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

    // Held by the platform afterwards (doc 3 §4: RETIDO is CHARGEBACK).
    expect(await veltrax.settle(transaction.transactionId, 'RETIDO')).toBeLessThan(300);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_CHARGEBACK, 'the RETIDO webhook');
    // Every call after the first login carried its token: one login served them all.
    expect(veltrax.count('POST', '/api/auth/login')).toBe(1);
  });

  it("keeps the fee the deposit's COMPLETED webhook states (doc 3 §4's fee), in the statement as the provider's", async () => {
    const feesAccount = (await createAccount('Veltrax fees', CLIENT_SECRET)).id;
    const { transaction } = await charge({ customer: ANA }, feesAccount, 'charge-vx-fee');
    expect(await veltrax.settle(transaction.transactionId, 'COMPLETED')).toBeLessThan(300);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED, 'the COMPLETED webhook');
    const fee = Math.round(Number(veltrax.transactions.get(transaction.transactionId)!.fee) * 100);
    expect(fee).toBeGreaterThan(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const { days } = await stack.client.call(
      'accounts',
      'getAccountStatement',
      GetAccountStatementRequest.fromPartial({ providerAccountId: feesAccount, fromDay: today, toDay: today }),
    );
    expect(days).toEqual([expect.objectContaining({ chargesCount: 1, chargesAmount: 1990, feesAmount: fee, feesReportedCount: 1 })]);
  });

  it('a webhook claiming COMPLETED for a deposit the platform still holds PENDING moves nothing (the read says PENDING)', async () => {
    const { transaction } = await charge({ customer: ANA });
    const reads = veltrax.count('GET', '/api/payments/{id}');
    expect(await veltrax.forge(transaction.transactionId, 'COMPLETED')).toBeLessThan(500);
    await eventually(async () => veltrax.count('GET', '/api/payments/{id}') > reads, 10_000, 'the confirming read');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    await veltrax.settle(transaction.transactionId, 'COMPLETED');
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED, 'the genuine webhook');
  });

  it.each([
    ['ana@example.com', 'ana@example.com', 'EMAIL'],
    ['529.982.247-25', '52998224725', 'CPF'],
    ['11.222.333/0001-81', '11222333000181', 'CNPJ'],
    ['(11) 3456-7890', '1134567890', 'PHONE'],
  ])('a payout to %s without a key type goes out as the specification infers it (%s, %s), in reais, with "Saque solicitado"', async (key, sent, type) => {
    const { withdrawal: created } = await payout({ pixKey: key }, accountId, `payout-${sent}`);
    expect(created).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    expect(veltrax.transactions.get(created.withdrawId)).toMatchObject({
      type: 'Withdrawal',
      status: 'PROCESSING',
      amount: 25,
      fee: 1.25,
      total: 26.25,
      pix_key: sent,
      key_type: type,
      external_id: `payout-${sent}`,
      description: 'Saque solicitado',
    });
    expect((await withdrawal(created.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
  });

  it('a payout: PROCESSING, then COMPLETED by the webhook (APPROVED); another FAILED (REJECTED); reads agree', async () => {
    const { withdrawal: done } = await payout({ pixKey: 'bruno@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL, description: 'Repasse de março' });
    expect(veltrax.transactions.get(done.withdrawId)).toMatchObject({ key_type: 'EMAIL', description: 'Repasse de março', status: 'PROCESSING' });
    // The platform's first event repeats PROCESSING; the terminal one comes later.
    expect(await veltrax.settle(done.withdrawId, 'PROCESSING')).toBeLessThan(300);
    expect(await veltrax.settle(done.withdrawId, 'COMPLETED')).toBeLessThan(300);
    await eventually(async () => (await withdrawal(done.id)).status === WithdrawStatus.WITHDRAW_STATUS_APPROVED, 10_000, 'the COMPLETED webhook');
    expect((await withdrawal(done.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);

    const { withdrawal: failed } = await payout({ pixKey: '529.982.247-25', amount: 1000, withdrawReference: 'saque-falho' });
    expect(await veltrax.settle(failed.withdrawId, 'FAILED')).toBeLessThan(300);
    await eventually(async () => (await withdrawal(failed.id)).status === WithdrawStatus.WITHDRAW_STATUS_REJECTED, 10_000, 'the failed payout');
  });

  it('a random key (inferred RANDOM, doc 3 §5) is a key type the platform does not list: its refusal reaches the caller', async () => {
    const before = [...veltrax.transactions.values()].filter((known) => known.type === 'Withdrawal').length;
    const failure = await failureOf(payout({ pixKey: 'c873834c-ed18-4e63-8e5d-90190392b744' }));
    expect(failure.message).toContain('key_type must be one of CPF, CNPJ, EMAIL, PHONE.');
    expect([...veltrax.transactions.values()].filter((known) => known.type === 'Withdrawal')).toHaveLength(before);
  });

  it("a login the platform refuses is 'Falha na autenticação' (doc 3 §8), and nothing else is sent", async () => {
    const wrong = await createAccount('Veltrax wrong secret', 'vx_secret_revoked');
    const deposits = veltrax.count('POST', '/api/payments/deposit');
    expect(await failureOf(charge({ customer: ANA }, wrong.id))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Falha na autenticação' });
    expect(await failureOf(payout({ pixKey: 'ana@example.com' }, wrong.id))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Falha na autenticação' });
    expect(veltrax.count('POST', '/api/payments/deposit')).toBe(deposits);
  });

  it("two charges for one order, two payouts with one reference: each is the platform's own (its external_id is unique and idempotent)", async () => {
    const first = (await charge({ customer: ANA, orderId: 'order-vx-twice' }, accountId, 'charge-twice-1')).transaction;
    expect(veltrax.transactions.get(first.transactionId)!.external_id).toBe('charge-twice-1');
    await veltrax.settle(first.transactionId, 'COMPLETED');
    await becomes(first.id, TransactionStatus.TRANSACTION_STATUS_APPROVED, 'the first charge paid');
    // The first PIX paid, the order is charged again: a new deposit, unpaid, with a code of its own.
    const second = (await charge({ customer: ANA, orderId: 'order-vx-twice' }, accountId, 'charge-twice-2')).transaction;
    expect(second.transactionId).not.toBe(first.transactionId);
    expect(second).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, orderId: 'order-vx-twice' });
    expect(second.pixCode).not.toBe(first.pixCode);
    expect(veltrax.transactions.get(second.transactionId)).toMatchObject({ status: 'PENDING', external_id: 'charge-twice-2' });

    const one = (await payout({ pixKey: 'ana@example.com', withdrawReference: 'repasse-abril', amount: 1001 })).withdrawal;
    await veltrax.settle(one.withdrawId, 'COMPLETED');
    await eventually(async () => (await withdrawal(one.id)).status === WithdrawStatus.WITHDRAW_STATUS_APPROVED, 10_000, 'the first payout');
    const two = (await payout({ pixKey: 'ana@example.com', withdrawReference: 'repasse-abril', amount: 1001 })).withdrawal;
    expect([two.id, two.withdrawId]).not.toContain(one.id);
    expect(two.withdrawId).not.toBe(one.withdrawId);
    expect(two.status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
    expect(veltrax.transactions.get(two.withdrawId)).toMatchObject({ status: 'PROCESSING', amount: 10.01, fee: 0.5, total: 10.51 });
  });

  it('refunds are not offered (doc 3 §8): refused before anything is sent', async () => {
    const { transaction } = await charge({ customer: ANA });
    await veltrax.settle(transaction.transactionId, 'COMPLETED');
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED, 'the COMPLETED webhook');
    const before = veltrax.received.length;
    expect(
      await failureOf(
        stack.client.call(
          'gateway',
          'refoundTransaction',
          RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 500 }),
        ),
      ),
    ).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(veltrax.received.length).toBe(before);
  });
});
