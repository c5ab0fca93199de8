import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CalculateInstallmentsRequest,
  CreateCardTokenRequest,
  CreateTransactionRequest,
  GetTransactionRequest,
  ListUnconfirmedRequestsRequest,
  RefoundTransactionRequest,
  SettlementOutcome,
  SettleUnconfirmedRequestRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { GetAccountStatementRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod, StatusSource, TransactionStatus, WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import {
  AddDisputeEvidenceRequest,
  DisputeKind,
  DisputeStatus,
  ListDisputesRequest,
  OpenDisputeRequest,
  type Dispute,
} from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { captureModuleLog, expectNoCardData } from '../support/cardDataSearch.js';
import { errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { capturedLogger } from '../support/logCapture.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { eventually } from '../support/eventually.js';
import { listNotifications, processedNotifications, type ListedNotification } from '../support/webhookNotifications.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { onDatabase } from '../support/postgres.js';
import { uploadEvidence } from '../support/uploads.js';
import { startMercadoPagoStandIn, type MercadoPagoStandIn } from './mercadopago.js';

/**
 * MERCADOPAGO's acceptance test: the whole gateway, driven through its public
 * gRPC contract, against a stand-in written from Mercado Pago's own
 * documentation (tests/standins/mercadopago.ts): PIX, boleto and card charges,
 * reads, partial and full refunds (a retried refund never refunds twice), and
 * Mercado Pago's signed webhook into a status.
 */

const ACCESS_TOKEN = 'APP_USR-4921000000000000-031012-standin-access-token';
const PUBLIC_KEY = 'APP_USR-5f1c0000-standin-public-key';
const WEBHOOK_SECRET = 'mercadopago-secret-signature';

const CUSTOMER = { name: 'Ana Maria Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '11987654321' };
const ADDRESS = { zipCode: '06233-200', address: 'Av. das Nações Unidas', number: '3003', district: 'Bonfim', city: 'Osasco', state: 'sp' };

const log = capturedLogger('debug');
const moduleLog = captureModuleLog();
let stack: TestStack;
let client: Driver;
let mp: MercadoPagoStandIn;
let accountId: string;
/** Where Mercado Pago posts this account's notifications: a payment's notification_url, and the panel's Chargebacks event. */
let notificationUrl: string;

beforeAll(async () => {
  stack = await startTestStack({ logger: log.logger });
  client = stack.client;
  mp = await startMercadoPagoStandIn({ accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY, webhookSecret: WEBHOOK_SECRET });
  const { providerAccount } = await client.call('accounts', 'createProviderAccount', {
    provider: 'MERCADOPAGO',
    name: 'Mercado Pago stand-in',
    publicKey: PUBLIC_KEY,
    secretKey: ACCESS_TOKEN,
    baseUrl: mp.url,
    webhookSecret: WEBHOOK_SECRET,
  });
  accountId = providerAccount.id;
  notificationUrl = providerAccount.notificationUrl;
});

afterEach(() => {
  // Every request the gateway made is one Mercado Pago documents, and the stand-in never failed on one.
  expect(mp.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(mp.crashed).toEqual([]);
});

afterAll(async () => {
  await mp?.close();
  await stack?.close();
  moduleLog.restore();
});

const charge = (transaction: Record<string, unknown>, idempotencyKey = '', providerAccountId = accountId) =>
  client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId, idempotencyKey, transaction: { amount: 1990, customer: CUSTOMER, ...transaction } }),
  );
const read = async (id: string, refresh = false) =>
  (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const refund = (id: string, amount: number, idempotencyKey: string) =>
  client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));
const history = (transaction: { statusHistory: Array<{ status: number; source: number }> }) =>
  transaction.statusHistory.map((change) => [change.status, change.source]);

