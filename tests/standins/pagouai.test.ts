import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { PAGOUAI } from '../../server/providers/members/pagouai.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { PAGOUAI_SOURCES, startPagouaiStandIn, type PagouaiStandIn } from './pagouai.js';

/**
 * PAGOUAI's acceptance test for its api_version `v2`: the whole gateway,
 * through its public gRPC contract, against a stand-in written from Pagou.ai's
 * API v2 documentation (tests/standins/pagouai.ts): PIX, boleto (voucher) and
 * card (Pagou.ai's token) charges with the buyer and products it requires,
 * reads, partial and full refunds by PUT with one Idempotency-Key per refund,
 * its transaction webhook moving the status (unsigned: confirmed by a read),
 * and its refusals reaching the caller. PAGOUAI offers no payouts (§7).
 */

const TOKEN = 'sk_sandbox_5b0c7e2d91a84f36';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
const ITEMS = [{ id: 'sku-1', title: 'Curso de violão', unitPrice: 1990, quantity: 1, tangible: false }];

let stack: TestStack;
let pagou: PagouaiStandIn;
let accountId: string;

const createAccount = async (name: string, secretKey: string) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'PAGOUAI',
      name,
      publicKey: '',
      secretKey,
      // The specification's `/v1` base, as the default has it: v2 is at the host's root all the same.
      baseUrl: `${pagou.url}/v1`,
      apiVersion: 'v2',
    })
  ).providerAccount;

beforeAll(async () => {
  stack = await startTestStack();
  pagou = await startPagouaiStandIn({ token: TOKEN });
  accountId = (await createAccount('Pagou.ai v2 stand-in', TOKEN)).id;
});

afterEach(() => {
  // Every request the gateway made is one Pagou.ai documents, and the stand-in never failed on one.
  expect(pagou.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(pagou.crashed).toEqual([]);
});

afterAll(async () => {
  await pagou?.close();
  await stack?.close();
});

const charge = (transaction: Record<string, unknown>, providerAccountId = accountId) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: ANA, items: ITEMS, ...transaction },
    }),
  );
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const refund = (id: string, amount: number, idempotencyKey: string) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));
const becomes = (id: string, status: TransactionStatus) =>
  eventually(async () => {
    const current = await read(id);
    return current.status === status && current;
  });
const history = (transaction: { statusHistory: Array<{ status: number; source: number }> }) =>
  transaction.statusHistory.map((change) => [change.status, change.source]);
const refunds = () => pagou.received.filter((request) => request.method === 'PUT');

