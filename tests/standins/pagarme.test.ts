import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateCardIdRequest,
  CreateCardTokenRequest,
  CreateReceiverRequest,
  CreateTransactionRequest,
  GetReceiverRequest,
  GetTransactionRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetAccountBalanceRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod, ReceiverStatus, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { isValidDigitableLine } from '../../server/lib/boleto.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { OrdersApiAdapter } from '../../server/providers/families/ordersApi/index.js';
import { PAGARME } from '../../server/providers/members/pagarme.js';
import { PAGARMEBAAS } from '../../server/providers/members/pagarmebaas.js';
import { bareTransactionInput } from '../providers/conformance/harness.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { todaysStatement } from '../support/statement.js';
import { PAGARME_BASE_PATH, PAGARME_SOURCES, startPagarmeStandIn, type PagarmeStandIn } from './pagarme.js';

const SECRET = 'sk_test_standin_pagarme';
const PUBLIC = 'pk_test_standin_pagarme';
const CUSTOMER = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
const CARD = { cardNumber: '4000000000000010', holderName: 'ANA SOUZA', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' };

let stack: TestStack;
let standIn: PagarmeStandIn;
let pagarme: string;
let baas: string;
let account: (provider: string, platformId?: string) => Promise<{ id: string; notificationUrl: string }>;

beforeAll(async () => {
  stack = await startTestStack();
  standIn = await startPagarmeStandIn({ secretKey: SECRET, publicKey: PUBLIC });
  account = async (provider: string, platformId?: string) =>
    (
      await stack.client.call('accounts', 'createProviderAccount', {
        provider,
        name: `${provider} against the stand-in`,
        publicKey: PUBLIC,
        secretKey: SECRET,
        baseUrl: standIn.baseUrl,
        ...(platformId ? { platformId } : {}),
      })
    ).providerAccount;
  const pagarmeAccount = await account('PAGARME');
  pagarme = pagarmeAccount.id;
  // Pagar.me sends every event of the account to the URL set in its dashboard.
  standIn.webhookUrl = pagarmeAccount.notificationUrl;
  baas = (await account('PAGARMEBAAS')).id;
});

afterAll(async () => {
  await standIn?.close();
  await stack?.close();
});

const charge = (providerAccountId: string, transaction: Record<string, unknown>, idempotencyKey?: string) =>
  stack.client.call('gateway', 'createTransaction', CreateTransactionRequest.fromPartial({ providerAccountId, idempotencyKey, transaction }));
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
/** A recipient of the PAGARME account, created through the gateway. */
const createRecipient = async (receiver: Record<string, unknown>) =>
  (await stack.client.call('gateway', 'createReceiver', CreateReceiverRequest.fromPartial({ providerAccountId: pagarme, receiver }))).receiver;
const refund = (providerAccountId: string, id: string, amount: number, idempotencyKey: string) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId, id, amount, idempotencyKey }));
const becomes = (id: string, status: TransactionStatus) =>
  eventually(async () => {
    const current = await read(id);
    return current.status === status && current;
  });
const history = (transaction: { statusHistory: Array<{ status: number; source: number }> }) =>
  transaction.statusHistory.map((change) => [change.status, change.source]);
const deletes = () => standIn.received.filter((request) => request.method === 'DELETE');

