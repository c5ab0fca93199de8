import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { REFLOW2 } from '../../server/providers/reflow2/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { REFLOW2_SOURCES, startReflow2StandIn, type Reflow2StandIn } from './reflow2.js';

/**
 * REFLOW2's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from the documentation of the
 * white-label platform Reflow2 runs on (IntegraPay / SafePayments;
 * tests/standins/reflow2.ts): a PIX cash-in with its payer, read back, paid and
 * given back by the platform's webhooks (unsigned, so each claim is confirmed by
 * GET /transaction/get/by/id/{id}); a forged webhook that moves nothing; PIX
 * cash-outs settled and failed by their transfer webhooks; the platform's
 * refusals (a wrong key, no active acquirer) reaching the caller with the
 * fourth group's texts; what the platform requires refused before anything is
 * sent; no refund and no card (PIX only, §5).
 */

const API_KEY = 'rf2_live_8c1f4a7e2d9b3065';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };

let stack: TestStack;
let platform: Reflow2StandIn;
let accountId: string;

const createAccount = async (name: string, secretKey: string) =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider: 'REFLOW2', name, secretKey, baseUrl: platform.url })).providerAccount;

beforeAll(async () => {
  stack = await startTestStack();
  platform = await startReflow2StandIn({ apiKey: API_KEY });
  const account = await createAccount('Reflow2 stand-in', API_KEY);
  accountId = account.id;
  // Records created without a postback URL would go to the dashboard's webhook: the gateway's URL there too.
  platform.registerWebhook(account.notificationUrl);
}, 60_000);

