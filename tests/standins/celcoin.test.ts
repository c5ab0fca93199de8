import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, StatusSource, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { isValidDigitableLine } from '../../server/lib/boleto.js';
import { CELCOIN } from '../../server/providers/celcoin/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { captureModuleLog, expectNoCardData } from '../support/cardDataSearch.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { TYPED_CARD, TYPED_CARD_SECRETS, gatewayCardToken } from '../support/gatewayCard.js';
import { capturedLogger } from '../support/logCapture.js';
import { CELCOIN_SOURCES, startCelcoinStandIn, type CelcoinStandIn } from './celcoin.js';

/**
 * CELCOIN's acceptance test: the whole gateway, through its public gRPC
 * contract, against a stand-in written from Cel_Cash's SDK
 * (tests/standins/celcoin.ts): PIX and boleto charges paid and moved to
 * APPROVED by Cel_Cash's `transaction.updateStatus` with the account's
 * confirmHash, a saved card captured or denied, reads by GET /charges, the same
 * buyer kept as one Cel_Cash customer, a forged notification refused, and what
 * the specification does not offer (refunds, §8) refused before anything is sent.
 */

const GALAX_ID = '5473';
const GALAX_HASH = '83Mw5u8988Qj6fZqS4Z8K7LzOo1j28S706R0BeFe';
const CONFIRM_HASH = 'c0nf1rmH4shW3bh00k-5473';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
const { pan: PAN, cvv: CVV } = TYPED_CARD_SECRETS;

const log = capturedLogger('debug');
const moduleLog = captureModuleLog();
let stack: TestStack;
let celcash: CelcoinStandIn;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack({ logger: log.logger });
  celcash = await startCelcoinStandIn({ galaxId: GALAX_ID, galaxHash: GALAX_HASH, confirmHashWebhook: CONFIRM_HASH });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'CELCOIN',
    name: 'Cel_Cash stand-in',
    publicKey: GALAX_ID,
    secretKey: GALAX_HASH,
    baseUrl: celcash.baseUrl,
    webhookSecret: CONFIRM_HASH,
  });
  accountId = providerAccount.id;
  // The merchant points the account's webhook at the gateway on Cel_Cash's panel.
  celcash.registerWebhook(providerAccount.notificationUrl);
});

afterEach(() => {
  // Every request made is one the SDK documents, and the stand-in never failed on one.
  expect(celcash.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(celcash.crashed).toEqual([]);
});

afterAll(async () => {
  await celcash?.close();
  await stack?.close();
  moduleLog.restore();
});

const charge = (transaction: Record<string, unknown>, idempotencyKey?: string) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      ...(idempotencyKey ? { idempotencyKey } : {}),
      transaction: { amount: 1990, customer: ANA, ...transaction },
    }),
  );
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const becomes = (id: string, status: TransactionStatus) =>
  eventually(async () => {
    const current = await read(id);
    return current.status === status && current;
  });

