import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hasError, parsePix } from 'pix-utils';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { TRANSFEERA } from '../../server/providers/transfeera/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startTransfeeraStandIn, TRANSFEERA_PAYER, TRANSFEERA_SOURCES, type TransfeeraStandIn } from './transfeera.js';

/**
 * TRANSFEERA's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from Transfeera's documentation
 * (tests/standins/transfeera.ts): a PIX charge as an immediate collection,
 * read back, paid by Transfeera's signed CashIn event, refunded in part and
 * then in full; PIX payouts as batches of one, settled and failed by signed
 * Transfer events; and every call naming the account's company and e-mail.
 */

const CLIENT_ID = '6a6d1b7e-8a23-4d5c-9f0e-2b4a1c3d5e6f';
const CLIENT_SECRET = 'tf-standin-client-secret-0f9e8d7c6b5a';
const PIX_KEY = 'recebimentos@loja.example';
const USER_AGENT = 'Loja Exemplo (dev@loja.example)';
const SIGNATURE_SECRET = 'tf-signature-secret-3c2b1a';
const ANA = { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', phone: '(11) 98765-4321' };

let stack: TestStack;
let transfeera: TransfeeraStandIn;
let accountId: string;

/** The merchant's own call to Transfeera (registering the webhook): a token, then the call, with its User-Agent. */
async function merchantCall(method: 'POST', path: string, body: unknown): Promise<{ status: number; body: any }> {
  const headers = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  const login = await fetch(`${transfeera.url}/authorization`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const response = await fetch(`${transfeera.url}${path}`, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const charge = (transaction: Record<string, unknown>) =>
  stack.client.call('gateway', 'createTransaction', CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction }));
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const refund = (id: string, amount: number, idempotencyKey: string) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));
const payout = async (amount: number, pixKey: string, pixType: PixKeyType, withdrawReference: string) =>
  (
    await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: accountId,
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount, pixKey, pixType, withdrawReference },
      }),
    )
  ).withdrawal;
const withdrawal = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;

beforeAll(async () => {
  stack = await startTestStack();
  transfeera = await startTransfeeraStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKeys: [PIX_KEY], signatureSecret: SIGNATURE_SECRET });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'TRANSFEERA',
    name: 'Transfeera stand-in',
    publicKey: `${CLIENT_ID}|${PIX_KEY}|${USER_AGENT}`,
    secretKey: CLIENT_SECRET,
    baseUrl: transfeera.url,
    webhookSecret: SIGNATURE_SECRET,
  });
  accountId = providerAccount.id;
  // The merchant points Transfeera's events at the gateway (POST /webhook); the signature secret it answers is the account's.
  const webhook = await merchantCall('POST', '/webhook', { url: providerAccount.notificationUrl, object_types: ['CashIn', 'Transfer'] });
  expect(webhook).toMatchObject({ status: 201, body: { signature_secret: SIGNATURE_SECRET } });
});

afterAll(async () => {
  await transfeera?.close();
  await stack?.close();
});