describe("PAGOUAI api_version v2 against a stand-in written from Pagou.ai's documentation", () => {
  it('declares the documentation it was verified against', () => {
    expect(PAGOUAI.evidence).toEqual({ level: 'documented', addresses: PAGOUAI_SOURCES });
    expect(pagou.sources).toEqual(PAGOUAI_SOURCES);
  });

  it('PIX: created with buyer and products in cents, its BR Code and QR image; paid, and the webhook (confirmed by a read) moves it to APPROVED', async () => {
    const { transaction } = await charge({ orderId: 'pedido-pix-1' });
    expect(transaction).toMatchObject({ provider: 'PAGOUAI', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const atPagou = pagou.transactions.get(transaction.transactionId)!;
    expect(atPagou).toMatchObject({
      method: 'pix',
      amount: 1990,
      external_ref: 'pedido-pix-1',
      buyer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', document: { type: 'CPF', number: '12345678909' } },
      products: [{ name: 'Curso de violão', price: 1990, quantity: 1 }],
    });
    expect(transaction.pixCode).toBe(atPagou.pix!.qr_code);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);

    const reads = pagou.count('GET', '/v2/transactions/{id}');
    expect(await pagou.pay(transaction.transactionId)).toBe(200);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(history(paid)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // Unsigned: the gateway asked Pagou.ai before approving.
    expect(pagou.count('GET', '/v2/transactions/{id}')).toBeGreaterThan(reads);
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, statusHistory: paid.statusHistory });
  });

  it('refunds: partial then the rest by PUT with the amount in cents, a retry with the same key not refunded twice, REFUNDED at the end', async () => {
    const { transaction } = await charge({ amount: 1000, items: [] });
    await pagou.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);

    const part = await refund(transaction.id, 300, 'pagou-refund-part');
    expect([part.refund.status, part.transaction.status, Number(part.transaction.refundedAmount)]).toEqual([
      true,
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      300,
    ]);
    expect(refunds().at(-1)!.body).toEqual({ amount: 300 });
    const key = refunds().at(-1)!.headers['idempotency-key'];
    expect(key).toBeTruthy();
    const sent = refunds().length;
    expect((await refund(transaction.id, 300, 'pagou-refund-part')).refund).toEqual(part.refund);
    expect(refunds().length).toBe(sent);
    expect(pagou.transactions.get(transaction.transactionId)).toMatchObject({ status: 'partially_refunded', refunded_amount: 300 });

    // More than is left is refused before anything is sent; the rest is refunded.
    expect(await failureOf(refund(transaction.id, 1000, 'pagou-refund-all'))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    const rest = await refund(transaction.id, 700, 'pagou-refund-rest');
    expect([rest.refund.status, rest.transaction.status, Number(rest.transaction.refundedAmount)]).toEqual([
      true,
      TransactionStatus.TRANSACTION_STATUS_REFUNDED,
      1000,
    ]);
    expect(refunds().at(-1)!.headers['idempotency-key']).not.toBe(key);
    expect(pagou.transactions.get(transaction.transactionId)).toMatchObject({ status: 'refunded', refunded_amount: 1000 });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it('a refund of a charge not yet paid is refused before anything is sent', async () => {
    const { transaction } = await charge({});
    const sent = refunds().length;
    expect(await failureOf(refund(transaction.id, 500, 'pagou-refund-unpaid'))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(refunds().length).toBe(sent);
    expect(pagou.transactions.get(transaction.transactionId)).toMatchObject({ status: 'pending', refunded_amount: 0 });
  });

  it('boleto as method voucher with the buyer address: its line, URL and due date; paid by the webhook', async () => {
    const address = { zipCode: '01001-000', address: 'Praça da Sé', number: '1', district: 'Sé', city: 'São Paulo', state: 'SP' };
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET, amount: 12_345, address, items: [] });
    const atPagou = pagou.transactions.get(transaction.transactionId)!;
    expect(atPagou).toMatchObject({ method: 'voucher', amount: 12_345, buyer: { address: { zipCode: '01001000', city: 'São Paulo', country: 'BR' } } });
    expect(transaction).toMatchObject({
      status: TransactionStatus.TRANSACTION_STATUS_PENDING,
      billetCode: atPagou.voucher!.digitable_line,
      billetUrl: atPagou.voucher!.url,
    });
    await pagou.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it("card: charged by Pagou.ai's token with installments, captured; any other card reference refused before sending", async () => {
    const { transaction } = await charge({
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      cardId: 'pgct_4f1a9c',
      installments: 3,
      amount: 5000,
      items: [],
    });
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 5000 });
    expect(pagou.transactions.get(transaction.transactionId)).toMatchObject({ method: 'credit_card', installments: 3, status: 'captured' });
    const posts = pagou.count('POST', '/v2/transactions');
    expect(await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: 'card_not_pagou', installments: 1 }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(pagou.count('POST', '/v2/transactions')).toBe(posts);
  });

  it("Pagou.ai's refusals reach the caller with its message: invalid data (422), a reused external_ref (409), a wrong token (401)", async () => {
    expect(await failureOf(charge({ customer: { ...ANA, email: 'not-an-email' } }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: The request contains invalid data.',
    });
    await charge({ orderId: 'pedido-repetido' });
    expect(await failureOf(charge({ orderId: 'pedido-repetido' }))).toMatchObject({
      message: 'Erro ao criar transação: A transaction with external_ref pedido-repetido already exists.',
    });
    const wrong = await createAccount('Pagou.ai wrong token', 'sk_sandbox_revoked');
    expect(await failureOf(charge({}, wrong.id))).toMatchObject({
      message: 'Erro ao criar transação: Authentication credentials were not provided or are invalid.',
    });
  });

  it('payouts are not offered (§7 names none): refused before anything is sent', async () => {
    const before = pagou.received.length;
    expect(
      await failureOf(
        stack.client.call(
          'gateway',
          'withdraw',
          WithdrawRequest.fromPartial({
            providerAccountId: accountId,
            withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 1000, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
          }),
        ),
      ),
    ).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(pagou.received.length).toBe(before);
  });
});
