import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { WITETEC } from '../../server/providers/witetec/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { todaysStatement } from '../support/statement.js';
import { WITETEC_SOURCES, startWitetecStandIn, type WitetecStandIn } from './witetec.js';

/**
 * WITETEC's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from Witetec's official SDK
 * (tests/standins/witetec.ts), on an account speaking the SDK's dialect
 * (api_version `public`): PIX charges with the customer and items the SDK
 * requires, their reads, payouts and their reads with the charges' API key
 * (the SDK has no payout login), and the SDK's flat webhook events moving the
 * statuses. The SDK carries no card data and no signature, and offers no
 * refund: no card charge and no forged event are driven here, and a refund is
 * refused before anything is sent.
 */

const API_KEY = 'sk_6b0e51c9a2f84d37be1c0a5d9e3f7a21';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };

let stack: TestStack;
let witetec: WitetecStandIn;
let accountId: string;

const createAccount = async (name: string, secretKey: string) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'WITETEC',
      name,
      publicKey: '',
      secretKey,
      baseUrl: witetec.url,
      apiVersion: 'public',
    })
  ).providerAccount;

beforeAll(async () => {
  stack = await startTestStack();
  witetec = await startWitetecStandIn({ apiKeys: [API_KEY] });
  const account = await createAccount('Witetec stand-in', API_KEY);
  accountId = account.id;
  // The merchant registers the gateway's notification URL on Witetec's panel (payout events go there).
  witetec.registerWebhook(account.notificationUrl);
});

afterEach(() => {
  // Every request the gateway made is one the SDK documents, and the stand-in never failed on one.
  expect(witetec.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(witetec.crashed).toEqual([]);
});

afterAll(async () => {
  await witetec?.close();
  await stack?.close();
});

const charge = (transaction: Record<string, unknown>, providerAccountId = accountId) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId, transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, ...transaction } }),
  );
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const becomes = (id: string, status: TransactionStatus) =>
  eventually(async () => {
    const current = await read(id);
    return current.status === status && current;
  });
const payout = (withdraw: Record<string, unknown>) =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({ providerAccountId: accountId, withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, ...withdraw } }),
  );
const readPayout = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;
const payoutBecomes = (id: string, status: WithdrawStatus) =>
  eventually(async () => {
    const current = await readPayout(id);
    return current.status === status && current;
  });
const history = (subject: { statusHistory: Array<{ status: number; source: number }> }) =>
  subject.statusHistory.map((change) => [change.status, change.source]);