describe('TRANSFEERA against a stand-in written from its documentation', () => {
  it('names its sources, and claims no documentation it was only partly written from', () => {
    // Part of the stand-in (collection list, refund, batches) comes from public integrations: TRANSFEERA stays unverified.
    expect(TRANSFEERA.evidence).toBeUndefined();
    expect(transfeera.sources).toEqual(TRANSFEERA_SOURCES);
  });

  it("PIX: an immediate collection on the account's key, read back, paid by the signed CashIn event, refunded in part and then in full", async () => {
    const { transaction } = await charge({ amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: ANA, orderId: 'order-tf-1' });
    expect(transaction).toMatchObject({ provider: 'TRANSFEERA', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const [qr] = [...transfeera.qrCodes.values()];
    expect(qr).toMatchObject({ txid: transaction.transactionId, pixKey: PIX_KEY, value: 1990, expiration: 86_400, integrationId: 'order-tf-1' });
    expect(qr!.payer).toEqual({ name: 'Ana Souza', document: '12345678909' });
    expect(transaction.pixCode).toBe(qr!.emvPayload);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(hasError(parsePix(transaction.pixCode))).toBe(false);
    // Nothing received yet: read back PENDING for the amount.
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });

    expect(await transfeera.pay(transaction.transactionId)).toEqual([200]);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED, 10_000, 'the CashIn event');
    const paid = await read(transaction.id);
    expect(paid.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // The CashIn event's end2end_id and payer are the charge's PIX payment; the read (the cash-in list) says the same.
    const deposit = [...transfeera.cashIns.values()].find((entry) => entry.txid === transaction.transactionId && entry.type === 'DEPOSIT')!;
    const payer = { name: TRANSFEERA_PAYER.name, document: TRANSFEERA_PAYER.document, bankIspb: '00000000', bankName: 'Banco do Brasil' };
    expect(paid).toMatchObject({ pixEndToEndId: deposit.end2endId, pixPayer: payer });
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, pixEndToEndId: deposit.end2endId });

    // A partial refund returns R$ 5,00 of the received PIX: the charge stays APPROVED, at the gateway as at Transfeera.
    const partial = await refund(transaction.id, 500, 'tf-refund-1');
    expect(partial.refund.status).toBe(true);
    expect(partial.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

    // The rest: REFUNDED, and Transfeera holds exactly two refunds that add up to the deposit.
    const rest = await refund(transaction.id, 1490, 'tf-refund-2');
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    const refunds = [...transfeera.cashIns.values()].filter((entry) => entry.type === 'DEPOSIT_REFUND');
    expect(refunds.map((entry) => entry.value)).toEqual([500, 1490]);
  });

  it('a CashIn event signed with another secret is refused at the door and moves nothing', async () => {
    const { transaction } = await charge({ amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: ANA });
    const forged = JSON.stringify({
      id: 'evt-forged',
      version: 'v1',
      account_id: 'acc',
      object: 'CashIn',
      date: new Date().toISOString(),
      data: { id: 'x', value: 25, end2end_id: 'E1', txid: transaction.transactionId },
    });
    const [status] = await transfeera.deliver('CashIn', forged, 'not-the-secret');
    expect(status).toBeGreaterThanOrEqual(400);
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it('PIX payouts: a batch of one, closed at once; FINALIZADO by the signed Transfer event is APPROVED, FALHA is REJECTED', async () => {
    const balanceBefore = transfeera.balance;
    const done = await payout(2500, '(11) 98765-4321', PixKeyType.PIX_KEY_TYPE_PHONE, 'wd-tf-1');
    expect(done).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    const batch = transfeera.batches.get(done.withdrawId)!;
    expect(batch.status).toBe('RECEBIDO');
    const [transfer] = batch.transferIds.map((id) => transfeera.transfers.get(id)!);
    expect(transfer).toMatchObject({ value: 2500, pixKeyType: 'TELEFONE', pixKey: '+5511987654321', integrationId: 'wd-tf-1', idempotencyKey: 'wd-tf-1' });
    expect(transfer!.pixDescription).toMatch(/^Saque/);
    expect(transfeera.balance).toBe(balanceBefore - 2500);
    expect((await withdrawal(done.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);

    expect(await transfeera.settleBatch(done.withdrawId, 'FINALIZADO')).toEqual([200]);
    await eventually(async () => (await withdrawal(done.id)).status === WithdrawStatus.WITHDRAW_STATUS_APPROVED, 10_000, 'the FINALIZADO event');
    expect((await withdrawal(done.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);

    const failed = await payout(1000, '529.982.247-25', PixKeyType.PIX_KEY_TYPE_CPF, 'wd-tf-2');
    expect(transfeera.transfers.get(transfeera.batches.get(failed.withdrawId)!.transferIds[0]!)).toMatchObject({ pixKeyType: 'CPF', pixKey: '52998224725' });
    expect(await transfeera.settleBatch(failed.withdrawId, 'FALHA')).toEqual([200]);
    await eventually(async () => (await withdrawal(failed.id)).status === WithdrawStatus.WITHDRAW_STATUS_REJECTED, 10_000, 'the FALHA event');
  });

  it("a payout Transfeera refuses (an invalid key) keeps Transfeera's message and records nothing sent", async () => {
    await expect(payout(1000, '111.111.111-11', PixKeyType.PIX_KEY_TYPE_CPF, 'wd-tf-3')).rejects.toMatchObject({
      details: 'Erro ao realizar saque: Invalid CPF pix key',
    });
  });

  it("every call named the account's company and contact e-mail; the stand-in saw only documented routes and never failed", () => {
    expect(new Set(transfeera.userAgents)).toEqual(new Set([USER_AGENT]));
    expect(transfeera.unmatched).toEqual([]);
    expect(transfeera.crashed).toEqual([]);
    expect(transfeera.count('POST', '/authorization')).toBeGreaterThanOrEqual(2);
  });
});
