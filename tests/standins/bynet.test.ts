import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { BYNET } from '../../server/providers/members/bynet.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { BYNET_SOURCES, BYNET_USER_AGENT, startByNetStandIn, type ByNetStandIn } from './bynet.js';

/**
 * BYNET's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from ByNet's documentation
 * (tests/standins/bynet.ts, docs.techbynet.com): PIX and boleto charges with
 * the API key and the AtivoB2B user agent, read back; the postback (its
 * `objectId`) moving a charge to paid, confirmed by a read since nothing signs
 * it, and a forged one refused by that read; a refund in part then in full
 * (doc 3 §7's path: the documentation lists none); PIX payouts by
 * POST /api/user/cashout with the page's seven fields, read back and settled
 * or cancelled by their postback; ByNet's refusals (a cash-out without its
 * beneficiary, a wrong API key) reaching the caller under doc 3 §8's prefixes;
 * a card refused before anything is sent (§8).
 */

const API_KEY = 'bynet_api_key_7c1e9f20a4b3';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };

let stack: TestStack;
let bynet: ByNetStandIn;
let accountId: string;

const createAccount = async (name: string, secretKey: string) =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider: 'BYNET', name, secretKey, baseUrl: bynet.baseUrl })).providerAccount;

beforeAll(async () => {
  stack = await startTestStack();
  bynet = await startByNetStandIn({ apiKey: API_KEY });
  accountId = (await createAccount('ByNet stand-in', API_KEY)).id;
}, 60_000);

afterEach(() => {
  // Every request the gateway made is one ByNet's documentation (or doc 3 §7) has a route for, and the stand-in never failed on one.
  expect(bynet.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(bynet.crashed).toEqual([]);
});

afterAll(async () => {
  await bynet?.close();
  await stack?.close();
});

const charge = async (transaction: Record<string, unknown>, providerAccountId = accountId) =>
  (
    await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId,
        transaction: { customer: ANA, amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, ...transaction },
      }),
    )
  ).transaction;
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const becomes = (id: string, status: TransactionStatus) =>
  eventually(async () => {
    const current = await read(id);
    return current.status === status && current;
  });
const refund = (id: string, amount: number, idempotencyKey: string) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));
const payout = async (withdraw: Record<string, unknown>, providerAccountId = accountId) =>
  (
    await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId,
        withdraw: {
          paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX,
          amount: 2500,
          pixKey: '123.456.789-09',
          pixType: PixKeyType.PIX_KEY_TYPE_CPF,
          name: 'Ana Souza',
          document: '123.456.789-09',
          ...withdraw,
        },
      }),
    )
  ).withdrawal;
const readPayout = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;
const payoutBecomes = (id: string, status: WithdrawStatus) =>
  eventually(async () => {
    const current = await readPayout(id);
    return current.status === status && current;
  });
const history = (subject: { statusHistory: Array<{ status: number; source: number }> }) =>
  subject.statusHistory.map((change) => [change.status, change.source]);
const lastRequest = (method: string, path: string) => [...bynet.received].reverse().find((request) => request.method === method && request.path === path)!;