describe("WITETEC against a stand-in written from Witetec's SDK", () => {
  it('declares the SDK it was verified against', () => {
    expect(WITETEC.evidence).toEqual({ level: 'documented', addresses: WITETEC_SOURCES });
    expect(witetec.sources).toEqual(WITETEC_SOURCES);
  });

  it('PIX: POST /transactions in cents with customer, items and metadata; PENDING with its BR Code; TRANSACTION_PAID approves it', async () => {
    const { transaction } = await charge({
      customer: ANA,
      orderId: 'pedido-00123',
      items: [{ id: 'plan-premium-monthly', title: 'Acesso Premium — 1 mês', unitPrice: 1990, quantity: 1, tangible: false }],
    });
    expect(transaction).toMatchObject({ provider: 'WITETEC', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const atWitetec = witetec.charges.get(transaction.transactionId)!;
    expect(atWitetec).toMatchObject({
      amount: 1990,
      method: 'PIX',
      status: 'PENDING',
      customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', documentType: 'CPF', document: '12345678909' },
      items: [{ title: 'Acesso Premium — 1 mês', amount: 1990, quantity: 1, tangible: false, externalRef: 'plan-premium-monthly' }],
      metadata: { sellerExternalRef: 'pedido-00123' },
    });
    expect(transaction.pixCode).toBe(atWitetec.pix.copyPaste);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    // The answer's own expiry (the next midnight in Brasília), not a default.
    expect(transaction.expiresAt?.toISOString()).toBe(atWitetec.pix.expirationDate);
    // The key went in a header on every call (the SDK leaves the header's name to its caller).
    expect(witetec.keyHeaders.length).toBeGreaterThan(0);

    expect(await witetec.pay(transaction.transactionId)).toEqual([200]);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    // The event's (and the read's) `end2endId`: the PIX's end-to-end id, shown on the charge.
    expect(paid.pixEndToEndId).toBe(witetec.charges.get(transaction.transactionId)!.end2endId);
    expect(paid.pixEndToEndId).toMatch(/^E\d{10}/);
    expect(history(paid)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // Read from Witetec on demand (GET /transactions/{id}): the same status, nothing moved twice.
    const reads = witetec.count('GET', '/transactions/{id}');
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, statusHistory: paid.statusHistory });
    expect(witetec.count('GET', '/transactions/{id}')).toBe(reads + 1);
  });

  it('the events TRANSACTION_REFUNDED, _CHARGEDBACK, _DISPUTE and _FAILED move the charge; an unknown event is ignored', async () => {
    const refunded = (await charge({ customer: ANA })).transaction;
    await witetec.pay(refunded.transactionId);
    await becomes(refunded.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(await witetec.settle(refunded.transactionId, 'REFUNDED')).toEqual([200]);
    await becomes(refunded.id, TransactionStatus.TRANSACTION_STATUS_REFUNDED);

    const chargedBack = (await charge({ customer: { ...ANA, document: '11.222.333/0001-81' }, amount: 25_000 })).transaction;
    expect(witetec.charges.get(chargedBack.transactionId)!.customer).toMatchObject({ documentType: 'CNPJ', document: '11222333000181' });
    await witetec.pay(chargedBack.transactionId);
    await becomes(chargedBack.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    await witetec.settle(chargedBack.transactionId, 'CHARGEDBACK');
    await becomes(chargedBack.id, TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);

    const disputed = (await charge({ customer: ANA })).transaction;
    await witetec.pay(disputed.transactionId);
    await becomes(disputed.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    await witetec.settle(disputed.transactionId, 'DISPUTE');
    await becomes(disputed.id, TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);

    const failed = (await charge({ customer: ANA })).transaction;
    await witetec.settle(failed.transactionId, 'FAILED');
    await becomes(failed.id, TransactionStatus.TRANSACTION_STATUS_REJECTED);

    // An event the SDK does not name is acknowledged and changes nothing.
    const pending = (await charge({ customer: ANA })).transaction;
    const response = await fetch(witetec.charges.get(pending.transactionId)!.postbackUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventType: 'TRANSACTION_SOMETHING_NEW', id: pending.transactionId, status: 'PAID' }),
    });
    expect(response.status).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(pending.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it("a paid charge's fee (`feeAmount`, cents, with `netAmount` the rest) is kept from the read and counted in the statement", async () => {
    const fees = await createAccount('Witetec fees', API_KEY);
    const { transaction } = await charge({ customer: ANA, amount: 2000 }, fees.id);
    // Just created, Witetec answers feeAmount and netAmount 0: no fee yet.
    expect(witetec.charges.get(transaction.transactionId)).toMatchObject({ feeAmount: 0, netAmount: 0 });
    await witetec.pay(transaction.transactionId);
    // The event carries no fee (the SDK's event has none): the read that confirms the unsigned event states it.
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    // The stand-in's rate, 1,99 % + R$ 0,50 of R$ 20,00.
    expect(witetec.charges.get(transaction.transactionId)).toMatchObject({ feeAmount: 90, netAmount: 1910 });
    expect(await todaysStatement(stack, fees.id)).toEqual([
      expect.objectContaining({ chargesCount: 1, chargesAmount: 2000, feesAmount: 90, feesReportedCount: 1 }),
    ]);
  });

  it('a charge paid without an event is found by reading it (GET /transactions/{id})', async () => {
    const { transaction } = await charge({ customer: ANA });
    witetec.setStatus(transaction.transactionId, 'PAID');
    const refreshed = await read(transaction.id, true);
    expect(refreshed.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(history(refreshed)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_POLL],
    ]);
  });

  it.each([
    ['WAITING_PAYMENT', 'PENDING'],
    ['PROCESSING', 'PENDING'],
    ['AUTHORIZED', 'APPROVED'],
    ['REFUSED', 'REJECTED'],
  ] as const)('the SDK status %s, read on demand, is %s', async (status, expected) => {
    const { transaction } = await charge({ customer: ANA });
    witetec.setStatus(transaction.transactionId, status);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus[`TRANSACTION_STATUS_${expected}`]);
  });

  it('a paid charge BLOCKED at Witetec (money held), read on demand, is CHARGEBACK', async () => {
    const { transaction } = await charge({ customer: ANA });
    await witetec.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    witetec.setStatus(transaction.transactionId, 'BLOCKED');
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
  });

  it('a charge without the customer the SDK requires (name, email, phone, document) is refused before anything is sent', async () => {
    const posts = witetec.count('POST', '/transactions');
    expect(await failureOf(charge({}))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('transaction.customer') });
    expect(await failureOf(charge({ customer: { ...ANA, email: '' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.customer.email'),
    });
    expect(await failureOf(charge({ customer: { ...ANA, phone: '' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.customer.phone'),
    });
    expect(witetec.count('POST', '/transactions')).toBe(posts);
  });

  it("Witetec's refusal of an unknown key reaches the caller as the creation's failure", async () => {
    const wrong = await createAccount('Witetec wrong key', 'sk_revoked_0000000000000000');
    expect(await failureOf(charge({ customer: ANA }, wrong.id))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao criar transação: Chave de API ausente ou inválida',
    });
  });

  it.each([
    ['ana@example.com', 'EMAIL', 'ana@example.com', 'EMAIL'],
    ['(11) 98765-4321', 'PHONE', '11987654321', 'PHONE'],
    ['123.456.789-09', 'CPF', '12345678909', 'CPF'],
    ['12.345.678/0001-99', 'CNPJ', '12345678000199', 'CNPJ'],
    ['c873834c-ed18-4e63-8e5d-90190392b744', 'RANDOM', 'c873834c-ed18-4e63-8e5d-90190392b744', 'EVP'],
  ] as const)(
    'pays out to %s (%s): POST /withdrawals with pixKey %s, pixKeyType %s, in cents; WITHDRAWAL_PAID approves it',
    async (key, type, pixKey, pixKeyType) => {
      const { withdrawal } = await payout({ amount: 1050, pixKey: key, pixType: PixKeyType[`PIX_KEY_TYPE_${type}`] });
      expect([withdrawal.status, Number(withdrawal.amount)]).toEqual([WithdrawStatus.WITHDRAW_STATUS_PENDING, 1050]);
      expect(witetec.withdrawals.get(withdrawal.withdrawId)).toMatchObject({ amount: 1050, pixKey, pixKeyType, method: 'PIX', status: 'PENDING' });

      // A processing event keeps it pending; the paid one approves it.
      await witetec.settlePayout(withdrawal.withdrawId, 'PROCESSING');
      expect(await witetec.settlePayout(withdrawal.withdrawId, 'PAID')).toEqual([200]);
      const paid = await payoutBecomes(withdrawal.id, WithdrawStatus.WITHDRAW_STATUS_APPROVED);
      expect(history(paid)).toEqual([
        [WithdrawStatus.WITHDRAW_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
        [WithdrawStatus.WITHDRAW_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
      ]);
    },
  );

  it('a payout read from Witetec (GET /withdrawals/{id}); WITHDRAWAL_REJECTED and WITHDRAWAL_CANCELED end others', async () => {
    const { withdrawal } = await payout({ amount: 700, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL });
    const reads = witetec.count('GET', '/withdrawals/{id}');
    expect((await readPayout(withdrawal.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
    expect(witetec.count('GET', '/withdrawals/{id}')).toBe(reads + 1);

    await witetec.settlePayout(withdrawal.withdrawId, 'REJECTED');
    await payoutBecomes(withdrawal.id, WithdrawStatus.WITHDRAW_STATUS_REJECTED);

    const canceled = (await payout({ amount: 800, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL })).withdrawal;
    await witetec.settlePayout(canceled.withdrawId, 'CANCELED');
    await payoutBecomes(canceled.id, WithdrawStatus.WITHDRAW_STATUS_CANCELED);
  });

  it('refunds are not offered (the SDK has none): refused before anything is sent', async () => {
    const { transaction } = await charge({ customer: ANA });
    await witetec.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const before = witetec.received.length;
    expect(
      await failureOf(
        stack.client.call(
          'gateway',
          'refoundTransaction',
          RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 0 }),
        ),
      ),
    ).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(witetec.received.length).toBe(before);
  });

  it('every call carried the account key in one and the same header', () => {
    expect(new Set(witetec.keyHeaders).size).toBe(1);
  });
});
