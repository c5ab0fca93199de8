import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { PLUGGOU } from '../../server/providers/pluggou/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { todaysStatement } from '../support/statement.js';
import { PLUGGOU_SOURCES, startPluggouStandIn, type PluggouStandIn } from './pluggou.js';

/**
 * PLUGGOU's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from Pluggou's documentation
 * (tests/standins/pluggou.ts), on an account speaking the documented dialect
 * (api_version `public`): PIX charges with the buyer Pluggou requires, reads,
 * Pluggou's webhooks (with the account's X-Webhook-Code) moving the status to
 * paid, refunded and chargeback, a forged webhook refused, and Pluggou's
 * refusals (credentials, permission, account) reaching the caller. Pluggou
 * offers no refund or payout through the gateway (§7 names neither).
 */

const PUBLIC_KEY = 'pk_live_9f2c4e1a7b3d5f60';
const SECRET_KEY = 'sk_live_3a8e1f5c9d2b7064';
const CASHOUT_PUBLIC = 'pk_live_cashout_only_01';
const CASHOUT_SECRET = 'sk_live_cashout_only_01';
const WEBHOOK_CODE = 'whc_7d41c0a9e2b84f35a6c1';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };

let stack: TestStack;
let pluggou: PluggouStandIn;
let accountId: string;

const createAccount = async (name: string, publicKey: string, secretKey: string) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'PLUGGOU',
      name,
      publicKey,
      secretKey,
      baseUrl: pluggou.baseUrl,
      webhookSecret: WEBHOOK_CODE,
      apiVersion: 'public',
    })
  ).providerAccount;

beforeAll(async () => {
  stack = await startTestStack();
  pluggou = await startPluggouStandIn({
    credentials: [
      { publicKey: PUBLIC_KEY, secretKey: SECRET_KEY, permission: 'all' },
      { publicKey: CASHOUT_PUBLIC, secretKey: CASHOUT_SECRET, permission: 'cashout' },
    ],
    webhookCode: WEBHOOK_CODE,
  });
  const account = await createAccount('Pluggou stand-in', PUBLIC_KEY, SECRET_KEY);
  accountId = account.id;
  // The merchant registers the gateway's notification URL as a webhook on Pluggou's panel.
  pluggou.registerWebhook(account.notificationUrl);
});

