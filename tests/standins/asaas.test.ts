import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parsePix, hasError } from 'pix-utils';
import {
  CreateCardTokenRequest,
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetAccountBalanceRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { isValidDigitableLine } from '../../server/lib/boleto.js';
import { ASAAS } from '../../server/providers/asaas/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { captureModuleLog, expectNoCardData } from '../support/cardDataSearch.js';
import { failureOf, errorDetailsOf } from '../support/clients.js';
import { capturedLogger } from '../support/logCapture.js';
import { ASAAS_SOURCES, ASAAS_TRANSFER_FAIL_REASON, startAsaasStandIn, type AsaasStandIn } from './asaas.js';

/**
 * ASAAS's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from Asaas's documentation
 * (tests/standins/asaas.ts): PIX, boleto and a tokenized card (tokenized on
 * the stand-in for its customer, as a merchant does at Asaas), reads, partial
 * and full refunds, a PIX payout, and Asaas's webhooks with the configured
 * `asaas-access-token` moving the statuses.
 */

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmU2';
const WEBHOOK_TOKEN = 'whk-asaas-standin-7f3c9e21b84d4a6f9d0e5c1a2b3c4d5e';
const ANA = { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', phone: '(11) 98765-4321' };
const BRUNO = { name: 'Bruno Lima', document: '529.982.247-25', email: 'bruno@example.com', phone: '(21) 99876-5432' };

/** The gateway's card token's card (Asaas's sandbox approves any other number than its two refused ones). */
const PAN = '5448280000000007';
const CVV = '8316';
const GATEWAY_CARD = { cardNumber: '5448 2800 0000 0007', holderName: 'ANA SOUZA', holderDocument: '', expMonth: '3', expYear: '31', cvv: CVV };
const ANA_ADDRESS = { zipCode: '89223-005', address: 'Rua das Flores', number: '277', district: 'Centro', city: 'Joinville', state: 'SC' };

const log = capturedLogger('debug');
const moduleLog = captureModuleLog();
let stack: TestStack;
let asaas: AsaasStandIn;
let accountId: string;

/** A merchant's own call to Asaas (not the gateway's): as documented, the key in `access_token`. */
async function merchantCall(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${asaas.baseUrl}${path}`, {
    method,
    headers: { access_token: API_KEY, 'user-agent': 'loja-exemplo/1.0', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const textBody = await response.text();
  return { status: response.status, body: textBody ? JSON.parse(textBody) : undefined };
}

const charge = (transaction: Record<string, unknown>, idempotencyKey?: string) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: accountId, ...(idempotencyKey ? { idempotencyKey } : {}), transaction }),
  );
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const refund = (id: string, amount: number) =>
  stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount }));
const statusOf = (id: string, status: TransactionStatus) => eventually(async () => (await read(id)).status === status, 10_000, `transaction ${id} ${status}`);

beforeAll(async () => {
  stack = await startTestStack({ logger: log.logger });
  asaas = await startAsaasStandIn({ apiKey: API_KEY });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'ASAAS',
    name: 'Asaas stand-in',
    publicKey: '',
    secretKey: API_KEY,
    baseUrl: asaas.baseUrl,
    webhookSecret: WEBHOOK_TOKEN,
  });
  accountId = providerAccount.id;
  // The merchant points Asaas's webhook at the gateway with the token the account holds (POST /v3/webhooks).
  const webhook = await merchantCall('POST', '/webhooks', {
    name: 'gateway',
    url: providerAccount.notificationUrl,
    email: 'dev@loja.example',
    enabled: true,
    interrupted: false,
    authToken: WEBHOOK_TOKEN,
    sendType: 'SEQUENTIALLY',
    events: ['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_REFUNDED', 'PAYMENT_PARTIALLY_REFUNDED', 'TRANSFER_DONE', 'TRANSFER_FAILED'],
  });
  expect(webhook.status).toBe(200);
});

afterAll(async () => {
  await asaas?.close();
  await stack?.close();
  moduleLog.restore();
});

describe('ASAAS against a stand-in written from its documentation', () => {
  it('declares the documentation it was verified against', async () => {
    expect(ASAAS.evidence).toEqual({ level: 'documented', addresses: ASAAS_SOURCES });
    expect(asaas.sources).toEqual(ASAAS_SOURCES);
  });

  it("PIX: a customer found or created by document, the QR code read, paid by Asaas's webhook, partly and then fully refunded", async () => {
    const { transaction } = await charge({ amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: ANA, orderId: 'order-pix-1' });
    expect(transaction).toMatchObject({ provider: 'ASAAS', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const payment = asaas.payments.get(transaction.transactionId)!;
    expect(payment).toMatchObject({ billingType: 'PIX', value: 1990, externalReference: 'order-pix-1' });
    expect(transaction.pixCode).toBe(payment.pixPayload);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(hasError(parsePix(transaction.pixCode))).toBe(false);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,iVBOR/);
    const [customer] = [...asaas.customers.values()];
    expect(customer).toMatchObject({ name: 'Ana Souza', cpfCnpj: '12345678909', email: 'ana@example.com', mobilePhone: '11987654321' });

    expect(await asaas.pay(transaction.transactionId)).toEqual([200]);
    const paid = await statusOf(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED).then(() => read(transaction.id));
    expect(paid.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

    // A partial PIX refund: Asaas takes it (PENDING until the devolução settles), the payment stays RECEIVED.
    const partial = await refund(transaction.id, 500);
    expect(partial.refund).toEqual({ refundId: transaction.transactionId, status: true });
    expect(partial.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(asaas.payments.get(transaction.transactionId)).toMatchObject({ status: 'RECEIVED', refunds: [{ status: 'PENDING', value: 500 }] });
    expect(await asaas.settleRefunds(transaction.transactionId)).toEqual([200]);

    // The rest: REFUND_IN_PROGRESS at Asaas, taken (never "nothing happened"), so the charge is refunded in full.
    const rest = await refund(transaction.id, 1490);
    expect(rest.refund).toEqual({ refundId: transaction.transactionId, status: true });
    expect(asaas.payments.get(transaction.transactionId)!.status).toBe('REFUND_IN_PROGRESS');
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(await asaas.settleRefunds(transaction.transactionId)).toEqual([200]);
    expect(asaas.payments.get(transaction.transactionId)!.status).toBe('REFUNDED');
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    // Nothing is left to refund, at the gateway as at Asaas.
    await expect(refund(transaction.id, 100)).rejects.toMatchObject({ details: expect.stringContaining('only an APPROVED transaction can be refunded') });
  });

  it("boleto: on the same customer (no duplicate), its line and PDF, paid by Asaas's webhook", async () => {
    const customersBefore = asaas.customers.size;
    const { transaction } = await charge({ amount: 25_000, paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET, customer: ANA });
    expect(asaas.customers.size).toBe(customersBefore);
    const payment = asaas.payments.get(transaction.transactionId)!;
    expect(payment).toMatchObject({ billingType: 'BOLETO', value: 25_000, customer: [...asaas.customers.keys()][0] });
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 25_000 });
    expect(isValidDigitableLine(transaction.billetCode)).toBe(true);
    expect(transaction.billetUrl).toBe(`https://www.asaas.com/b/pdf/${transaction.transactionId.slice(4)}`);
    expect(await asaas.pay(transaction.transactionId)).toEqual([200]);
    await statusOf(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect((await read(transaction.id, true)).paymentMethod).toBe(PaymentMethod.PAYMENT_METHOD_BILLET);
  });

  it('card: tokenized at Asaas for its customer, charged through the gateway on that customer, refunded in part and then in full', async () => {
    // The merchant registers Bruno at Asaas and tokenizes his card there (the token belongs to that customer).
    const created = await merchantCall('POST', '/customers', { name: BRUNO.name, cpfCnpj: '52998224725', email: BRUNO.email });
    expect(created.status).toBe(200);
    const tokenized = await merchantCall('POST', '/creditCard/tokenizeCreditCard', {
      customer: created.body.id,
      creditCard: { holderName: 'BRUNO LIMA', number: '4111111111111111', expiryMonth: '12', expiryYear: '2031', ccv: '123' },
      creditCardHolderInfo: {
        name: BRUNO.name,
        email: BRUNO.email,
        cpfCnpj: '52998224725',
        postalCode: '89223005',
        addressNumber: '277',
        phone: '21998765432',
      },
      remoteIp: '203.0.113.7',
    });
    expect(tokenized).toMatchObject({ status: 200, body: { creditCardNumber: '1111', creditCardBrand: 'VISA' } });
    const token: string = tokenized.body.creditCardToken;

    const customersBefore = asaas.customers.size;
    const { transaction } = await charge({
      amount: 12_990,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      customer: BRUNO,
      cardId: token,
      customerIp: '203.0.113.7',
      installments: 1,
    });
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 12_990 });
    expect(asaas.customers.size).toBe(customersBefore);
    expect(asaas.payments.get(transaction.transactionId)).toMatchObject({
      customer: created.body.id,
      status: 'CONFIRMED',
      creditCard: { creditCardToken: token, creditCardNumber: '1111' },
    });

    const partial = await refund(transaction.id, 2990);
    expect(partial.refund.status).toBe(true);
    expect(asaas.payments.get(transaction.transactionId)).toMatchObject({ status: 'CONFIRMED', refunds: [{ status: 'DONE', value: 2990 }] });
    const rest = await refund(transaction.id, 10_000);
    expect(rest.refund.status).toBe(true);
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(asaas.payments.get(transaction.transactionId)!.status).toBe('REFUNDED');
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it("a card token charged for another buyer is refused by Asaas, and Asaas's own reason reaches the caller", async () => {
    const owner = [...asaas.customers.values()].find((customer) => customer.cpfCnpj === '52998224725')!;
    const tokenized = await merchantCall('POST', '/creditCard/tokenizeCreditCard', {
      customer: owner.id,
      creditCard: { holderName: 'BRUNO LIMA', number: '5555555555554444', expiryMonth: '01', expiryYear: '2030', ccv: '321' },
      creditCardHolderInfo: {
        name: BRUNO.name,
        email: BRUNO.email,
        cpfCnpj: '52998224725',
        postalCode: '89223005',
        addressNumber: '277',
        phone: '21998765432',
      },
      remoteIp: '203.0.113.7',
    });
    const paymentsBefore = asaas.payments.size;
    await expect(
      charge({
        amount: 5000,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        customer: ANA,
        cardId: tokenized.body.creditCardToken,
        customerIp: '203.0.113.7',
      }),
    ).rejects.toMatchObject({ details: 'Erro ao criar transação: O token do cartão de crédito não pertence a este cliente.' });
    expect(asaas.payments.size).toBe(paymentsBefore);
  });

  it('PIX payout: a transfer to a PIX key, settled by the bank and confirmed by TRANSFER_DONE; a failed one is REJECTED with its failReason', async () => {
    const payout = async (amount: number, pixKey: string, pixType: PixKeyType) =>
      (
        await stack.client.call(
          'gateway',
          'withdraw',
          WithdrawRequest.fromPartial({
            providerAccountId: accountId,
            withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount, pixKey, pixType, description: 'Saque' },
          }),
        )
      ).withdrawal;
    const balanceBefore = asaas.balance;
    const done = await payout(2500, 'c873834c-ed18-4e63-8e5d-90190392b744', PixKeyType.PIX_KEY_TYPE_RANDOM);
    expect(done).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    expect(asaas.transfers.get(done.withdrawId)).toMatchObject({ value: 2500, pixAddressKeyType: 'EVP', status: 'PENDING' });
    expect(asaas.balance).toBe(balanceBefore - 2500);
    expect(await asaas.settleTransfer(done.withdrawId, 'DONE')).toEqual([200]);
    await eventually(
      async () =>
        (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: done.id }))).withdrawal.status ===
        WithdrawStatus.WITHDRAW_STATUS_APPROVED,
      10_000,
      'the payout APPROVED',
    );

    const failed = await payout(1000, 'bruno@example.com', PixKeyType.PIX_KEY_TYPE_EMAIL);
    expect(await asaas.settleTransfer(failed.withdrawId, 'FAILED')).toEqual([200]);
    await eventually(
      async () =>
        (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: failed.id }))).withdrawal.status ===
        WithdrawStatus.WITHDRAW_STATUS_REJECTED,
      10_000,
      'the failed payout REJECTED',
    );
    // TRANSFER_FAILED's transfer and GET /transfers/{id} state why: the payout's page shows Asaas's failReason.
    const refused = (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: failed.id }))).withdrawal;
    expect(refused.refusalReason).toBe(ASAAS_TRANSFER_FAIL_REASON);
    expect((await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: done.id, refresh: true }))).withdrawal.status).toBe(
      WithdrawStatus.WITHDRAW_STATUS_APPROVED,
    );
  });

  it('a payout Asaas refuses (more than the balance) is refused with its reason, and nothing is recorded as sent', async () => {
    await expect(
      stack.client.call(
        'gateway',
        'withdraw',
        WithdrawRequest.fromPartial({
          providerAccountId: accountId,
          withdraw: {
            paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX,
            amount: asaas.balance + 1,
            pixKey: 'ana@example.com',
            pixType: PixKeyType.PIX_KEY_TYPE_EMAIL,
          },
        }),
      ),
    ).rejects.toMatchObject({ details: 'Erro ao realizar saque: Saldo insuficiente para realizar a transferência.' });
  });

  describe("the gateway's card token", () => {
    const answers: unknown[] = [];
    const gatewayToken = async (card = GATEWAY_CARD) =>
      (await stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: accountId, card }))).cardToken;
    const cardCharge = (cardId: string, idempotencyKey: string, extra: Record<string, unknown> = {}) =>
      charge(
        {
          amount: 12990,
          paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
          customer: ANA,
          address: ANA_ADDRESS,
          customerIp: '198.51.100.23',
          cardId,
          ...extra,
        },
        idempotencyKey,
      );
    const paymentPosts = () => asaas.received.filter((request) => request.method === 'POST' && request.path === '/v3/payments');

    it('CreateCardToken answers a gateway token, asking Asaas nothing', async () => {
      const before = asaas.received.length;
      const token = await gatewayToken();
      answers.push(token);
      expect(token.startsWith('gct_v1.')).toBe(true);
      expect(asaas.received).toHaveLength(before);
    });

    it("charges the card on the buyer's customer as creditCard and creditCardHolderInfo, and uses the token up", async () => {
      const token = await gatewayToken();
      const sent = paymentPosts().length;
      const { transaction } = await cardCharge(token, 'asaas-gct-1');
      answers.push(transaction);
      expect(transaction).toMatchObject({ provider: 'ASAAS', status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 12990 });
      const ana = [...asaas.customers.values()].find((customer) => customer.cpfCnpj === '12345678909')!;
      // Asaas's shape: the card's own fields and its holder, the buyer's IP; neither the gateway's token nor a card token.
      const [request] = paymentPosts().slice(sent);
      expect(request!.body).toEqual({
        customer: ana.id,
        billingType: 'CREDIT_CARD',
        value: 129.9,
        dueDate: expect.any(String),
        creditCard: { holderName: 'ANA SOUZA', number: PAN, expiryMonth: '03', expiryYear: '2031', ccv: CVV },
        creditCardHolderInfo: {
          name: 'ANA SOUZA',
          email: 'ana@example.com',
          cpfCnpj: '12345678909',
          postalCode: '89223005',
          addressNumber: '277',
          phone: '11987654321',
        },
        remoteIp: '198.51.100.23',
      });
      expect(asaas.payments.get(transaction.transactionId)).toMatchObject({
        customer: ana.id,
        status: 'CONFIRMED',
        creditCard: { creditCardNumber: '0007', creditCardBrand: 'MASTERCARD' },
      });

      // Used up: another charge with it is refused by the gateway, nothing sent.
      const again = await failureOf(cardCharge(token, 'asaas-gct-2'));
      answers.push(again);
      expect(again.code).toBe('FAILED_PRECONDITION');
      expect((await errorDetailsOf(cardCharge(token, 'asaas-gct-3'))).reason).toBe('CARD_TOKEN_USED');
      expect(paymentPosts()).toHaveLength(sent + 1);
    });

    it('refuses a charge missing what Asaas requires of the holder, naming the field, before sending or using the token', async () => {
      const token = await gatewayToken();
      const sent = asaas.received.length;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ address: undefined }, 'transaction.address.zip_code'],
        [{ address: { ...ANA_ADDRESS, number: ' ' } }, 'transaction.address.number'],
        [{ customer: { ...ANA, email: '' } }, 'transaction.customer.email'],
        [{ customer: { ...ANA, phone: '' } }, 'transaction.customer.phone'],
        [{ customerIp: '' }, 'transaction.customer_ip'],
      ];
      for (const [extra, field] of cases) {
        const failure = await failureOf(cardCharge(token, `asaas-gct-missing-${field}`, extra));
        answers.push(failure);
        expect(failure).toEqual({
          code: 'INVALID_ARGUMENT',
          message: `${field} is required for ASAAS card charges with the gateway's card token (Asaas requires the card holder's)`,
        });
      }
      expect(asaas.received).toHaveLength(sent);
      // Nothing was used up: the same token charges once the request is whole.
      const { transaction } = await cardCharge(token, 'asaas-gct-whole');
      expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    });

    it("a card Asaas refuses is refused with Asaas's reason, and no payment is kept", async () => {
      const token = await gatewayToken({ ...GATEWAY_CARD, cardNumber: '5184019740373151' });
      const paymentsBefore = asaas.payments.size;
      const failure = await failureOf(cardCharge(token, 'asaas-gct-declined'));
      answers.push(failure);
      expect(failure.message).toBe('Erro ao criar transação: Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.');
      expect(asaas.payments.size).toBe(paymentsBefore);
    });

    it('the card number and the CVV are in no answer and no log line', () => {
      expect(log.lines.length + moduleLog.lines.length).toBeGreaterThan(0);
      expect(moduleLog.lines.some((line) => line.includes('/payments') && line.includes('creditCard'))).toBe(true);
      expectNoCardData('answers', JSON.stringify(answers), { pan: PAN, cvv: CVV });
      expectNoCardData('log', [...log.lines, ...moduleLog.lines].join('\n'), { pan: PAN, cvv: CVV });
    });
  });

  it("GetAccountBalance: Asaas's balance in reais read as cents", async () => {
    const read = await stack.client.call('accounts', 'getAccountBalance', GetAccountBalanceRequest.fromPartial({ providerAccountId: accountId }));
    expect(read).toMatchObject({ available: asaas.balance, currency: 'BRL' });
    expect(read.pending).toBeUndefined();
    expect(asaas.count('GET', '/v3/finance/balance')).toBe(1);
  });

  it('the stand-in saw only documented routes, and never failed', () => {
    expect(asaas.unmatched).toEqual([]);
    expect(asaas.crashed).toEqual([]);
    expect(asaas.count('POST', '/v3/customers')).toBe(2);
    expect(asaas.count('GET', '/v3/customers')).toBeGreaterThanOrEqual(2);
  });
});
