import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetAccountBalanceRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { NOXPAY_SOURCES, startNoxpayStandIn, type NoxpayStandIn } from './noxpay.js';

/**
 * NOXPAY through the whole gateway's public gRPC contract, against a stand-in
 * written from NoxPay's API document (tests/standins/noxpay.ts): the balance
 * read, and a PIX charge paid whose webhook (signed, or unsigned and confirmed
 * by the read) gives the charge its end-to-end id and payer.
 */

const API_KEY = 'nox-standin-4f1c2a9e7b';
const WEBHOOK_SECRET = 'nox-whsec-0b7e3f5a';
let stack: TestStack;
let nox: NoxpayStandIn;

const createAccount = async (secretKey: string, webhookSecret?: string) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'NOXPAY',
      name: `NoxPay stand-in ${secretKey} ${webhookSecret ?? 'unsigned'}`,
      publicKey: '',
      secretKey,
      baseUrl: nox.url,
      ...(webhookSecret ? { webhookSecret } : {}),
    })
  ).providerAccount.id as string;
const balance = (providerAccountId: string) => stack.client.call('accounts', 'getAccountBalance', GetAccountBalanceRequest.fromPartial({ providerAccountId }));

beforeAll(async () => {
  stack = await startTestStack();
  nox = await startNoxpayStandIn({ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
});

afterAll(async () => {
  await nox?.close();
  await stack?.close();
});

describe('NOXPAY against a stand-in written from its API document', () => {
  it('names the documentation it was written from', () => {
    expect(nox.sources).toEqual(NOXPAY_SOURCES);
  });

  it("GetAccountBalance: NoxPay's balance in reais read as cents, with nothing pending", async () => {
    const accountId = await createAccount(API_KEY);
    nox.balance = 38_960;
    const read = await balance(accountId);
    expect(read).toMatchObject({ available: 38_960, currency: 'BRL' });
    expect(read.pending).toBeUndefined();
    nox.balance = 123_456_789;
    expect(await balance(accountId)).toMatchObject({ available: 123_456_789 });
    expect(nox.count('GET', '/account')).toBe(2);
    expect(nox.received.every((request) => request.headers['api-key'] === API_KEY)).toBe(true);
  });

  it("a key NoxPay refuses is the balance read's failure, under its prefix", async () => {
    const accountId = await createAccount('nox-wrong-key');
    const refused = await failureOf(balance(accountId));
    // NoxPay's document shows no error body: the status is all there is to report.
    expect(refused).toEqual({ code: 'FAILED_PRECONDITION', message: 'Erro ao consultar saldo: Request failed with status code 401' });
  });

  describe('a PIX charge paid: its end-to-end id and payer', () => {
    const PAYER = { name: 'Maria Pagadora', document: '25951519837' };
    const charge = async (providerAccountId: string, orderId: string) =>
      (
        await stack.client.call(
          'gateway',
          'createTransaction',
          CreateTransactionRequest.fromPartial({ providerAccountId, transaction: { amount: 1005, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, orderId } }),
        )
      ).transaction;
    const read = async (id: string, refresh = false) =>
      (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh, omitPixQrImage: true }))).transaction;
    const approved = (id: string) =>
      eventually(
        async () => {
          const current = await read(id);
          return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
        },
        15_000,
        `transaction ${id} approved`,
      );

    it("a signed webhook: APPROVED with its pix_end2end_id and the payer's receipt_name and receipt_cpf_cnpj; a read keeps them", async () => {
      const made = await charge(await createAccount(API_KEY, WEBHOOK_SECRET), 'nox-e2e-signed');
      const payment = nox.payments.get(made.transactionId)!;
      expect(payment).toMatchObject({ code: 'nox-e2e-signed', amount: 10.05, webhookUrl: expect.stringMatching(/^http:\/\//) });
      expect(made).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1005, pixEndToEndId: '' });
      expect(brCodeCrcIsValid(made.pixCode)).toBe(true);

      expect(await nox.pay(made.transactionId, PAYER)).toBe(200);
      const paid = await approved(made.id);
      expect(paid.pixEndToEndId).toBe(payment.end2end);
      expect(paid.pixEndToEndId).toMatch(/^E18236120\d{12}[a-zA-Z0-9]{11}$/);
      expect(paid.pixPayer).toEqual({ name: PAYER.name, document: PAYER.document, bankIspb: '', bankName: '' });

      // NoxPay's read (capitalised keys, Status PAY, end2end) says the same: nothing moves, nothing is replaced.
      const reads = nox.count('GET', '/payment/{id}');
      expect(await read(made.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 1005, pixEndToEndId: payment.end2end });
      expect(nox.count('GET', '/payment/{id}')).toBe(reads + 1);
    });

    it('an unsigned webhook is confirmed by the read before approving; the end-to-end id and payer are kept', async () => {
      const made = await charge(await createAccount(API_KEY), 'nox-e2e-unsigned');
      const reads = nox.count('GET', '/payment/{id}');
      expect(await nox.pay(made.transactionId, PAYER)).toBe(200);
      const paid = await approved(made.id);
      expect(nox.count('GET', '/payment/{id}')).toBeGreaterThan(reads);
      expect(paid.pixEndToEndId).toBe(nox.payments.get(made.transactionId)!.end2end);
      expect(paid.pixPayer).toMatchObject({ name: PAYER.name, document: PAYER.document });
    });
  });

  it('the stand-in saw only documented routes, and never failed', () => {
    expect(nox.unmatched).toEqual([]);
    expect(nox.crashed).toEqual([]);
  });
});