afterEach(() => {
  // Every request the gateway made is one Pluggou documents, and the stand-in never failed on one.
  expect(pluggou.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(pluggou.crashed).toEqual([]);
});

afterAll(async () => {
  await pluggou?.close();
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
const history = (transaction: { statusHistory: Array<{ status: number; source: number }> }) =>
  transaction.statusHistory.map((change) => [change.status, change.source]);

describe("PLUGGOU against a stand-in written from Pluggou's documentation", () => {
  it('declares the documentation it was verified against', () => {
    expect(PLUGGOU.evidence).toEqual({ level: 'documented', addresses: PLUGGOU_SOURCES });
    expect(pluggou.sources).toEqual(PLUGGOU_SOURCES);
  });

  it('PIX: created with the buyer, its EMV code and QR image; paid, and the webhook moves it to APPROVED', async () => {
    const { transaction } = await charge({ customer: ANA, description: 'Curso de violão' });
    expect(transaction).toMatchObject({ provider: 'PLUGGOU', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const atPluggou = pluggou.transactions.get(transaction.transactionId)!;
    expect(atPluggou).toMatchObject({
      amount: 1990,
      status: 'pending',
      description: 'Curso de violão',
      buyer: { buyer_name: 'Ana Souza', buyer_document: '12345678909', buyer_phone: '11987654321', buyer_email: 'ana@example.com' },
    });
    expect(transaction.pixCode).toBe(atPluggou.pix.emv);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);

    expect(await pluggou.pay(transaction.transactionId)).toEqual([200]);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    // The webhook's `e2e_id`: the PIX's end-to-end id, shown on the charge.
    expect(paid.pixEndToEndId).toBe(atPluggou.e2e_id);
    expect(paid.pixEndToEndId).toMatch(/^E18236120\d+/);
    expect(history(paid)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // Read from Pluggou on demand: the same status, nothing moved twice.
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, statusHistory: paid.statusHistory });
  });

  it("a refund or a chargeback made at Pluggou reaches the gateway by Pluggou's webhook", async () => {
    const refunded = (await charge({ customer: ANA })).transaction;
    await pluggou.pay(refunded.transactionId);
    await becomes(refunded.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(await pluggou.settle(refunded.transactionId, 'refunded')).toEqual([200]);
    await becomes(refunded.id, TransactionStatus.TRANSACTION_STATUS_REFUNDED);

    const disputed = (await charge({ customer: { ...ANA, document: '11.222.333/0001-81' }, amount: 25_000 })).transaction;
    expect(pluggou.transactions.get(disputed.transactionId)!.buyer.buyer_document).toBe('11222333000181');
    await pluggou.pay(disputed.transactionId);
    await becomes(disputed.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    await pluggou.settle(disputed.transactionId, 'chargeback');
    await becomes(disputed.id, TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
    expect((await read(disputed.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
  });

  it('a webhook without the account code is refused, even when the charge is paid; the genuine one then moves it', async () => {
    const { transaction } = await charge({ customer: ANA });
    // This charge's reads only: the gateway's workers may still read the earlier tests' charges.
    const reads = () =>
      pluggou.received.filter((request) => request.method === 'GET' && request.path.endsWith(`/transactions/${transaction.transactionId}`)).length;
    const before = reads();
    expect((await pluggou.forge(transaction.transactionId, 'paid', 'not-the-code'))[0]).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(reads()).toBe(before);

    await pluggou.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('a buyer Pluggou would refuse (no phone, a document with wrong check digits) is refused before anything is sent', async () => {
    const posts = pluggou.count('POST', '/api/transactions');
    expect(await failureOf(charge({ customer: { ...ANA, phone: '' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.customer.phone is required for PLUGGOU charges'),
    });
    expect(await failureOf(charge({ customer: { ...ANA, document: '123.456.789-00' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.customer.document must be a valid CPF or CNPJ for PLUGGOU charges'),
    });
    expect(await failureOf(charge({}))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('transaction.customer is required') });
    expect(pluggou.count('POST', '/api/transactions')).toBe(posts);
  });

  it("Pluggou's refusals reach the caller with its own message: a cash-out credential, an account not approved, wrong keys", async () => {
    const cashout = await createAccount('Pluggou cash-out key', CASHOUT_PUBLIC, CASHOUT_SECRET);
    expect(await failureOf(charge({ customer: ANA }, cashout.id))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao criar transação: Esta credencial não tem permissão para realizar esta operação.',
    });

    pluggou.setAccount({ approved: false, blocked: false });
    try {
      expect(await failureOf(charge({ customer: ANA }))).toEqual({
        code: 'FAILED_PRECONDITION',
        message: 'Erro ao criar transação: Sua conta precisa estar aprovada para usar esta funcionalidade.',
      });
    } finally {
      pluggou.setAccount({ approved: true, blocked: false });
    }

    const wrong = await createAccount('Pluggou wrong keys', PUBLIC_KEY, 'sk_live_revoked');
    expect(await failureOf(charge({ customer: ANA }, wrong.id))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao criar transação: Chave não encontrada ou inativa',
    });
  });

  it('refunds and payouts are not offered (§7 names neither): refused before anything is sent', async () => {
    const { transaction } = await charge({ customer: ANA });
    await pluggou.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const before = pluggou.received.length;
    expect(
      await failureOf(
        stack.client.call(
          'gateway',
          'refoundTransaction',
          RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 500 }),
        ),
      ),
    ).toMatchObject({ code: 'UNIMPLEMENTED' });
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
    expect(pluggou.received.length).toBe(before);
  });

  // Last: its account's webhook then receives every later event too (Pluggou sends each to all registered webhooks).
  it("Pluggou's fee (`platform_tax`, cents) is kept with the charge and counted in the account's statement", async () => {
    const fees = await createAccount('Pluggou fees', PUBLIC_KEY, SECRET_KEY);
    pluggou.registerWebhook(fees.notificationUrl);
    const { transaction } = await charge({ customer: ANA, amount: 2000 }, fees.id);
    await pluggou.pay(transaction.transactionId);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const atPluggou = pluggou.transactions.get(transaction.transactionId)!;
    expect(paid.pixEndToEndId).toBe(atPluggou.e2e_id);
    // The stand-in's rate, 1,49 % + R$ 0,50 of R$ 20,00.
    expect(atPluggou.platform_tax).toBe(80);
    expect(await todaysStatement(stack, fees.id)).toEqual([
      expect.objectContaining({ chargesCount: 1, chargesAmount: 2000, feesAmount: 80, feesReportedCount: 1 }),
    ]);
  });
});
