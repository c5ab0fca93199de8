import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hasError, parsePix } from 'pix-utils';
import {
  CreateCardTokenRequest,
  CreateReceiverRequest,
  CreateTransactionRequest,
  GetReceiverRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetAccountBalanceRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod, ReceiverStatus, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { isValidDigitableLine } from '../../server/lib/boleto.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { IuguAdapter } from '../../server/providers/families/iugu/index.js';
import { IUGU } from '../../server/providers/members/iugu.js';
import { IUGUBAAS } from '../../server/providers/members/iugubaas.js';
import { bareTransactionInput } from '../providers/conformance/harness.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFileServer, type FileServer } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { IUGU_BASE_PATH, IUGU_SOURCES, IUGU_WITHDRAW_FEEDBACK, startIuguStandIn, type IuguStandIn } from './iugu.js';

/**
 * IUGU's and IUGUBAAS's acceptance test: the whole gateway, through its
 * public gRPC contract, against a stand-in written from Iugu's documentation
 * (tests/standins/iugu.ts): invoices payable with pix, bank_slip and
 * credit_card (a card tokenised by POST /payment_token and charged by POST
 * /charge), reads, refunds by Iugu's rules, sub-accounts as receivers,
 * withdraw requests, and Iugu's form-encoded triggers, with the
 * authorization registered for them, moving the statuses.
 */

const ACCOUNT_ID = '70CA234077134ED0BF2E0E46B0EDC36F';
const API_TOKEN = 'B8D3F4E25A6C4D1E9F0A7B3C2D1E0F9A8B7C6D5E4F3A2B1C0D9E8F7A6B5C4D3E';
/** The `authorization` registered with Iugu's triggers, held as the account's webhook secret. */
const TRIGGER_KEY = 'gatilho-iugu-7f3c9e21b84d4a6f';
const ANA = { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', phone: '(11) 98765-4321' };
const CARD = { cardNumber: '4111111111111111', holderName: 'Ana Maria Souza', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' };
const PDF = Buffer.from('%PDF-1.4 documento');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let stack: TestStack;
let iugu: IuguStandIn;
let files: FileServer;
let account: { id: string; notificationUrl: string };
let baas: string;

/** A merchant's own call to Iugu (not the gateway's): Basic with its API token, as documented. */
async function merchantCall(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${iugu.baseUrl}${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${API_TOKEN}:`).toString('base64')}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const textBody = await response.text();
  return { status: response.status, body: textBody ? JSON.parse(textBody) : undefined };
}

const charge = (providerAccountId: string, transaction: Record<string, unknown>, idempotencyKey?: string) =>
  stack.client.call('gateway', 'createTransaction', CreateTransactionRequest.fromPartial({ providerAccountId, idempotencyKey, transaction }));
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const refund = (providerAccountId: string, id: string, amount: number, idempotencyKey: string) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId, id, amount, idempotencyKey }));
const becomes = (id: string, status: TransactionStatus) =>
  eventually(async () => {
    const current = await read(id);
    return current.status === status && current;
  });
const refundsSent = () => iugu.received.filter((request) => request.method === 'POST' && /\/refund$/.test(request.path));

beforeAll(async () => {
  stack = await startTestStack();
  iugu = await startIuguStandIn({ accountId: ACCOUNT_ID, apiToken: API_TOKEN });
  files = await startFileServer({ '/kyc/rg.png': PNG, '/kyc/selfie.png': PNG, '/kyc/endereco.pdf': PDF, '/kyc/balanco.pdf': PDF });
  const create = async (provider: string) =>
    (
      await stack.client.call('accounts', 'createProviderAccount', {
        provider,
        name: `${provider} against the stand-in`,
        publicKey: ACCOUNT_ID,
        secretKey: API_TOKEN,
        baseUrl: iugu.baseUrl,
        webhookSecret: TRIGGER_KEY,
      })
    ).providerAccount;
  account = await create('IUGU');
  baas = (await create('IUGUBAAS')).id;
  // The merchant registers the withdraw triggers with the gateway's URL and an authorization (POST /v1/web_hooks).
  for (const event of ['withdraw_request.created', 'withdraw_request.status_changed']) {
    const hook = await merchantCall('POST', '/web_hooks', { event, url: account.notificationUrl, authorization: TRIGGER_KEY });
    expect(hook).toMatchObject({ status: 200, body: { event, authorization: TRIGGER_KEY, active: true } });
  }
});

afterAll(async () => {
  await files?.close();
  await iugu?.close();
  await stack?.close();
});

describe("IUGU against a stand-in written from Iugu's documentation", () => {
  it('declares the documentation it was verified against, for both members', () => {
    for (const member of [IUGU, IUGUBAAS]) {
      const evidence = member.evidence;
      const addresses = evidence && 'addresses' in evidence ? evidence.addresses : [];
      expect(evidence?.level).toBe('documented');
      expect(addresses.length).toBeGreaterThan(0);
      for (const address of addresses) expect(IUGU_SOURCES).toContain(address);
    }
    expect(iugu.sources).toEqual(IUGU_SOURCES);
  });

  it("PIX: an invoice with its BR Code, read, paid by Iugu's trigger (confirmed by a read), refunded only in full", async () => {
    const { transaction } = await charge(
      account.id,
      { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: ANA, orderId: 'pix-1' },
      'pix-order-1',
    );
    const invoice = iugu.invoices.get(transaction.transactionId)!;
    expect(invoice).toMatchObject({
      status: 'pending',
      totalCents: 1990,
      payableWith: ['pix'],
      email: 'ana@example.com',
      notificationUrl: account.notificationUrl,
    });
    expect(transaction).toMatchObject({ provider: 'IUGU', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990, pixCode: invoice.pixCode });
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(hasError(parsePix(transaction.pixCode))).toBe(false);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    // Due the next day in Brasília (the spec's 1 day), payable until that day ends.
    expect(transaction.expiresAt).toEqual(new Date(`${invoice.dueDate}T23:59:59-03:00`));
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    const reads = iugu.count('GET', `${IUGU_BASE_PATH}/invoices/{id}`);
    expect(await iugu.pay(transaction.transactionId)).toEqual([200]);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(paid.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // The invoice's notification_url carries no authorization: the gateway asked Iugu before approving.
    expect(iugu.count('GET', `${IUGU_BASE_PATH}/invoices/{id}`)).toBeGreaterThan(reads);

    // Iugu refunds a PIX invoice only in full: a part is refused before anything is sent.
    const sent = refundsSent().length;
    expect(await failureOf(refund(account.id, transaction.id, 500, 'pix-refund-part'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(refundsSent().length).toBe(sent);
    const whole = await refund(account.id, transaction.id, 1990, 'pix-refund-all');
    expect(whole.refund).toEqual({ refundId: transaction.transactionId, status: true });
    expect(whole.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(refundsSent().at(-1)!.body ?? {}).toEqual({});
    expect(iugu.invoices.get(transaction.transactionId)).toMatchObject({ status: 'refunded', refundedCents: 1990 });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it('boleto: its digitable line and PDF, paid by the trigger; Iugu refunds no boleto, so none is asked for', async () => {
    const { transaction } = await charge(account.id, {
      amount: 25_000,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET,
      customer: ANA,
      description: 'Mensalidade',
    });
    const invoice = iugu.invoices.get(transaction.transactionId)!;
    expect(invoice).toMatchObject({ payableWith: ['bank_slip'], payer: expect.objectContaining({ name: 'Ana Souza', cpf_cnpj: '12345678909' }) });
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 25_000 });
    expect(isValidDigitableLine(transaction.billetCode)).toBe(true);
    expect(transaction.billetUrl).toMatch(/^https:\/\/faturas\.iugu\.com\/.+\.pdf$/);
    expect(await iugu.pay(transaction.transactionId)).toEqual([200]);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect((await read(transaction.id, true)).paymentMethod).toBe(PaymentMethod.PAYMENT_METHOD_BILLET);

    const sent = refundsSent().length;
    expect(await failureOf(refund(account.id, transaction.id, 25_000, 'boleto-refund'))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(refundsSent().length).toBe(sent);
    expect(Number((await read(transaction.id)).refundedAmount)).toBe(0);
  });

  it('card: tokenised without the API token, charged on its invoice in 3 instalments, refunded in part and then the rest', async () => {
    const { cardToken } = await stack.client.call(
      'gateway',
      'createCardToken',
      CreateCardTokenRequest.fromPartial({ providerAccountId: account.id, card: CARD }),
    );
    const tokenRequest = iugu.received.find((request) => request.path === `${IUGU_BASE_PATH}/payment_token`)!;
    expect([tokenRequest.headers.authorization, (tokenRequest.body as { account_id: string }).account_id]).toEqual([undefined, ACCOUNT_ID]);

    const { transaction } = await charge(account.id, {
      amount: 5000,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      cardId: cardToken,
      installments: 3,
      customer: ANA,
      description: 'Curso Online',
    });
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 5000 });
    expect(iugu.invoices.get(transaction.transactionId)).toMatchObject({
      status: 'paid',
      paymentMethod: 'iugu_credit_card',
      months: 3,
      payableWith: ['credit_card'],
    });

    const part = await refund(account.id, transaction.id, 2000, 'card-refund-part');
    expect([part.refund.status, part.transaction.status, Number(part.transaction.refundedAmount)]).toEqual([
      true,
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      2000,
    ]);
    expect(refundsSent().at(-1)!.body).toEqual({ partial_value_refund_cents: 2000 });
    const rest = await refund(account.id, transaction.id, 3000, 'card-refund-rest');
    expect([rest.refund.status, rest.transaction.status, Number(rest.transaction.refundedAmount)]).toEqual([
      true,
      TransactionStatus.TRANSACTION_STATUS_REFUNDED,
      5000,
    ]);
    expect(iugu.invoices.get(transaction.transactionId)).toMatchObject({ status: 'refunded', refundedCents: 5000 });
  });

  it("card: Iugu's failing test card is declined (REJECTED, an outcome, its LR the reason), and its single-use token cannot be charged again", async () => {
    const { cardToken } = await stack.client.call(
      'gateway',
      'createCardToken',
      CreateCardTokenRequest.fromPartial({ providerAccountId: account.id, card: { ...CARD, cardNumber: '4012888888881881' } }),
    );
    const card = { amount: 1500, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: cardToken, customer: ANA };
    const declined = await charge(account.id, card);
    expect(declined.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
    // The charge's LR (Tabela de LRs) is the decline's reason, read into the gateway's category; its message the text.
    expect([declined.transaction.declineReason, declined.transaction.declineCategory]).toEqual(['05', 'card_declined']);
    expect(declined.transaction.declineMessage).toBe('Transação negada');
    expect(iugu.invoices.get(declined.transaction.transactionId)!.status).toBe('pending');
    expect(await failureOf(charge(account.id, card))).toEqual({ code: 'INVALID_ARGUMENT', message: 'Erro ao criar transação: token: já foi utilizado' });
  });

  it('an invoice created twice with one key (a resend after a lost answer) is one invoice at Iugu, and a card charged once', async () => {
    // The adapter as the gateway runs it, twice with one key, as a resend after a lost answer would.
    const adapter = new IuguAdapter(IUGU, { retry: false });
    const ctx: AdapterContext = {
      accountId: 'direct',
      publicKey: ACCOUNT_ID,
      secretKey: API_TOKEN,
      baseUrl: iugu.baseUrl,
      notificationUrl: 'http://127.0.0.1:1/unused',
    };
    const invoices = iugu.invoices.size;
    const input = bareTransactionInput({ amount: 2500, customer: ANA, idempotencyKey: 'lost-answer-pix' });
    const first = await adapter.createTransaction(ctx, input);
    const resent = await adapter.createTransaction(ctx, input);
    expect(resent.transactionId).toBe(first.transactionId);
    expect(iugu.invoices.size).toBe(invoices + 1);
    expect(iugu.received.at(-1)!.headers['idempotency-key']).toBe('lost-answer-pix');

    const token = await adapter.createCardToken(ctx, CARD);
    const card = bareTransactionInput({ amount: 4000, paymentMethod: 'CREDIT_CARD', cardId: token, customer: ANA, idempotencyKey: 'lost-answer-card' });
    const charged = await adapter.createTransaction(ctx, card);
    const again = await adapter.createTransaction(ctx, card);
    expect([again.transactionId, again.status]).toEqual([charged.transactionId, 'APPROVED']);
    expect(iugu.accounts.get(ACCOUNT_ID)!.balanceCents).toBeGreaterThanOrEqual(4000);
    const charges = iugu.received.filter((request) => request.path === `${IUGU_BASE_PATH}/charge`).slice(-2);
    expect(charges[0]!.headers['idempotency-key']).toBeDefined();
    expect(charges[1]!.headers['idempotency-key']).toBe(charges[0]!.headers['idempotency-key']);
  });

  it("Iugu's refusals reach the caller: an invoice's field errors, a wrong API token's 401", async () => {
    expect(await failureOf(charge(account.id, { amount: 700, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: { ...ANA, email: 'ana@' } }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: email: não é válido',
    });
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'IUGU',
      name: 'IUGU with a revoked token',
      publicKey: ACCOUNT_ID,
      secretKey: 'revoked-token',
      baseUrl: iugu.baseUrl,
    });
    expect(await failureOf(charge(providerAccount.id, { amount: 700, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: ANA }))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao criar transação: Unauthorized',
    });
  });

  it('receivers: a sub-account created and sent for verification with its documents, read PENDING, then ACTIVE with PIX switched on', async () => {
    const { receiver } = await stack.client.call(
      'gateway',
      'createReceiver',
      CreateReceiverRequest.fromPartial({
        providerAccountId: account.id,
        receiver: {
          name: 'Ana Souza',
          document: '12345678909',
          email: 'ana@example.com',
          description: 'Artesanato',
          bankAccount: { bankCode: '341', branchNumber: '1234', accountNumber: '12345', accountDigit: '6', accountType: 'checking' },
          address: { street: 'Rua Principal', number: '100', district: 'Centro', city: 'Campinas', state: 'SP', zipcode: '13056344' },
          documents: {
            documentPhotoUrl: files.url('/kyc/rg.png'),
            selfieWithDocumentUrl: files.url('/kyc/selfie.png'),
            addressProofUrl: files.url('/kyc/endereco.pdf'),
            balanceSheetUrl: files.url('/kyc/balanco.pdf'),
          },
        },
      }),
    );
    expect(receiver).toMatchObject({ provider: 'IUGU', status: ReceiverStatus.RECEIVER_STATUS_PENDING });
    const sub = iugu.accounts.get(receiver.receiverId)!;
    expect(sub.verification).toMatchObject({ status: 'pending', data: { cpf: '12345678909', bank: 'Itaú', account_type: 'Corrente', bank_cc: '12345-6' } });
    const readReceiver = async () =>
      (await stack.client.call('gateway', 'getReceiver', GetReceiverRequest.fromPartial({ providerAccountId: account.id, receiverId: receiver.receiverId })))
        .receiver;
    expect((await readReceiver()).status).toBe(ReceiverStatus.RECEIVER_STATUS_PENDING);

    iugu.verify(receiver.receiverId, 'accepted');
    iugu.fund(receiver.receiverId, 123_456);
    const active = await readReceiver();
    expect([active.status, Number(active.balance), active.document]).toEqual([ReceiverStatus.RECEIVER_STATUS_ACTIVE, 123_456, '12345678909']);
    expect(sub).toMatchObject({ pixEnabled: true, configuration: { credit_card: { active: true, installments: true } } });
    // PIX already on is no failure on the next read.
    expect((await readReceiver()).status).toBe(ReceiverStatus.RECEIVER_STATUS_ACTIVE);
  });

  it('payouts: withdraw requests to the registered bank domicile, accepted or rejected by the bank, confirmed by triggers carrying the authorization', async () => {
    iugu.fund(ACCOUNT_ID, 50_000);
    const payout = async (amount: number, idempotencyKey: string) =>
      (
        await stack.client.call(
          'gateway',
          'withdraw',
          WithdrawRequest.fromPartial({
            providerAccountId: account.id,
            idempotencyKey,
            withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT, amount },
          }),
        )
      ).withdrawal;
    const status = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal.status;

    const accepted = await payout(12_345, 'payout-1');
    expect(accepted).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 12_345 });
    const request = iugu.received.filter((received) => received.path === `${IUGU_BASE_PATH}/accounts/${ACCOUNT_ID}/request_withdraw`).at(-1)!;
    expect(request.body).toEqual({ amount: 123.45 });
    expect(iugu.withdrawals.get(accepted.withdrawId)).toMatchObject({ amountCents: 12_345, status: 'pending' });
    expect(await iugu.settleWithdrawal(accepted.withdrawId, 'accepted')).toEqual([200]);
    expect(iugu.delivered.at(-1)).toMatchObject({ event: 'withdraw_request.status_changed', status: 200, authorization: `Basic ${TRIGGER_KEY}` });
    await eventually(async () => (await status(accepted.id)) === WithdrawStatus.WITHDRAW_STATUS_APPROVED, 10_000, 'the accepted payout APPROVED');

    const rejected = await payout(1_000, 'payout-2');
    expect(await iugu.settleWithdrawal(rejected.withdrawId, 'rejected')).toEqual([200]);
    await eventually(async () => (await status(rejected.id)) === WithdrawStatus.WITHDRAW_STATUS_REJECTED, 10_000, 'the rejected payout REJECTED');
    // The signed trigger says why (data[feedback], "Motivo da rejeição do saque"): the payout's page shows it.
    expect((await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: rejected.id }))).withdrawal.refusalReason).toBe(
      IUGU_WITHDRAW_FEEDBACK,
    );

    // A trigger carrying another authorization is refused (401) and moves nothing.
    const pending = await payout(500, 'payout-3');
    const forged = await fetch(account.notificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic outra-chave' },
      body: new URLSearchParams({
        event: 'withdraw_request.status_changed',
        'data[withdraw_request_id]': pending.withdrawId,
        'data[status]': 'accepted',
      }).toString(),
    });
    expect(forged.status).toBe(401);
    expect(await status(pending.id)).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);

    // More than the balance: Iugu's refusal reaches the caller.
    expect(await failureOf(payout(10_000_000, 'payout-4'))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao realizar saque: Saldo insuficiente para o saque',
    });

    // What is left, read at Iugu (Informações da Conta) in cents.
    const balance = await stack.client.call('accounts', 'getAccountBalance', GetAccountBalanceRequest.fromPartial({ providerAccountId: account.id }));
    expect(balance).toMatchObject({ available: iugu.accounts.get(ACCOUNT_ID)!.balanceCents, currency: 'BRL' });
    expect(balance.available).toBeGreaterThan(0);
  });
});

describe('IUGUBAAS against the same stand-in (Iugu itself)', () => {
  it("PIX charged, read as paid by a poll, refunded in full; a part Iugu would refuse is the spec's 'Erro ao aprovar o reembolso.'", async () => {
    const { transaction } = await charge(baas, { amount: 900, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: ANA });
    expect(transaction).toMatchObject({ provider: 'IUGUBAAS', status: TransactionStatus.TRANSACTION_STATUS_PENDING });
    await iugu.pay(transaction.transactionId);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const sent = refundsSent().length;
    expect(await failureOf(refund(baas, transaction.id, 400, 'baas-refund-part'))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao aprovar o reembolso.',
    });
    expect(refundsSent().length).toBe(sent);
    const whole = await refund(baas, transaction.id, 900, 'baas-refund');
    expect([whole.refund.status, whole.transaction.status]).toEqual([true, TransactionStatus.TRANSACTION_STATUS_REFUNDED]);
  });

  it("a card Iugu does not tokenise (an account id it does not know) is the spec's 'Erro salvando cartão'", async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'IUGUBAAS',
      name: 'IUGUBAAS with another account id',
      publicKey: '00000000000000000000000000000000',
      secretKey: API_TOKEN,
      baseUrl: iugu.baseUrl,
    });
    expect(
      await failureOf(
        stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: providerAccount.id, card: CARD })),
      ),
    ).toEqual({ code: 'INVALID_ARGUMENT', message: 'Erro salvando cartão' });
  });
});

it('the stand-in saw only documented routes, and never failed', () => {
  expect(iugu.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(iugu.crashed).toEqual([]);
});