/** The merchant's own call to Cel_Cash, as the SDK makes it: a token with the scopes it needs, then Bearer. */
async function merchantCall(method: 'POST', path: string, body: unknown, scope: string): Promise<{ status: number; body: any }> {
  const token = await fetch(`${celcash.baseUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${GALAX_ID}:${GALAX_HASH}`).toString('base64')}` },
    body: JSON.stringify({ grant_type: 'authorization_code', scope }),
  });
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const response = await fetch(`${celcash.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe("CELCOIN (Cel_Cash) against a stand-in written from Cel_Cash's SDK", () => {
  it('declares the sources it was verified against', () => {
    expect(CELCOIN.evidence).toEqual({ level: 'documented', addresses: CELCOIN_SOURCES });
    expect(celcash.sources).toEqual(CELCOIN_SOURCES);
  });

  it("PIX: a charge with the buyer as Cel_Cash's customer, its QR code, paid, and transaction.updateStatus moves it to APPROVED", async () => {
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, orderId: 'order-pix-1' }, 'celcash-pix-1');
    expect(transaction).toMatchObject({ provider: 'CELCOIN', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990 });
    const atCelcash = celcash.charges.get(Number(transaction.transactionId))!;
    expect(atCelcash).toMatchObject({ myId: 'celcash-pix-1', value: 1990, mainPaymentMethodId: 'pix', additionalInfo: 'order-pix-1', pixDeadlineDays: 5 });
    expect(atCelcash.customer).toMatchObject({ name: 'Ana Souza', document: '12345678909', emails: ['ana@example.com'], phones: [11987654321] });
    expect(atCelcash.customer.myId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(transaction.pixCode).toBe(atCelcash.transaction.Pix!.qrCode);
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);

    expect(await celcash.pay(transaction.transactionId)).toBe(200);
    const paid = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(paid.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
    ]);
    // Read from Cel_Cash (GET /charges?galaxPayIds&startAt&limit): the same status.
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(celcash.count('GET', '/v2/charges')).toBeGreaterThanOrEqual(1);
  });

  it('boleto: on the same Cel_Cash customer, its digitable line and PDF, paid and APPROVED', async () => {
    const customersBefore = celcash.customers.length;
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET, amount: 25_000 });
    expect(celcash.customers).toHaveLength(customersBefore);
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 25_000 });
    expect(isValidDigitableLine(transaction.billetCode)).toBe(true);
    expect(transaction.billetUrl).toMatch(/^https:\/\/celcash\.celcoin\.com\.br\/boleto\/\d+\.pdf$/);
    await celcash.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect((await read(transaction.id, true)).paymentMethod).toBe(PaymentMethod.PAYMENT_METHOD_BILLET);
  });

  it('card: a card the merchant saved at Cel_Cash for the customer is charged and captured (APPROVED); a denied one is REJECTED', async () => {
    const ana = celcash.customers.find((customer) => customer.document === '12345678909')!;
    const save = (number: string) =>
      merchantCall(
        'POST',
        `/cards/${ana.galaxPayId}/galaxPayId`,
        { myId: randomUUID(), number, holder: 'ANA SOUZA', expiresAt: '2031-12', cvv: '123' },
        'cards.write cards.read',
      );
    const good = await save('4111 1111 1111 1111');
    expect(good).toMatchObject({ status: 200, body: { type: true, Card: { customerGalaxPayId: ana.galaxPayId } } });

    const approved = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: String(good.body.Card.galaxPayId), installments: 2 });
    expect(approved.transaction).toMatchObject({
      status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
    });
    expect(celcash.charges.get(Number(approved.transaction.transactionId))).toMatchObject({ status: 'closed', transaction: { status: 'captured' } });

    const bad = await save('4000 0000 0000 0002');
    const denied = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: bad.body.Card.myId });
    expect(denied.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
    // Its transaction's AbecsReasonDenied.code is the decline's reason (ABECS 51 padded to four digits), its message the text.
    expect(denied.transaction).toMatchObject({ declineReason: '0051', declineCategory: 'insufficient_funds', declineMessage: 'SALDO/LIMITE INSUFICIENTE' });
  });

  describe("the gateway's card token", () => {
    const answers: unknown[] = [];
    const gatewayToken = (card = TYPED_CARD) => gatewayCardToken(stack.client, accountId, card);
    const cardCharge = (cardId: string, idempotencyKey: string) =>
      charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, amount: 12_990, cardId, installments: 3 }, idempotencyKey);
    const chargePosts = () => celcash.received.filter((request) => request.method === 'POST' && request.path === '/v2/charges');

    it("charges the card by its own fields in the charge's PaymentMethodCreditCard.Card, captured, and uses the token up", async () => {
      const token = await gatewayToken();
      expect(token.startsWith('gct_v1.')).toBe(true);
      const sent = chargePosts().length;
      const { transaction } = await cardCharge(token, 'celcash-gct-1');
      answers.push(transaction);
      expect(transaction).toMatchObject({ provider: 'CELCOIN', status: TransactionStatus.TRANSACTION_STATUS_APPROVED, amount: 12_990 });
      // Cel_Cash's shape: the card's own fields under a new card's UUID myId; neither the gateway's token nor a saved card.
      const [request] = chargePosts().slice(sent);
      expect((request!.body as { PaymentMethodCreditCard: unknown }).PaymentMethodCreditCard).toEqual({
        Card: {
          myId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
          number: PAN,
          holder: 'ANA SOUZA',
          expiresAt: '2031-03',
          cvv: CVV,
        },
        qtdInstallments: 3,
      });
      const ana = celcash.customers.find((customer) => customer.document === '12345678909')!;
      expect(celcash.cards.at(-1)).toMatchObject({ customerGalaxPayId: ana.galaxPayId, number: PAN, expiresAt: '2031-03' });
      expect(celcash.charges.get(Number(transaction.transactionId))).toMatchObject({
        myId: 'celcash-gct-1',
        status: 'closed',
        transaction: { status: 'captured' },
      });

      // Used up: another charge with it is refused by the gateway, nothing sent.
      const again = await failureOf(cardCharge(token, 'celcash-gct-2'));
      answers.push(again);
      expect(again.code).toBe('FAILED_PRECONDITION');
      expect((await errorDetailsOf(cardCharge(token, 'celcash-gct-3'))).reason).toBe('CARD_TOKEN_USED');
      expect(chargePosts()).toHaveLength(sent + 1);
    });

    it('a card Cel_Cash denies is REJECTED', async () => {
      const token = await gatewayToken({ ...TYPED_CARD, cardNumber: '4000 0000 0000 0002' });
      const { transaction } = await cardCharge(token, 'celcash-gct-denied');
      answers.push(transaction);
      expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
    });

    it('the card number and the CVV are in no answer and no log line', () => {
      expect(moduleLog.lines.some((line) => line.includes('/charges') && line.includes('PaymentMethodCreditCard'))).toBe(true);
      expectNoCardData('answers', JSON.stringify(answers), { pan: PAN, cvv: CVV });
      expectNoCardData('log', [...log.lines, ...moduleLog.lines].join('\n'), { pan: PAN, cvv: CVV });
    });
  });

  it('a notification with another confirmHash is refused and moves nothing; the genuine one then does', async () => {
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX });
    expect(await celcash.forge(transaction.transactionId, 'not-the-confirm-hash')).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    await celcash.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('a retried charge (the same idempotency key, the same myId) is one Cel_Cash charge', async () => {
    const first = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX }, 'celcash-retry-1');
    const second = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX }, 'celcash-retry-1');
    expect(second.transaction.id).toBe(first.transaction.id);
    expect([...celcash.charges.values()].filter((found) => found.myId === 'celcash-retry-1')).toHaveLength(1);
  });

  it('a buyer Cel_Cash could not create (no email) and a refund (§8: not offered) are refused before anything is sent', async () => {
    const posts = celcash.count('POST', '/v2/charges');
    expect(await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: { ...ANA, email: '' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('transaction.customer.email is required for CELCOIN charges'),
    });
    expect(celcash.count('POST', '/v2/charges')).toBe(posts);

    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX });
    await celcash.pay(transaction.transactionId);
    await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const before = celcash.received.length;
    expect(
      await failureOf(
        stack.client.call(
          'gateway',
          'refoundTransaction',
          RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 500 }),
        ),
      ),
    ).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(celcash.received.length).toBe(before);
  });

  it('took one token for the whole run, with the scopes it uses', () => {
    const tokens = celcash.received.filter(
      (request) => request.path === '/v2/token' && (request.body as { scope?: string }).scope === 'charges.read charges.write',
    );
    expect(tokens).toHaveLength(1);
  });
});