/** A card token as MercadoPago.js makes it in the buyer's browser, with the account's public key. */
async function cardToken(cardNumber: string, holder: string): Promise<string> {
  const response = await fetch(`${mp.url}/v1/card_tokens?public_key=${PUBLIC_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      card_number: cardNumber,
      security_code: '123',
      expiration_month: 11,
      expiration_year: 2030,
      cardholder: { name: holder, identification: { type: 'CPF', number: '12345678909' } },
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('MERCADOPAGO through the public gRPC API, against a stand-in from its documentation', () => {
  it('PIX: charged, paid at Mercado Pago, and its signed webhook read back into APPROVED', async () => {
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, orderId: 'order-pix-1' }, 'pix-1');
    expect(transaction).toMatchObject({ provider: 'MERCADOPAGO', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(mp.payment(transaction.transactionId)).toMatchObject({ transaction_amount: 19.9, payment_method_id: 'pix', external_reference: 'order-pix-1' });

    const delivered = await mp.pay(transaction.transactionId);
    expect(delivered.status).toBe(200);
    const approved = await eventually(async () => {
      const current = await read(transaction.id);
      return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
    });
    expect(history(approved)).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // Read from Mercado Pago on demand: the same status, nothing moved twice.
    expect(await read(transaction.id, true)).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, statusHistory: approved.statusHistory });
  });

  it("a notification not signed with the account's secret moves nothing, even when the payment is paid", async () => {
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX }, 'pix-forged');
    // Paid at Mercado Pago, but the only word of it is a forgery: the gateway must not act on it.
    Object.assign(mp.payment(transaction.transactionId)!, { status: 'approved', status_detail: 'accredited' });
    const reads = mp.count('GET', '/v1/payments/{id}');
    expect((await mp.notify(transaction.transactionId, { secret: 'not-the-secret' })).status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(mp.count('GET', '/v1/payments/{id}')).toBe(reads);

    await mp.notify(transaction.transactionId);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED, 10_000, 'the genuine webhook');
  });

  it("boleto: registered with the payer's address, paid, approved; without the address it is refused before Mercado Pago is asked", async () => {
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET, address: ADDRESS }, 'boleto-1');
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    expect(transaction.billetCode).toMatch(/^\d{47}$/);
    expect(transaction.billetUrl).toContain(`/payments/${transaction.transactionId}/ticket`);
    expect(mp.payment(transaction.transactionId)).toMatchObject({
      payment_method_id: 'bolbradesco',
      payer: {
        first_name: 'Ana',
        last_name: 'Maria Souza',
        identification: { type: 'CPF', number: '12345678909' },
        address: {
          zip_code: '06233200',
          street_name: 'Av. das Nações Unidas',
          street_number: '3003',
          neighborhood: 'Bonfim',
          city: 'Osasco',
          federal_unit: 'SP',
        },
      },
    });
    await mp.pay(transaction.transactionId);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED, 10_000, 'the paid boleto');

    const posts = mp.count('POST', '/v1/payments');
    expect(await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET }, 'boleto-no-address'))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.address is required for MERCADOPAGO boletos'),
    });
    expect(
      await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET, address: { ...ADDRESS, district: ' ' } }, 'boleto-no-district')),
    ).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('transaction.address.district is required') });
    expect(mp.count('POST', '/v1/payments')).toBe(posts);
  });

  it("card: the token's brand found by its BIN, charged, approved; a declined card is REJECTED", async () => {
    const approved = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('5031 4332 1540 6351', 'APRO'), installments: 2 },
      'card-1',
    );
    expect(approved.transaction).toMatchObject({
      status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
      amount: 1990,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
    });
    expect(mp.payment(approved.transaction.transactionId)).toMatchObject({ payment_method_id: 'master', payment_type_id: 'credit_card', installments: 2 });

    const declined = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('4235 6477 2802 5682', 'OTHE') },
      'card-2',
    );
    expect(declined.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
    expect(mp.payment(declined.transaction.transactionId)).toMatchObject({ payment_method_id: 'visa', status: 'rejected' });
    expect(declined.transaction).toMatchObject({ declineReason: 'cc_rejected_other_reason', declineCategory: 'card_declined' });
  });

  it.each([
    ['FUND', 'cc_rejected_insufficient_amount', 'insufficient_funds'],
    ['SECU', 'cc_rejected_bad_filled_security_code', 'invalid_card'],
    ['CALL', 'cc_rejected_call_for_authorize', 'card_declined'],
    ['DUPL', 'cc_rejected_duplicated_payment', 'other'],
  ])("card refused for %s: its status_detail is the decline's reason, stored and read back with its category", async (holder, reason, category) => {
    const { transaction } = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('4235 6477 2802 5682', holder) },
      `card-refused-${holder}`,
    );
    expect(mp.payment(transaction.transactionId)).toMatchObject({ status: 'rejected', status_detail: reason });
    for (const refresh of [false, true])
      expect(await read(transaction.id, refresh)).toMatchObject({
        status: TransactionStatus.TRANSACTION_STATUS_REJECTED,
        declineReason: reason,
        declineCategory: category,
      });
  });

  it("keeps the fee Mercado Pago's answer lists for the seller (fee_details paid by the collector) and counts it in the statement", async () => {
    const { providerAccount } = await client.call('accounts', 'createProviderAccount', {
      provider: 'MERCADOPAGO',
      name: 'Mercado Pago fees',
      publicKey: PUBLIC_KEY,
      secretKey: ACCESS_TOKEN,
      baseUrl: mp.url,
      webhookSecret: WEBHOOK_SECRET,
    });
    const { transaction } = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('5031 4332 1540 6351', 'APRO') },
      '',
      providerAccount.id,
    );
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    // The stand-in's card rate, 4.98 % of R$ 19,90, as its create answer lists it.
    expect(mp.payment(transaction.transactionId)).toMatchObject({
      fee_details: [{ type: 'mercadopago_fee', amount: 0.99, fee_payer: 'collector' }],
      transaction_details: { net_received_amount: 18.91 },
    });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const statement = await client.call(
      'accounts',
      'getAccountStatement',
      GetAccountStatementRequest.fromPartial({ providerAccountId: providerAccount.id, fromDay: today, toDay: today }),
    );
    expect(statement.days).toEqual([
      expect.objectContaining({ chargesCount: 1, chargesAmount: 1990, feesAmount: 99, feesReportedCount: 1, feesDeclaredCount: 0 }),
    ]);
  });

  it('a card payment in process and rejected later: the reason comes with the read that confirms the webhook, and with a refresh', async () => {
    const { transaction } = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('4235 6477 2802 5682', 'CONT') },
      'card-in-process',
    );
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, declineReason: '' });
    expect((await mp.reject(transaction.transactionId, 'cc_rejected_high_risk')).status).toBeLessThan(300);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_REJECTED, 10_000, 'the rejected card');
    for (const refresh of [false, true])
      expect(await read(transaction.id, refresh)).toMatchObject({ declineReason: 'cc_rejected_high_risk', declineCategory: 'fraud_suspected' });
  });

  it("the gateway's card token: exchanged for a Mercado Pago card token at charge time, charged with it, used up; no card data in answers or logs", async () => {
    const PAN = '5031433215406351';
    const CVV = '8426';
    const card = { cardNumber: '5031 4332 1540 6351', holderName: 'APRO', holderDocument: '', expMonth: '11', expYear: '30', cvv: CVV };
    const answers: unknown[] = [];
    const { cardToken: token } = await client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: accountId, card }));
    expect(token.startsWith('gct_v1.')).toBe(true);
    const before = mp.received.length;
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token, installments: 3 }, 'gct-card-1');
    answers.push(transaction);
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 1990 });
    const calls = mp.received.slice(before);
    expect(calls.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/card_tokens',
      'GET /v1/payment_methods/search',
      'POST /v1/payments',
    ]);
    // Mercado Pago's card token shape, with the account's access token (a server-side tokenization).
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(calls[0]!.body).toEqual({
      card_number: PAN,
      expiration_month: 11,
      expiration_year: 2030,
      security_code: CVV,
      cardholder: { name: 'APRO', identification: { type: 'CPF', number: '12345678909' } },
    });
    // The payment carries the token Mercado Pago answered (never the gateway's) and the brand of the BIN.
    const made = calls[2]!.body as { token: string; payment_method_id: string; installments: number };
    expect(made.token).not.toContain('gct_v1');
    expect(made).toMatchObject({ payment_method_id: 'master', installments: 3 });
    expect(mp.payment(transaction.transactionId)).toMatchObject({ payment_method_id: 'master', status: 'approved' });

    // Used up: another charge with it is refused by the gateway, nothing sent.
    const again = await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token }, 'gct-card-2'));
    answers.push(again);
    expect(again.code).toBe('FAILED_PRECONDITION');
    expect((await errorDetailsOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token }, 'gct-card-3'))).reason).toBe(
      'CARD_TOKEN_USED',
    );
    expect(mp.received).toHaveLength(before + 3);

    expect(moduleLog.lines.some((line) => line.includes('/v1/card_tokens'))).toBe(true);
    expectNoCardData('answers', JSON.stringify(answers), { pan: PAN, cvv: CVV });
    expectNoCardData('log', [...log.lines, ...moduleLog.lines].join('\n'), { pan: PAN, cvv: CVV });
  });

  it('a charge whose answer was lost, settled by an operator and sent again with its key, is the same payment at Mercado Pago', async () => {
    const cardId = await cardToken('5031 4332 1540 6351', 'APRO');
    const posts = mp.count('POST', '/v1/payments');
    const held0 = mp.paymentCount();
    mp.loseNextAnswer('payment');
    expect((await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId }, 'card-lost'))).code).toBe('UNAVAILABLE');
    const { requests } = await client.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: accountId }));
    const held = requests.find((request: { idempotencyKey: string }) => request.idempotencyKey === 'card-lost');
    // Say an operator, not finding it, settles it as never made: the retry reaches Mercado Pago with the same key.
    await client.call(
      'gateway',
      'settleUnconfirmedRequest',
      SettleUnconfirmedRequestRequest.fromPartial({ id: held!.id, outcome: SettlementOutcome.SETTLEMENT_OUTCOME_FAILED, note: 'not found in the panel' }),
    );
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId }, 'card-lost');
    expect(mp.count('POST', '/v1/payments')).toBe(posts + 2);
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    // One payment at Mercado Pago: the second request got the first one's answer.
    expect(mp.paymentCount()).toBe(held0 + 1);
    expect(mp.payment(transaction.transactionId)).toMatchObject({ status: 'approved' });
  });

  it('refunds in part, then the rest; a retried refund is the same refund at Mercado Pago, never a second one', async () => {
    const { transaction } = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('4235 6477 2802 5682', 'APRO') },
      'card-refunds',
    );
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const atMercadoPago = () => mp.payment(transaction.transactionId)!;

    const first = await refund(transaction.id, 500, 'refund-part-1');
    expect(first.refund.status).toBe(true);
    expect(first.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(atMercadoPago()).toMatchObject({ status: 'approved', status_detail: 'partially_refunded', transaction_amount_refunded: 5 });
    // The same request again is answered from the gateway's record.
    expect((await refund(transaction.id, 500, 'refund-part-1')).refund).toEqual(first.refund);
    expect(atMercadoPago().refunds).toHaveLength(1);

    // Mercado Pago makes the second refund, but its answer is lost; an operator settles it as failed, and the caller retries.
    mp.loseNextAnswer('refund');
    expect((await failureOf(refund(transaction.id, 700, 'refund-part-2'))).code).toBe('UNAVAILABLE');
    expect(atMercadoPago().refunds).toHaveLength(2);
    const { requests } = await client.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: accountId }));
    const held = requests.find((request: { idempotencyKey: string }) => request.idempotencyKey === 'refund-part-2');
    await client.call(
      'gateway',
      'settleUnconfirmedRequest',
      SettleUnconfirmedRequestRequest.fromPartial({ id: held!.id, outcome: SettlementOutcome.SETTLEMENT_OUTCOME_FAILED, note: 'not seen yet' }),
    );
    const retried = await refund(transaction.id, 700, 'refund-part-2');
    expect(retried.refund).toEqual({ refundId: String(atMercadoPago().refunds[1]!.id), status: true });
    expect(atMercadoPago()).toMatchObject({ transaction_amount_refunded: 12, status: 'approved' });
    expect(atMercadoPago().refunds).toHaveLength(2);

    const rest = await refund(transaction.id, 790, 'refund-rest');
    expect(rest.refund.status).toBe(true);
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(atMercadoPago()).toMatchObject({ status: 'refunded', transaction_amount_refunded: 19.9 });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });
});

describe("MERCADOPAGO's installments: Mercado Pago's own quote for the card's BIN, through the contract", () => {
  interface Option {
    installmentNumber: number;
    installmentValue: number;
    finalValue: number;
    lastInstallmentValue: number;
  }
  const quote = async (amount: number, cardBin?: string): Promise<Option[]> =>
    // fromPartial: a plain object without card_bin would go out as the text 'undefined' (ts-proto encodes what it is given).
    (await client.call('gateway', 'calculateInstallments', CalculateInstallmentsRequest.fromPartial({ providerAccountId: accountId, amount, cardBin })))
      .options;
  const quotes = () => mp.received.filter((request) => request.path === '/v1/payment_methods/installments');

  it('asks GET /v1/payment_methods/installments with the amount in reais and the BIN, and answers its costs in cents adding up exactly', async () => {
    const before = quotes().length;
    const options = await quote(10_000, '50314332');

    const asked = quotes().slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'GET', query: { amount: '100', bin: '50314332' }, headers: { authorization: `Bearer ${ACCESS_TOKEN}` } });
    // The stand-in's Mastercard costs: 1 to 3 free of interest, 4 to 12 with its rates.
    expect(options.map((o) => o.installmentNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(options.slice(0, 4)).toEqual([
      { installmentNumber: 1, installmentValue: 10_000, finalValue: 10_000, lastInstallmentValue: 10_000 },
      { installmentNumber: 2, installmentValue: 5_000, finalValue: 10_000, lastInstallmentValue: 5_000 },
      // R$ 33.33 three times would be R$ 99.99: the last absorbs the cent.
      { installmentNumber: 3, installmentValue: 3_333, finalValue: 10_000, lastInstallmentValue: 3_334 },
      // R$ 104.99 in 4: R$ 26.25, 26.25, 26.25 and 26.24.
      { installmentNumber: 4, installmentValue: 2_625, finalValue: 10_499, lastInstallmentValue: 2_624 },
    ]);
    for (const option of options) {
      expect([option.installmentValue, option.finalValue, option.lastInstallmentValue].every(Number.isSafeInteger)).toBe(true);
      expect((option.installmentNumber - 1) * option.installmentValue + option.lastInstallmentValue).toBe(option.finalValue);
    }
    // The price Mercado Pago stated for 12 installments, to the cent: R$ 114.27.
    expect(options[11]).toMatchObject({ finalValue: 11_427, installmentValue: 952, lastInstallmentValue: 955 });
  });

  it('a card_bin that is not 6 to 8 digits is INVALID_ARGUMENT naming card_bin, and Mercado Pago is never asked', async () => {
    const before = quotes().length;
    for (const cardBin of ['50314', '503143321', '5031-433', '5031433a', ' 503143', '5031433215406351']) {
      expect(await failureOf(quote(10_000, cardBin))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('card_bin') });
      expect((await errorDetailsOf(quote(10_000, cardBin))).fields).toEqual(['card_bin']);
    }
    // Never the digits themselves in the answer: a whole card number sent by mistake stays out of it.
    expect((await failureOf(quote(10_000, '5031433215406351'))).message).not.toContain('5031433215406351');
    expect(quotes().length).toBe(before);
  });

  it('without card_bin: FAILED_PRECONDITION naming card_bin (Mercado Pago quotes by the card), nothing sent', async () => {
    const before = quotes().length;
    expect(await failureOf(quote(10_000))).toMatchObject({ code: 'FAILED_PRECONDITION', message: expect.stringContaining('card_bin') });
    expect((await errorDetailsOf(quote(10_000))).reason).toBe('CARD_BIN_REQUIRED');
    expect(quotes().length).toBe(before);
  });

  it("a BIN Mercado Pago quotes no credit card installments for (a debit card's, an unknown one) is INVALID_ARGUMENT naming card_bin", async () => {
    for (const cardBin of ['50677612', '999999']) {
      const before = quotes().length;
      expect(await failureOf(quote(10_000, cardBin))).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'Erro ao calcular parcelas: Mercado Pago quotes no credit card installments for this card_bin',
      });
      expect(quotes().length).toBe(before + 1);
    }
  });
});

describe("MERCADOPAGO's chargeback defence: the evidence reaches the chargeback at Mercado Pago as files", () => {
  const PDF = Buffer.from('%PDF-1.4\n% nota fiscal\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  // A PNG's signature and header: bytes that are not text, which must arrive as they were uploaded.
  const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000ff1f15c4', 'hex');

  /** An approved card payment charged back at Mercado Pago, moved to CHARGEBACK by its webhook: its dispute (opened by the gateway). */
  async function chargedBack(holder = 'APRO'): Promise<{ dispute: Dispute; paymentId: string; chargebackId: string }> {
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('5031 4332 1540 6351', holder) });
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const { chargebackId, notified } = await mp.chargeBack(transaction.transactionId);
    expect(notified?.status).toBe(200);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
    const { disputes } = await client.call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ transactionId: transaction.id }));
    expect(disputes).toHaveLength(1);
    return { dispute: disputes[0], paymentId: transaction.transactionId, chargebackId };
  }
  const addEvidence = async (disputeId: string, fileName: string, bytes: Buffer, contentType?: string) =>
    client.call(
      'disputes',
      'addDisputeEvidence',
      AddDisputeEvidenceRequest.fromPartial({ disputeId, documentUrl: await uploadEvidence(client, fileName, bytes, contentType), description: fileName }),
    );
  const submit = (disputeId: string) => client.call('disputes', 'submitDisputeDefense', { disputeId });
  const getDispute = async (id: string): Promise<Dispute> => (await client.call('disputes', 'getDispute', { id })).dispute;

  it("finds the chargeback's own id from the payment, uploads every document as files[], and keeps that id on the dispute", async () => {
    const { dispute, paymentId, chargebackId } = await chargedBack();
    expect(dispute).toMatchObject({ providerDisputeId: '', providerTakesDefense: true, status: DisputeStatus.DISPUTE_STATUS_OPEN });
    await addEvidence(dispute.id, 'nota fiscal.pdf', PDF);
    await addEvidence(dispute.id, 'comprovante de entrega.png', PNG, 'image/png');

    const { dispute: submitted } = await submit(dispute.id);
    expect(submitted).toMatchObject({
      status: DisputeStatus.DISPUTE_STATUS_EVIDENCE_SUBMITTED,
      sentToProvider: true,
      providerDisputeId: chargebackId,
    });
    expect(mp.count('GET', `/v1/chargebacks/${paymentId}`)).toBe(1);
    const atMercadoPago = mp.chargeback(chargebackId)!;
    expect(atMercadoPago.documentation_status).toBe('review_pending');
    expect(atMercadoPago.files).toEqual([
      { name: 'nota fiscal.pdf', type: 'application/pdf', bytes: PDF },
      { name: 'comprovante de entrega.png', type: 'image/png', bytes: PNG },
    ]);
    expect(submitted.evidence.map((item: { sentAt?: Date }) => item.sentAt)).toEqual([submitted.submittedAt, submitted.submittedAt]);

    // Sent again (a dispute takes more evidence while open): only the new document, straight to the chargeback's id, now known.
    await addEvidence(dispute.id, 'conversa.pdf', PDF);
    const { dispute: again } = await submit(dispute.id);
    expect(mp.count('GET', `/v1/chargebacks/${paymentId}`)).toBe(1);
    expect(mp.chargeback(chargebackId)!.files.map((file) => file.name)).toEqual(['nota fiscal.pdf', 'comprovante de entrega.png', 'conversa.pdf']);
    expect(mp.chargeback(chargebackId)!.documentation).toHaveLength(3);
    expect(again.evidence.map((item: { sentAt?: Date }) => item.sentAt)).toEqual([submitted.submittedAt, submitted.submittedAt, again.submittedAt]);

    // Nothing new: refused with its reason before anything is sent, the dispute as it was.
    const uploads = mp.count('POST', '/v1/chargebacks/{id}/documentation');
    const nothingNew = submit(dispute.id);
    expect(await failureOf(nothingNew)).toEqual({
      code: 'FAILED_PRECONDITION',
      message: `dispute ${dispute.id}: every document already reached MERCADOPAGO; add a new document to send it`,
    });
    expect((await errorDetailsOf(submit(dispute.id))).reason).toBe('NO_NEW_EVIDENCE');
    expect(mp.count('POST', '/v1/chargebacks/{id}/documentation')).toBe(uploads);
    expect((await getDispute(dispute.id)).submittedAt).toEqual(again.submittedAt);
    // The documents' bytes are in no log line (the debug log of provider exchanges included).
    const logged = [...log.lines, ...moduleLog.lines].join('\n');
    expect(logged).toContain(`/v1/chargebacks/${chargebackId}/documentation`);
    expect(logged).not.toContain('1 0 obj');
  });

  it('two defences at once: one sends each document once, the other is refused (DEFENSE_IN_PROGRESS); a dead send holds its documents only until its lease ends', async () => {
    const { dispute, chargebackId } = await chargedBack();
    await addEvidence(dispute.id, 'nota fiscal.pdf', PDF);
    await addEvidence(dispute.id, 'comprovante de entrega.png', PNG, 'image/png');
    const uploads = () => mp.count('POST', '/v1/chargebacks/{id}/documentation');
    const files = () => mp.chargeback(chargebackId)!.files.map((file) => file.name);
    const before = uploads();

    // The upload takes long enough for the second call to arrive while the first is sending.
    mp.slowDocumentationUploads(400);
    const calls = [submit(dispute.id), submit(dispute.id)];
    const settled = await Promise.allSettled(calls);
    mp.slowDocumentationUploads(0);
    expect(settled.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = calls[settled.findIndex((outcome) => outcome.status === 'rejected')]!;
    expect(await failureOf(refused)).toEqual({
      code: 'FAILED_PRECONDITION',
      message: `dispute ${dispute.id}: another call is sending its evidence to MERCADOPAGO right now; nothing was sent twice: read the dispute again in a moment`,
    });
    expect((await errorDetailsOf(refused)).reason).toBe('DEFENSE_IN_PROGRESS');
    expect(uploads()).toBe(before + 1);
    expect(files()).toEqual(['nota fiscal.pdf', 'comprovante de entrega.png']);
    expect((await getDispute(dispute.id)).evidence.every((item: { sentAt?: Date }) => item.sentAt !== undefined)).toBe(true);

    // A process that claimed a new document and died mid-send: its claim holds the document while its lease lasts, and no longer.
    await addEvidence(dispute.id, 'conversa.pdf', PDF);
    const claimLeft = (until: string) =>
      onDatabase(stack.database.url, (db) =>
        db.query(
          `update dispute_evidence set sending_claim = gen_random_uuid(), sending_until = now() + $2::interval where dispute_id = $1 and sent_at is null`,
          [dispute.id, until],
        ),
      );
    await claimLeft('5 minutes');
    expect((await errorDetailsOf(submit(dispute.id))).reason).toBe('DEFENSE_IN_PROGRESS');
    expect(uploads()).toBe(before + 1);
    await claimLeft('-1 second');
    await submit(dispute.id);
    expect(uploads()).toBe(before + 2);
    expect(files()).toEqual(['nota fiscal.pdf', 'comprovante de entrega.png', 'conversa.pdf']);
    expect((await errorDetailsOf(submit(dispute.id))).reason).toBe('NO_NEW_EVIDENCE');
  });

  it("Mercado Pago's refusal comes back in its words and the dispute stays as it was; files over its limits are refused before anything is sent", async () => {
    const { dispute, chargebackId } = await chargedBack();
    await addEvidence(dispute.id, 'nota fiscal.pdf', PDF);
    mp.closeDocumentation(chargebackId);
    const uploads = () => mp.count('POST', '/v1/chargebacks/{id}/documentation');
    const before = uploads();

    expect(await failureOf(submit(dispute.id))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao enviar defesa: the deadline to send documentation for this chargeback has expired',
    });
    expect(uploads()).toBe(before + 1);
    expect(mp.chargeback(chargebackId)!.files).toEqual([]);
    const unchanged = await getDispute(dispute.id);
    expect(unchanged).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_OPEN, sentToProvider: false, providerDisputeId: '' });
    expect(unchanged.submittedAt).toBeUndefined();
    expect(unchanged.evidence[0]!.sentAt).toBeUndefined();

    // Two documents of 5.5 MB: each within the gateway's upload limit, 11 MB together over Mercado Pago's 10 MB.
    const large = Buffer.concat([PDF, Buffer.alloc(5_500_000, 0x20)]);
    await addEvidence(dispute.id, 'extrato 1.pdf', large);
    await addEvidence(dispute.id, 'extrato 2.pdf', large);
    const requests = mp.received.length;
    const refused = submit(dispute.id);
    expect(await failureOf(refused)).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao enviar defesa: Mercado Pago takes at most 10 MB of files in all; this defence has 11 MB; nothing was sent',
    });
    expect((await errorDetailsOf(submit(dispute.id))).reason).toBe('DEFENSE_DOCUMENTS_REFUSED');
    expect(mp.received.length).toBe(requests);
    expect(await getDispute(dispute.id)).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_OPEN, sentToProvider: false });
  });

  const disputesOf = async (transactionId: string): Promise<Dispute[]> =>
    (await client.call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ transactionId }))).disputes;
  const cardCharge = async (providerAccountId = accountId) => {
    const { transaction } = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: await cardToken('5031 4332 1540 6351', 'APRO') },
      '',
      providerAccountId,
    );
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    return transaction;
  };
  /** The charge's one dispute, once it carries the chargeback's id. */
  const disputeOfChargeback = (transactionId: string, chargebackId: string) =>
    eventually(async () => {
      const disputes = await disputesOf(transactionId);
      return disputes.length === 1 && disputes[0]!.providerDisputeId === chargebackId && disputes[0];
    });

  it("a chargeback notification alone: the payment CHARGEBACK, its dispute with the chargeback's own id, amount and deadline; the defence goes straight to that id", async () => {
    const transaction = await cardCharge();
    // The payment's own webhook is lost on the way: the chargebacks topic's notification is the only word of it.
    const { chargebackId } = await mp.chargeBack(transaction.transactionId, { paymentWebhook: false });
    // 18 digits, written as a JSON number: beyond what a double holds exactly, so read digit for digit or not at all.
    expect(String(Number(chargebackId))).not.toBe(chargebackId);
    mp.configureChargebackNotifications(notificationUrl);
    try {
      const lookups = () => mp.count('GET', '/v1/chargebacks/{id}');
      const before = lookups();
      expect((await mp.notifyChargeback(chargebackId, { secret: 'not-the-secret' })).status).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
      expect(lookups()).toBe(before);

      expect((await mp.notifyChargeback(chargebackId)).status).toBe(200);
      const dispute = await disputeOfChargeback(transaction.id, chargebackId);
      const atMercadoPago = mp.chargeback(chargebackId)!;
      expect(dispute).toMatchObject({
        kind: DisputeKind.DISPUTE_KIND_CHARGEBACK,
        status: DisputeStatus.DISPUTE_STATUS_OPEN,
        amount: 1990,
        reason: 'chargeback reported by the provider',
        providerTakesDefense: true,
      });
      expect(dispute.deadline).toEqual(new Date(atMercadoPago.date_documentation_deadline));
      expect(history(await read(transaction.id))).toEqual([
        [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_API],
        [TransactionStatus.TRANSACTION_STATUS_CHARGEBACK, StatusSource.STATUS_SOURCE_WEBHOOK],
      ]);
      expect(mp.count('GET', `/v1/chargebacks/${chargebackId}`)).toBe(1);

      // The defence: to the chargeback's id the notification gave, with no lookup of it.
      await addEvidence(dispute.id, 'nota fiscal.pdf', PDF);
      const { dispute: submitted } = await submit(dispute.id);
      expect(submitted).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_EVIDENCE_SUBMITTED, sentToProvider: true, providerDisputeId: chargebackId });
      expect(lookups()).toBe(before + 1);
      expect(mp.chargeback(chargebackId)!.files.map((file) => file.name)).toEqual(['nota fiscal.pdf']);

      // Mercado Pago changes the chargeback: the same dispute follows it (still submitted), no second one is opened.
      const deadline = new Date(Date.now() + 10 * 86_400_000).toISOString();
      expect((await mp.updateChargeback(chargebackId, { amount: 12.5, date_documentation_deadline: deadline }))?.status).toBe(200);
      const updated = await eventually(async () => {
        const disputes = await disputesOf(transaction.id);
        return disputes.length === 1 && disputes[0]!.amount === 1250 && disputes[0];
      });
      expect(updated).toMatchObject({ id: dispute.id, providerDisputeId: chargebackId, status: DisputeStatus.DISPUTE_STATUS_EVIDENCE_SUBMITTED });
      expect(updated.deadline).toEqual(new Date(deadline));
    } finally {
      mp.configureChargebackNotifications(undefined);
    }
  });

  it("the payment's webhook first, then the chargeback's: the dispute the move opened gets the chargeback's id, and stays the only one", async () => {
    const transaction = await cardCharge();
    mp.configureChargebackNotifications(notificationUrl);
    try {
      const { chargebackId, notified, chargebackNotified } = await mp.chargeBack(transaction.transactionId);
      expect([notified?.status, chargebackNotified?.status]).toEqual([200, 200]);
      await processedNotifications(client, transaction.id, 2);
      const dispute = await disputeOfChargeback(transaction.id, chargebackId);
      expect(dispute.deadline).toEqual(new Date(mp.chargeback(chargebackId)!.date_documentation_deadline));
    } finally {
      mp.configureChargebackNotifications(undefined);
    }
  });

  it('an account without the webhook secret: the chargeback read, and the payment read confirming it, before anything moves', async () => {
    const { providerAccount: unsigned } = await client.call('accounts', 'createProviderAccount', {
      provider: 'MERCADOPAGO',
      name: 'Mercado Pago stand-in, no webhook secret',
      publicKey: PUBLIC_KEY,
      secretKey: ACCESS_TOKEN,
      baseUrl: mp.url,
    });
    const transaction = await cardCharge(unsigned.id);
    const { chargebackId } = await mp.chargeBack(transaction.transactionId, { paymentWebhook: false });
    mp.configureChargebackNotifications(unsigned.notificationUrl);
    try {
      const paymentReads = mp.count('GET', `/v1/payments/${transaction.transactionId}`);
      await mp.notifyChargeback(chargebackId);
      const dispute = await disputeOfChargeback(transaction.id, chargebackId);
      expect(dispute.amount).toBe(1990);
      expect(mp.count('GET', `/v1/chargebacks/${chargebackId}`)).toBe(1);
      expect(mp.count('GET', `/v1/payments/${transaction.transactionId}`)).toBe(paymentReads + 1);
      expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
    } finally {
      mp.configureChargebackNotifications(undefined);
    }
  });

  it('an IPN (?topic=chargebacks&id=…) on an account with the webhook secret: unsigned whatever its x-signature, so the reads decide', async () => {
    const transaction = await cardCharge();
    // Only the IPN tells of it: the payment's webhook is lost and the Chargebacks webhook event is not configured.
    const { chargebackId } = await mp.chargeBack(transaction.transactionId, { paymentWebhook: false });
    // The merchant's own parameter on the IPN URL: a credential-like one is never stored.
    mp.configureIpn(`${notificationUrl}?token=merchant-secret&store=loja-1`);
    try {
      const paymentReads = mp.count('GET', `/v1/payments/${transaction.transactionId}`);
      expect((await mp.notifyIpn('chargebacks', chargebackId)).status).toBe(200);
      const dispute = await disputeOfChargeback(transaction.id, chargebackId);
      expect(dispute.amount).toBe(1990);
      expect(mp.count('GET', `/v1/chargebacks/${chargebackId}`)).toBe(1);
      // Unsigned: the CHARGEBACK it claims is confirmed with the payment's read before it applies.
      expect(mp.count('GET', `/v1/payments/${transaction.transactionId}`)).toBe(paymentReads + 1);
      expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);

      const [stored] = (await processedNotifications(client, transaction.id, 1)) as (ListedNotification & { id: string })[];
      const raw = await client.call('webhooks', 'getWebhookNotification', { id: stored!.id });
      expect(raw.query).toEqual({ store: 'loja-1', topic: 'chargebacks', id: chargebackId });
    } finally {
      mp.configureIpn(undefined);
    }
  });

  it('payment IPNs: each one processed (the body says nothing, so two never look like one), and other topics ignored', async () => {
    const transaction = await cardCharge();
    mp.configureIpn(notificationUrl);
    try {
      expect((await mp.notifyIpn('payment', transaction.transactionId)).status).toBe(200);
      expect((await mp.notifyIpn('payment', transaction.transactionId)).status).toBe(200);
      const processed = await processedNotifications(client, transaction.id, 2);
      expect(processed.map((n) => n.outcome)).not.toContain(WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE);
      const ignored = async () => (await listNotifications(client, { providerAccountId: accountId, outcome: WebhookOutcome.WEBHOOK_OUTCOME_IGNORED })).length;
      const before = await ignored();
      expect((await mp.notifyIpn('merchant_order', 4945357007)).status).toBe(200);
      await eventually(async () => (await ignored()) === before + 1);
    } finally {
      mp.configureIpn(undefined);
    }
  });

  it("a PIX infraction (MED) is recorded only: Mercado Pago's chargebacks API is card chargebacks'", async () => {
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX });
    expect((await mp.pay(transaction.transactionId)).status).toBe(200);
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const { dispute } = await client.call(
      'disputes',
      'openDispute',
      OpenDisputeRequest.fromPartial({ transactionId: transaction.id, kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION, reason: 'Golpe relatado pelo pagador' }),
    );
    expect(dispute.providerTakesDefense).toBe(false);
    await addEvidence(dispute.id, 'nota fiscal.pdf', PDF);
    const requests = mp.received.length;
    const { dispute: submitted } = await submit(dispute.id);
    expect(submitted).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_EVIDENCE_SUBMITTED, sentToProvider: false, providerDisputeId: '' });
    expect(mp.received.length).toBe(requests);
  });
});