describe('PAGARME against a stand-in written from Pagar.me v5 documentation', () => {
  it('declares the documentation it was verified against, for both members', () => {
    for (const member of [PAGARME, PAGARMEBAAS]) {
      const evidence = member.evidence;
      const addresses = evidence && 'addresses' in evidence ? evidence.addresses : [];
      expect(evidence?.level).toBe('documented');
      expect(addresses.length).toBeGreaterThan(0);
      for (const address of addresses) expect(PAGARME_SOURCES).toContain(address);
    }
  });

  it("PIX: the order's QR code, read, paid by Pagar.me's unsigned webhook confirmed by GET /orders/{id}", async () => {
    const { transaction } = await charge(pagarme, {
      amount: 1000,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
      customer: CUSTOMER,
      orderId: 'pedido-pix-1',
    });
    const order = standIn.order(transaction.transactionId)!;
    const last = (order.charges as Array<{ last_transaction: { qr_code: string; expires_at: string } }>)[0]!.last_transaction;
    expect(transaction).toMatchObject({ provider: 'PAGARME', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1000, pixCode: last.qr_code });
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(transaction.expiresAt).toEqual(new Date(last.expires_at));
    expect(order.code).toBe('pedido-pix-1');
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    const reads = standIn.count('GET', `${PAGARME_BASE_PATH}/orders/{id}`);
    await standIn.pay(transaction.transactionId);
    const approved = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(history(approved)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // Unsigned: the gateway asked Pagar.me before approving.
    expect(standIn.count('GET', `${PAGARME_BASE_PATH}/orders/{id}`)).toBeGreaterThan(reads);
    expect(standIn.delivered.slice(-2)).toEqual([
      { type: 'order.paid', status: 200 },
      { type: 'charge.paid', status: 200 },
    ]);
  });

  it("a paid charge's fee from its payables: reported by the read that confirms Pagar.me's webhook, counted in the statement, never asked again", async () => {
    const fees = await account('PAGARME');
    const dashboardUrl = standIn.webhookUrl;
    standIn.webhookUrl = fees.notificationUrl;
    let transaction: Awaited<ReturnType<typeof charge>>['transaction'];
    try {
      ({ transaction } = await charge(fees.id, { amount: 2000, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER }));
      await standIn.pay(transaction.transactionId);
      await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    } finally {
      standIn.webhookUrl = dashboardUrl;
    }
    // The stand-in's PIX rate, 1.19 % of R$ 20,00, as its payable's fee.
    expect(await todaysStatement(stack, fees.id)).toEqual([
      expect.objectContaining({ chargesCount: 1, chargesAmount: 2000, feesAmount: 24, feesReportedCount: 1 }),
    ]);
    // This charge's payables, asked once: by the read that confirmed the webhook, while no fee was stored.
    const chargeId = (standIn.order(transaction.transactionId)!.charges as Array<{ id: string }>)[0]!.id;
    const payablesReads = () =>
      standIn.received.filter((request) => request.method === 'GET' && request.path === `${PAGARME_BASE_PATH}/payables` && request.query.charge_id === chargeId)
        .length;
    expect(payablesReads()).toBe(1);
    // Once it is stored, reads of the paid charge (a refresh, as reconciliation does) ask the order only.
    const orderReads = standIn.count('GET', `${PAGARME_BASE_PATH}/orders/{id}`);
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED });
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED });
    expect(standIn.count('GET', `${PAGARME_BASE_PATH}/orders/{id}`)).toBeGreaterThanOrEqual(orderReads + 2);
    expect(payablesReads()).toBe(1);
    expect(await todaysStatement(stack, fees.id)).toEqual([expect.objectContaining({ feesAmount: 24, feesReportedCount: 1 })]);
  });

  it('PIX refunds: in progress at Pagar.me (pending_refund), reserved, a retry not sent twice, the rest asked for, REFUNDED when the bank returns it', async () => {
    const { transaction } = await charge(pagarme, { amount: 1000, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER });
    await standIn.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);

    const partial = await refund(pagarme, transaction.id, 300, 'pix-refund-part');
    // Pagar.me took 300 back (the charge still paid, its transaction pending_refund): never "not refunded".
    expect(partial.refund.status).toBe(true);
    expect([partial.transaction.status, Number(partial.transaction.refundedAmount)]).toEqual([TransactionStatus.TRANSACTION_STATUS_APPROVED, 0]);
    const chargeAt = () => (standIn.order(transaction.transactionId)!.charges as Array<Record<string, unknown>>)[0]!;
    expect(chargeAt()).toMatchObject({ status: 'paid', canceled_amount: 300, last_transaction: { status: 'pending_refund', amount: 300 } });

    const sent = deletes().length;
    const again = await refund(pagarme, transaction.id, 300, 'pix-refund-part');
    expect(again.refund).toEqual(partial.refund);
    expect(deletes().length).toBe(sent);
    expect(chargeAt()).toMatchObject({ canceled_amount: 300 });

    // The whole amount is no longer refundable: only what is left is, and only that is asked of Pagar.me.
    expect(await failureOf(refund(pagarme, transaction.id, 1000, 'pix-refund-all'))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    const rest = await refund(pagarme, transaction.id, 700, 'pix-refund-rest');
    expect(rest.refund.status).toBe(true);
    expect(deletes().at(-1)!.body).toMatchObject({ amount: 700 });
    expect(deletes().at(-1)!.headers['idempotency-key']).toMatch(/^refund-[0-9a-f]{64}$/);
    expect(chargeAt()).toMatchObject({ status: 'paid', canceled_amount: 1000 });
    expect(await failureOf(refund(pagarme, transaction.id, 1, 'pix-refund-more'))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(deletes().length).toBe(sent + 1);

    // The payer's bank returns it: the charge canceled, charge.refunded sent, confirmed by a read.
    await standIn.settleRefunds(transaction.transactionId);
    expect(standIn.delivered.at(-1)).toEqual({ type: 'charge.refunded', status: 200 });
    const refunded = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(history(refunded).at(-1)).toEqual([TransactionStatus.TRANSACTION_STATUS_REFUNDED, StatusSource.STATUS_SOURCE_WEBHOOK]);
    expect(standIn.refunded(transaction.transactionId)).toBe(1000);
  });

  it('a refund retried with the same key after its answer was lost is answered by Pagar.me with the first one: not refunded twice', async () => {
    // The adapter as the gateway runs it, twice with one key, as a resend after a lost answer would.
    const adapter = new OrdersApiAdapter(PAGARME, { retry: false });
    const ctx: AdapterContext = {
      accountId: 'direct',
      publicKey: PUBLIC,
      secretKey: SECRET,
      baseUrl: standIn.baseUrl,
      notificationUrl: 'http://127.0.0.1:1/unused',
    };
    const created = await adapter.createTransaction(ctx, bareTransactionInput({ amount: 2000, customer: CUSTOMER }));
    await standIn.pay(created.transactionId);
    const first = await adapter.refoundTransaction(ctx, created.transactionId, 500, 'lost-answer-key');
    const resent = await adapter.refoundTransaction(ctx, created.transactionId, 500, 'lost-answer-key');
    expect(resent).toEqual(first);
    expect(first).toMatchObject({ status: true, pending: true });
    const order = standIn.order(created.transactionId)!;
    expect((order.charges as Array<Record<string, unknown>>)[0]).toMatchObject({ canceled_amount: 500 });
    const [one, two] = deletes().slice(-2);
    expect(one!.headers['idempotency-key']).toBe(two!.headers['idempotency-key']);
  });

  it('a PIX the simulator fails (more than R$ 500,00) is refused with its reason, nothing to pay', async () => {
    expect(await failureOf(charge(pagarme, { amount: 50_001, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER }))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao criar transação: Transação PIX recusada pelo simulador.',
    });
  });

  it("boleto: its digitable line as digits, PDF and due date, paid by the webhook; a refund without a bank account is refused with Pagar.me's reason", async () => {
    const { transaction } = await charge(pagarme, {
      amount: 12_345,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET,
      customer: CUSTOMER,
      description: 'Mensalidade',
    });
    const last = (standIn.order(transaction.transactionId)!.charges as Array<{ last_transaction: Record<string, string> }>)[0]!.last_transaction;
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 12_345, billetUrl: last.pdf });
    expect(transaction.billetCode).toMatch(/^\d{47}$/);
    expect(isValidDigitableLine(transaction.billetCode)).toBe(true);
    // PAGARME's boleto is due in the spec's default 3 days.
    expect(new Date(last.due_at!).getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(last).toMatchObject({ instructions: 'Mensalidade' });

    await standIn.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(await failureOf(refund(pagarme, transaction.id, 1000, 'boleto-refund'))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao estornar transação: The request is invalid. (bank_account: The bank_account field is required.)',
    });
    // Refused: nothing reserved, nothing refunded.
    expect(Number((await read(transaction.id)).refundedAmount)).toBe(0);
    expect(await failureOf(refund(pagarme, transaction.id, 12_345, 'boleto-refund-2'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('card: tokenised without the secret key, saved for its customer, charged by card_id with installments, refunded in part and then in full', async () => {
    const { cardToken } = await stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: pagarme, card: CARD }));
    expect(cardToken).toMatch(/^token_/);
    const tokenRequest = standIn.received.find((request) => request.path === `${PAGARME_BASE_PATH}/tokens`)!;
    expect([tokenRequest.query.appId, tokenRequest.headers.authorization]).toEqual([PUBLIC, undefined]);
    const { cardId } = await stack.client.call(
      'gateway',
      'createCardId',
      CreateCardIdRequest.fromPartial({ providerAccountId: pagarme, cardToken, customer: CUSTOMER }),
    );
    expect(cardId).toMatch(/^card_/);

    const { transaction } = await charge(pagarme, {
      amount: 5000,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      cardId,
      installments: 2,
      customer: CUSTOMER,
      description: 'Curso Online',
    });
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 5000 });
    // PAGARME's card receivable, one year from creation (doc 1 §9), reported as expiresAt.
    expect(transaction.expiresAt.getTime() - transaction.createdAt.getTime()).toBeGreaterThan(364 * 86_400_000);

    const part = await refund(pagarme, transaction.id, 2000, 'card-refund-part');
    expect([part.refund.status, part.transaction.status, Number(part.transaction.refundedAmount)]).toEqual([
      true,
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
      2000,
    ]);
    const all = await refund(pagarme, transaction.id, 3000, 'card-refund-rest');
    expect([all.refund.status, all.transaction.status, Number(all.transaction.refundedAmount)]).toEqual([
      true,
      TransactionStatus.TRANSACTION_STATUS_REFUNDED,
      5000,
    ]);
    expect(standIn.order(transaction.transactionId)).toMatchObject({ status: 'canceled', charges: [{ status: 'canceled', canceled_amount: 5000 }] });
    expect(standIn.refunded(transaction.transactionId)).toBe(5000);
  });

  it('card: a single-use token charged directly, and the failure card of the simulator declined (REJECTED, an outcome)', async () => {
    const token = async (cardNumber: string) =>
      (await stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: pagarme, card: { ...CARD, cardNumber } })))
        .cardToken;
    const approved = await charge(pagarme, {
      amount: 1500,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      cardId: await token(CARD.cardNumber),
      customer: CUSTOMER,
    });
    expect(approved.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const declined = await charge(pagarme, {
      amount: 1500,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      cardId: await token('4000000000000028'),
      customer: CUSTOMER,
    });
    expect(declined.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
    // The acquirer's return code is the decline's reason, its acquirer_message the text, from the created order and a read of it.
    for (const refresh of [false, true])
      expect(await read(declined.transaction.id, refresh)).toMatchObject({
        declineReason: '05',
        declineCategory: 'card_declined',
        declineMessage: 'Transação não autorizada',
      });
    expect(await read(approved.transaction.id, true)).toMatchObject({ declineReason: '', declineMessage: '' });
  });

  it("an order retried with its idempotency key is one order at Pagar.me, and a refused order's field errors reach the caller", async () => {
    const orders = standIn.count('POST', `${PAGARME_BASE_PATH}/orders`);
    const first = await charge(pagarme, { amount: 700, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER }, 'order-key-1');
    const second = await charge(pagarme, { amount: 700, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER }, 'order-key-1');
    expect(second.transaction.id).toBe(first.transaction.id);
    expect(standIn.count('POST', `${PAGARME_BASE_PATH}/orders`)).toBe(orders + 1);
    expect(
      await failureOf(charge(pagarme, { amount: 700, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: { ...CUSTOMER, name: '' } })),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('The request is invalid. (order.customer.name: The name field is required.)'),
    });
  });

  it('an account with another secret key is refused by Pagar.me (401), its reason reaching the caller, nothing created', async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'PAGARME',
      name: 'PAGARME with a revoked key',
      publicKey: PUBLIC,
      secretKey: 'sk_test_revoked',
      baseUrl: standIn.baseUrl,
    });
    const orders = standIn.count('POST', `${PAGARME_BASE_PATH}/orders`);
    expect(await failureOf(charge(providerAccount.id, { amount: 700, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER }))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao criar transação: Authorization has been denied for this request.',
    });
    expect(standIn.count('POST', `${PAGARME_BASE_PATH}/orders`)).toBe(orders + 1);
    expect(standIn.received.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('sk_test_revoked:').toString('base64')}`);
  });

  it('receivers and payouts: a recipient created and read with its balance, a withdrawal from it, one beyond the balance refused', async () => {
    const receiver = await createRecipient({
      name: 'Ana Souza',
      document: '123.456.789-09',
      email: 'ana@example.com',
      userId: 'seller-1',
      bankAccount: { bankCode: '341', branchNumber: '0932', branchDigit: '5', accountNumber: '58054', accountDigit: '1', accountType: 'checking' },
    });
    expect(receiver).toMatchObject({ status: ReceiverStatus.RECEIVER_STATUS_PENDING, balance: 0 });
    standIn.fund(receiver.receiverId, 30_000);
    const read = await stack.client.call(
      'gateway',
      'getReceiver',
      GetReceiverRequest.fromPartial({ providerAccountId: pagarme, receiverId: receiver.receiverId }),
    );
    expect(Number(read.receiver.balance)).toBe(30_000);

    const withdraw = (amount: number, key: string) =>
      stack.client.call(
        'gateway',
        'withdraw',
        WithdrawRequest.fromPartial({
          providerAccountId: pagarme,
          idempotencyKey: key,
          withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_RECEIVER, amount, receiverId: receiver.receiverId },
        }),
      );
    const { withdrawal } = await withdraw(20_000, 'payout-1');
    expect(withdrawal).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 20_000 });
    standIn.transfer(withdrawal.withdrawId);
    // Pagar.me's 412 ("valid parameters, the request failed") is a refusal: its reason reaches the caller.
    expect(await failureOf(withdraw(20_000, 'payout-2'))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao realizar saque: Saldo insuficiente para saque.',
    });
  });
});

describe("PAGARME's account balance: its default recipient's, named by platform_id", () => {
  const balance = (providerAccountId: string) =>
    stack.client.call('accounts', 'getAccountBalance', GetAccountBalanceRequest.fromPartial({ providerAccountId }));

  it('reads what the recipient has available and what is waiting, in cents', async () => {
    const receiver = await createRecipient({
      name: 'Loja Central',
      document: '11.222.333/0001-81',
      email: 'financeiro@loja.example',
      bankAccount: { bankCode: '001', branchNumber: '1234', accountNumber: '99887', accountDigit: '6', accountType: 'checking' },
    });
    const platform = (await account('PAGARME', receiver.receiverId)).id;
    standIn.fund(receiver.receiverId, 12_345);
    standIn.hold(receiver.receiverId, 6_789);
    expect(await balance(platform)).toMatchObject({ available: 12_345, pending: 6_789, currency: 'BRL' });
    expect(standIn.count('GET', `${PAGARME_BASE_PATH}/recipients/${receiver.receiverId}/balance`)).toBe(1);
  });

  it("is Pagar.me's refusal under 'Erro ao consultar saldo' when it does not know the recipient", async () => {
    expect(await failureOf(balance((await account('PAGARME', 'rp_unknown')).id))).toEqual({
      code: 'NOT_FOUND',
      message: 'Erro ao consultar saldo: Recipient not found.',
    });
  });
});

describe('PAGARMEBAAS against the same stand-in (Pagar.me v5 itself)', () => {
  it('PIX charged, read as paid by a poll, partly refunded (in progress); its boleto due in 5 days (doc 2 §9)', async () => {
    const { transaction } = await charge(baas, { amount: 900, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER });
    expect(transaction).toMatchObject({ provider: 'PAGARMEBAAS', status: TransactionStatus.TRANSACTION_STATUS_PENDING });
    // The stand-in's webhook URL is PAGARME's account: this account learns of the payment by asking.
    await standIn.pay(transaction.transactionId);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const partial = await refund(baas, transaction.id, 400, 'baas-refund');
    expect([partial.refund.status, Number(partial.transaction.refundedAmount)]).toEqual([true, 0]);

    const boleto = await charge(baas, { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET, customer: CUSTOMER });
    expect(boleto.transaction.expiresAt.getTime() - Date.now()).toBeGreaterThan(5 * 86_400_000 - 60_000);
  });
});

it('the stand-in saw only documented routes, and never failed', () => {
  expect(standIn.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(standIn.crashed).toEqual([]);
});
