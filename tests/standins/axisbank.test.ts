import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { AXISBANK } from '../../server/providers/members/axisbank.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { captureModuleLog, expectNoCardData } from '../support/cardDataSearch.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { TYPED_CARD, TYPED_CARD_SECRETS, gatewayCardToken } from '../support/gatewayCard.js';
import { capturedLogger } from '../support/logCapture.js';
import { AXISBANK_SOURCES, startAxisbankStandIn, type AxisbankStandIn } from './axisbank.js';

/**
 * AXISBANK's acceptance test in its documented dialect (api_version `public`): the whole gateway, through its public
 * gRPC contract, against a stand-in written from AxisBanking's "Create Transaction" page (tests/standins/axisbank.ts):
 * a PIX purchase in the documented flat body, a card opened from the gateway's card token sent as the documented
 * `creditCard`, what the documented body requires refused before anything is sent (and before the token is used), and
 * neither the card number nor its CVV in any answer or log line.
 */

const SECRET_KEY = 'sk_axis_standin_6b1f0c';
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
const { pan: PAN, cvv: CVV } = TYPED_CARD_SECRETS;

const log = capturedLogger('debug');
const moduleLog = captureModuleLog();
let stack: TestStack;
let axis: AxisbankStandIn;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack({ logger: log.logger });
  axis = await startAxisbankStandIn({ secretKey: SECRET_KEY });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'AXISBANK',
    name: 'AxisBanking stand-in',
    publicKey: '',
    secretKey: SECRET_KEY,
    baseUrl: axis.url,
    apiVersion: 'public',
  });
  accountId = providerAccount.id;
});

afterAll(async () => {
  await axis?.close();
  await stack?.close();
  moduleLog.restore();
});

const charge = (transaction: Record<string, unknown>, idempotencyKey: string) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey,
      transaction: { amount: 12_990, customer: ANA, userDocument: '987.654.321-00', userId: 'seller-9', description: 'Curso', ...transaction },
    }),
  );
const gatewayToken = (card = TYPED_CARD) => gatewayCardToken(stack.client, accountId, card);
const purchases = () => axis.received.filter((request) => request.method === 'POST' && request.path === '/transactions/v2/purchase');

describe("AXISBANK (api_version public) against a stand-in written from AxisBanking's documentation", () => {
  const answers: unknown[] = [];

  it('declares the documentation it was verified against', () => {
    expect(AXISBANK.evidence).toEqual({ level: 'documented', addresses: AXISBANK_SOURCES });
    expect(axis.sources).toEqual(AXISBANK_SOURCES);
  });

  it('PIX: the documented flat purchase (the buyer at the top, the responsible fields), answered with its BR Code', async () => {
    const { transaction } = await charge(
      { paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, orderId: 'order-axis-1', fingerPrints: [{ provider: 'device', value: 'fp-77' }] },
      'axis-pix-1',
    );
    expect(transaction).toMatchObject({ provider: 'AXISBANK', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 12_990 });
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(purchases().at(-1)!.body).toEqual({
      name: 'Ana Souza',
      email: 'ana@example.com',
      cpf: '12345678909',
      phone: '11987654321',
      amount: 12_990,
      description: 'Curso',
      responsibleDocument: '98765432100',
      responsibleExternalId: 'seller-9',
      paymentMethod: 'PIX',
      currency: 'BRL',
      externalId: 'order-axis-1',
      postbackUrl: expect.stringContaining('/webhooks/'),
      fingerPrint: 'fp-77',
    });
  });

  it("a card from the gateway's card token goes as the documented creditCard, APPROVED, and the token is used up", async () => {
    const token = await gatewayToken();
    const sent = purchases().length;
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token, installments: 3 }, 'axis-gct-1');
    answers.push(transaction);
    expect(transaction).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_APPROVED, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD });
    const request = purchases().at(-1)!;
    expect((request.body as { creditCard: unknown }).creditCard).toEqual({
      number: PAN,
      holder: 'ANA SOUZA',
      expMonth: '03',
      expYear: '2031',
      cvv: CVV,
      installments: 3,
    });
    expect(request.rawBody).not.toContain(token);
    expect(axis.purchases.get(transaction.transactionId)).toMatchObject({ status: 'paid', card: { lastDigits: '0007', installments: 3 } });

    const again = await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token }, 'axis-gct-2'));
    answers.push(again);
    expect((await errorDetailsOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token }, 'axis-gct-3'))).reason).toBe(
      'CARD_TOKEN_USED',
    );
    expect(purchases()).toHaveLength(sent + 1);
  });

  it('a card AxisBanking refuses is REJECTED', async () => {
    const token = await gatewayToken({ ...TYPED_CARD, cardNumber: '4000 0000 0000 0002' });
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token }, 'axis-gct-refused');
    answers.push(transaction);
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
  });

  it('refuses what the documented body requires, naming the field, before sending or using the token; and a card id that is no gateway token', async () => {
    const token = await gatewayToken();
    const sent = axis.received.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ userDocument: '' }, 'transaction.user_document'],
      [{ userId: '' }, 'transaction.user_id'],
      [{ customer: { ...ANA, phone: '' } }, 'transaction.customer.phone'],
    ];
    for (const [extra, field] of cases) {
      const failure = await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token, ...extra }, `axis-missing-${field}`));
      answers.push(failure);
      expect(failure).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `${field} is required for AXISBANK charges in api_version public (AxisBanking's documented purchase requires it)`,
      });
    }
    expect(await failureOf(charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: 'card_saved_elsewhere' }, 'axis-card-id'))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: "AXISBANK's documented purchase (api_version public) takes a card by its own fields only: charge it with a card token made by CreateCardToken",
    });
    expect(axis.received).toHaveLength(sent);
    // Nothing was used up: the same token charges once the request is whole.
    const { transaction } = await charge({ paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: token }, 'axis-gct-whole');
    expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('the card number and the CVV are in no answer and no log line', () => {
    expect(moduleLog.lines.some((line) => line.includes('/v2/purchase') && line.includes('creditCard'))).toBe(true);
    expectNoCardData('answers', JSON.stringify(answers), { pan: PAN, cvv: CVV });
    expectNoCardData('log', [...log.lines, ...moduleLog.lines].join('\n'), { pan: PAN, cvv: CVV });
  });

  it('the stand-in saw only documented routes, and never failed', () => {
    expect(axis.unmatched).toEqual([]);
    expect(axis.crashed).toEqual([]);
  });
});