afterEach(() => {
  // Every request the gateway made is one the platform documents, and the stand-in never failed on one.
  expect(platform.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(platform.crashed).toEqual([]);
});

afterAll(async () => {
  await platform?.close();
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
  eventually(
    async () => {
      const current = await read(id);
      return current.status === status && current;
    },
    15_000,
    `transaction ${id} in status ${status}`,
  );
const history = (subject: { statusHistory: Array<{ status: number; source: number }> }) =>
  subject.statusHistory.map((change) => [change.status, change.source]);

const payout = (withdraw: Record<string, unknown>, providerAccountId = accountId) =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({ providerAccountId, withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, ...withdraw } }),
  );
const readPayout = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;
const payoutBecomes = (id: string, status: WithdrawStatus) =>
  eventually(
    async () => {
      const current = await readPayout(id);
      return current.status === status && current;
    },
    15_000,
    `payout ${id} in status ${status}`,
  );
const TO_ANA = {
  pixKey: 'ana@example.com',
  pixType: PixKeyType.PIX_KEY_TYPE_EMAIL,
  name: 'Ana Souza',
  email: 'ana@example.com',
  document: '123.456.789-09',
};

const LOOKUP = '/transaction/get/by/id/{id}';

describe("REFLOW2 against a stand-in written from its platform's documentation (IntegraPay)", () => {
  it('declares the platform documentation it was verified against', () => {
    expect(REFLOW2.evidence).toEqual({ level: 'platform', addresses: [...REFLOW2_SOURCES] });
    expect(platform.sources).toEqual(REFLOW2_SOURCES);
  });

  it('PIX: a cash-in with its payer, read back; paid, and the webhook (confirmed by a read) moves it to APPROVED', async () => {
    const { transaction } = await charge({
      customer: ANA,
      orderId: 'pedido-rf2-1',
      items: [{ id: 'i1', title: 'Curso de violão', unitPrice: 1990, quantity: 1 }],
    });
    expect(transaction).toMatchObject({ provider: 'REFLOW2', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const record = platform.records.get(transaction.transactionId)!;
    expect(record).toMatchObject({ object: 'cashin', value: 1990, orderId: 'pedido-rf2-1', status: 'created' });
    expect(record.cashIn).toMatchObject({
      payerName: 'Ana Souza',
      payerDocument: '12345678909',
      payerEmail: 'ana@example.com',
      payerPhone: '11987654321',
      productName: 'Curso de violão',
    });
    expect(record.postbackUrl).toMatch(/^http:\/\//);
    expect(transaction.pixCode).toBe(record.cashIn!.qrCode);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    const reads = platform.count('GET', LOOKUP);
    expect(await platform.pay(transaction.transactionId)).toEqual([200]);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    // Unsigned: the gateway asked the platform before approving.
    expect(platform.count('GET', LOOKUP)).toBeGreaterThan(reads);
    // The webhook's endToEndId and payer (the Webhooks page's example: no bank name) are the charge's PIX payment.
    expect(paid.pixEndToEndId).toBe(platform.records.get(transaction.transactionId)!.endToEndId);
    expect(paid.pixPayer).toEqual({ name: 'Fulano Pagador', document: '80683806556', bankIspb: '18236120', bankName: '' });
    expect(history(paid)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 1990 });
  });

  it("a paid cash-in given back at the platform (its 'refund' webhook) is a CHARGEBACK (§4)", async () => {
    const { transaction } = await charge({ customer: ANA, description: 'Assinatura mensal', amount: 4990 });
    expect(platform.records.get(transaction.transactionId)!.cashIn).toMatchObject({
      productName: 'Assinatura mensal',
      productDescription: 'Assinatura mensal',
    });
    await platform.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(await platform.move(transaction.transactionId, 'refund')).toEqual([200]);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
  });

  it('a forged paid webhook moves nothing (the read says created); the genuine one then approves', async () => {
    const { transaction } = await charge({ customer: ANA });
    const reads = platform.count('GET', LOOKUP);
    expect(await platform.forge(transaction.transactionId, 'paid')).toEqual([200]);
    await eventually(async () => platform.count('GET', LOOKUP) > reads, 10_000, 'the read that checks the forged claim');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    await platform.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('PIX cash-out: the numeric key type, the payee and the placeholder phone (§9); created "0", read, settled by its transfer webhook', async () => {
    const { withdrawal } = await payout({ ...TO_ANA, withdrawReference: 'saque-rf2-1' });
    expect(withdrawal).toMatchObject({ provider: 'REFLOW2', status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    const record = platform.records.get(withdrawal.withdrawId)!;
    expect(record).toMatchObject({ object: 'transfer', value: 2500, orderId: 'saque-rf2-1', status: 'created' });
    expect(record.cashOut).toEqual({
      pixKeyType: 2,
      pixKey: 'ana@example.com',
      cpfCnpj: '12345678909',
      person: { name: 'Ana Souza', email: 'ana@example.com', phone: '11999999999' },
    });
    expect(record.postbackUrl).toMatch(/^http:\/\//);
    expect(await readPayout(withdrawal.id, true)).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });

    const reads = platform.count('GET', LOOKUP);
    expect(await platform.settleTransfer(withdrawal.withdrawId)).toEqual([200]);
    const settled = await payoutBecomes(withdrawal.id, WithdrawStatus.WITHDRAW_STATUS_APPROVED);
    expect(platform.count('GET', LOOKUP)).toBeGreaterThan(reads);
    expect(settled.amount).toBe(2500);
    expect((await readPayout(withdrawal.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);
  });

  it('a cash-out the platform fails (a CPF key, type 0) is REJECTED by its webhook', async () => {
    const { withdrawal } = await payout({
      pixKey: '123.456.789-09',
      pixType: PixKeyType.PIX_KEY_TYPE_CPF,
      name: 'Ana Souza',
      email: 'ana@example.com',
      amount: 1200,
    });
    expect(platform.records.get(withdrawal.withdrawId)!.cashOut).toMatchObject({ pixKeyType: 0, pixKey: '12345678909', cpfCnpj: '12345678909' });
    expect(await platform.move(withdrawal.withdrawId, 'failed')).toEqual([200]);
    await payoutBecomes(withdrawal.id, WithdrawStatus.WITHDRAW_STATUS_REJECTED);
  });

  it("the platform's refusals reach the caller with the fourth group's texts: no active acquirer, a wrong key (§8)", async () => {
    platform.setAcquirer(false);
    try {
      expect(await failureOf(charge({ customer: ANA }))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'Erro na criação da transação PIX: No active acquirer',
      });
    } finally {
      platform.setAcquirer(true);
    }

    const wrong = await createAccount('Reflow2 revoked key', 'rf2_live_revoked');
    expect(await failureOf(charge({ customer: ANA }, wrong.id))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro na criação da transação PIX: Invalid token.',
    });
    expect(await failureOf(payout(TO_ANA, wrong.id))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Erro no saque: Invalid token.' });
  });

  it('what the platform requires (the whole payer; the payee with name and email) is refused before anything is sent', async () => {
    const before = platform.received.length;
    expect(await failureOf(charge({}))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('transaction.customer') });
    expect(await failureOf(charge({ customer: { ...ANA, phone: '' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.customer.phone'),
    });
    expect(await failureOf(charge({ customer: { ...ANA, email: '' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.customer.email'),
    });
    expect(await failureOf(payout({ ...TO_ANA, name: '' }))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('withdraw.name') });
    expect(await failureOf(payout({ ...TO_ANA, email: '' }))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('withdraw.email') });
    expect(platform.received.length).toBe(before);
  });

  it('no refund call and no card (PIX only, §5): refused before anything is sent', async () => {
    const { transaction } = await charge({ customer: ANA });
    const before = platform.received.length;
    expect(
      await failureOf(
        stack.client.call(
          'gateway',
          'refoundTransaction',
          RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 500 }),
        ),
      ),
    ).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(await failureOf(charge({ customer: ANA, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: 'card_1' }))).toMatchObject({
      code: 'UNIMPLEMENTED',
    });
    expect(platform.received.length).toBe(before);
  });
});