describe("BYNET against a stand-in written from ByNet's documentation", () => {
  it('declares the documentation it was verified against', () => {
    expect(BYNET.evidence).toEqual({ level: 'documented', addresses: BYNET_SOURCES });
    expect(bynet.sources).toEqual(BYNET_SOURCES);
  });

  it('PIX: created with the API key and the AtivoB2B user agent, valid 2 days; its postback, confirmed by a read, APPROVES it', async () => {
    const created = await charge({ orderId: 'pedido-77', description: 'Curso de violão' });
    expect(created).toMatchObject({ provider: 'BYNET', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const sent = lastRequest('POST', '/api/user/transactions');
    expect(sent.headers).toMatchObject({ 'x-api-key': API_KEY, 'user-agent': BYNET_USER_AGENT });
    expect(sent.body).toMatchObject({ amount: 1990, pix: { expiresInDays: 2 }, customer: { name: 'Ana Souza', document: { number: '12345678909' } } });
    const atByNet = bynet.transactions.get(created.transactionId)!;
    expect(atByNet).toMatchObject({ amount: 1990, paymentMethod: 'pix', status: 'pending', externalRef: 'pedido-77' });
    expect(created.pixCode).toBe(atByNet.pix!.qrcode);
    expect(brCodeCrcIsValid(created.pixCode)).toBe(true);
    expect(created.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(created.expiresAt).toEqual(new Date(atByNet.pix!.expirationDate));
    expect((await read(created.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    const reads = bynet.count('GET', '/api/user/transactions/{id}');
    expect(await bynet.pay(created.transactionId)).toEqual([200]);
    const paid = await becomes(created.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(history(paid)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // Nothing signs the postback: the gateway asked ByNet before approving.
    expect(bynet.count('GET', '/api/user/transactions/{id}')).toBeGreaterThan(reads);
  });

  it("boleto: its line, URL and ByNet's expiry date, asked for 7 days (doc 3 §9)", async () => {
    const created = await charge({ amount: 123_456, paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET });
    expect(lastRequest('POST', '/api/user/transactions').body).toMatchObject({ amount: 123_456, boleto: { expiresInDays: 7 } });
    const atByNet = bynet.transactions.get(created.transactionId)!;
    expect(created).toMatchObject({
      status: TransactionStatus.TRANSACTION_STATUS_PENDING,
      amount: 123_456,
      billetCode: atByNet.boleto!.digitableLine,
      billetUrl: atByNet.boleto!.url,
    });
    expect(created.expiresAt).toEqual(new Date(atByNet.boleto!.expirationDate));
  });

  it('a forged postback claiming paid is refused by the read: ByNet still says pending', async () => {
    const created = await charge({});
    const reads = bynet.count('GET', '/api/user/transactions/{id}');
    expect(await bynet.forge(created.transactionId, 'paid')).toEqual([200]);
    await eventually(async () => bynet.count('GET', '/api/user/transactions/{id}') > reads);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(created.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    await bynet.pay(created.transactionId);
    await becomes(created.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('refunds part, then the rest (doc 3 §7); the full refund is REFUNDED and its postback agrees', async () => {
    const created = await charge({ amount: 7000 });
    await bynet.pay(created.transactionId);
    await becomes(created.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);

    const partial = await refund(created.id, 2500, 'bynet-refund-1');
    expect(partial.refund.status).toBe(true);
    expect(partial.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(lastRequest('POST', `/api/user/transactions/${created.transactionId}/refund`).body).toEqual({ amount: 2500 });
    expect(bynet.transactions.get(created.transactionId)).toMatchObject({ refundedAmount: 2500, status: 'paid' });

    const rest = await refund(created.id, 4500, 'bynet-refund-2');
    expect(rest.refund.status).toBe(true);
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(bynet.transactions.get(created.transactionId)).toMatchObject({ refundedAmount: 7000, status: 'refunded' });
    await eventually(async () => bynet.refundPostbacks.length > 0 && bynet.refundPostbacks);
    expect(bynet.refundPostbacks).toEqual([200]);
    expect((await read(created.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it("pays out by POST /api/user/cashout with the page's seven fields; read back; its postback, confirmed by a read, APPROVES it", async () => {
    const withdrawal = await payout({ description: 'Repasse de maio' });
    expect(withdrawal).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    const sent = lastRequest('POST', '/api/user/cashout');
    expect(sent.headers).toMatchObject({ 'x-api-key': API_KEY, 'user-agent': BYNET_USER_AGENT });
    expect(sent.body).toMatchObject({
      amount: 2500,
      pixKey: '12345678909',
      pixType: 'CPF',
      beneficiaryName: 'Ana Souza',
      beneficiaryDocument: '12345678909',
      description: 'Repasse de maio',
      postbackUrl: expect.stringMatching(/^http/),
    });
    expect(bynet.cashouts.get(withdrawal.withdrawId)).toMatchObject({ status: 'PENDING', amount: 2500, fee: 50 });
    expect((await readPayout(withdrawal.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);

    const reads = bynet.count('GET', '/api/user/cashout/{id}');
    expect(await bynet.settleCashout(withdrawal.withdrawId, 'APPROVED')).toEqual([200]);
    const settled = await payoutBecomes(withdrawal.id, WithdrawStatus.WITHDRAW_STATUS_APPROVED);
    expect(settled.amount).toBe(2500);
    expect(bynet.count('GET', '/api/user/cashout/{id}')).toBeGreaterThan(reads);
  });

  it('a payout ByNet cancels is CANCELED (doc 3 §4), by its postback; an e-mail key goes as EMAIL with the default description', async () => {
    const withdrawal = await payout({ amount: 1200, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL });
    expect(lastRequest('POST', '/api/user/cashout').body).toMatchObject({ pixKey: 'ana@example.com', pixType: 'EMAIL', description: expect.any(String) });
    await bynet.settleCashout(withdrawal.withdrawId, 'CANCELLED');
    await payoutBecomes(withdrawal.id, WithdrawStatus.WITHDRAW_STATUS_CANCELED);
  });

  it("ByNet's refusals reach the caller with its own message: a cash-out without its beneficiary, a wrong API key", async () => {
    expect(await failureOf(payout({ name: '', document: '' }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro no saque: beneficiaryName é obrigatório.',
    });
    expect(bynet.count('POST', '/api/user/cashout')).toBeGreaterThan(0);

    const wrong = await createAccount('ByNet wrong key', 'bynet_revoked_key');
    expect(await failureOf(charge({}, wrong.id))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Erro ao criar transação: API Key inválida ou ausente.' });
    expect(await failureOf(payout({}, wrong.id))).toEqual({ code: 'FAILED_PRECONDITION', message: 'Erro no saque: API Key inválida ou ausente.' });
  });

  it("refuses a card with 'Payment method CREDIT_CARD not implemented for ByNet' (doc 3 §8) before anything is sent", async () => {
    const before = bynet.received.length;
    expect(await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: 'card_1' }))).toMatchObject({
      code: 'UNIMPLEMENTED',
      message: 'Payment method CREDIT_CARD not implemented for ByNet',
    });
    expect(bynet.received).toHaveLength(before);
  });
});
