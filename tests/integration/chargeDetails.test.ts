import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  CreateCardTokenRequest,
  CreateTransactionRequest,
  GetTransactionRequest,
  RefoundTransactionRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus, type Transaction } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { connectDriver, type Driver } from '../support/clients.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { startMercadoPagoStandIn, type MercadoPagoStandIn } from '../standins/mercadopago.js';

/**
 * Issue 33 §1, the charge whole through GetTransaction (gRPC and Connect): the customer, description and items it was
 * asked with, the card's brand and last 4 (never its number), a decline's reason and category, and every refund as a
 * record with who asked for it.
 */

let stack: TestStack;
let connect: Driver;
let accountId: string;
let mp: MercadoPagoStandIn;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'details',
    publicKey: 'pk',
    secretKey: 'sk-details',
  });
  accountId = providerAccount.id;
});
afterAll(async () => {
  connect?.close();
  await mp?.close();
  await stack?.close();
});

const CUSTOMER = { name: 'Maria Aparecida Souza', email: 'Maria.Souza@Example.com', document: '123.456.789-09', phone: '11987654321' };
const ITEMS = [
  { id: 'sku-1', title: 'Camiseta', unitPrice: 2500, quantity: 2, tangible: true },
  { id: 'sku-2', title: 'Frete', unitPrice: 990, quantity: 1, tangible: false },
];

async function cardCharge(cardNumber: string): Promise<Transaction> {
  const cardId = await sandboxCardId(stack.client, accountId, cardNumber);
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: {
        amount: 5990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        installments: 3,
        cardId,
        customer: CUSTOMER,
        description: 'Pedido 42 da loja',
        items: ITEMS,
        orderId: 'pedido-42',
      },
    }),
  );
  return transaction;
}

const read = async (driver: Driver, id: string): Promise<Transaction> =>
  (await driver.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction;

it('answers the customer, description, items and the card as brand and last 4, over both transports', async () => {
  const made = await cardCharge(SANDBOX_TEST_CARDS.approved);
  expect(made.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  for (const driver of [stack.client, connect]) {
    const charge = await read(driver, made.id);
    expect(charge).toMatchObject({
      customer: { name: 'Maria Aparecida Souza', email: 'maria.souza@example.com', document: '12345678909', phone: '' },
      description: 'Pedido 42 da loja',
      items: ITEMS,
      cardBrand: 'visa',
      cardLast4: '1111',
      installments: 3,
      declineReason: '',
      declineCategory: '',
      declineMessage: '',
      refunds: [],
    });
    expect(JSON.stringify(charge)).not.toContain(SANDBOX_TEST_CARDS.approved);
  }
});

it("answers a decline's reason (code) and text as the provider gave them, and its category, over both transports", async () => {
  const declined = await cardCharge(SANDBOX_TEST_CARDS.insufficientFunds);
  expect(declined.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
  expect(declined).toMatchObject({ declineReason: 'insufficient_funds', declineMessage: 'Saldo insuficiente na conta' });
  for (const driver of [stack.client, connect])
    expect(await read(driver, declined.id)).toMatchObject({
      declineReason: 'insufficient_funds',
      declineCategory: 'insufficient_funds',
      declineMessage: 'Saldo insuficiente na conta',
      cardLast4: '9995',
    });
  const generic = await cardCharge(SANDBOX_TEST_CARDS.declined);
  expect(await read(connect, generic.id)).toMatchObject({
    declineReason: 'card_declined',
    declineCategory: 'card_declined',
    declineMessage: 'Cartão recusado pelo emissor',
    cardLast4: '0002',
  });
});

it("answers a MERCADOPAGO card refusal's status_detail as its reason, with the gateway's category", async () => {
  mp = await startMercadoPagoStandIn({ accessToken: 'APP_USR-details', publicKey: 'APP_USR-details-public', webhookSecret: 'details' });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'MERCADOPAGO',
    name: 'details mp',
    publicKey: 'APP_USR-details-public',
    secretKey: 'APP_USR-details',
    baseUrl: mp.url,
  });
  // FUND: the test-card page's cardholder name for a card refused for insufficient amount.
  const card = { cardNumber: '4235647728025682', holderName: 'FUND', holderDocument: '12345678909', expMonth: '11', expYear: '30', cvv: '123' };
  const { cardToken } = await stack.client.call(
    'gateway',
    'createCardToken',
    CreateCardTokenRequest.fromPartial({ providerAccountId: providerAccount.id, card }),
  );
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      transaction: { amount: 5990, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, installments: 1, cardId: cardToken, customer: CUSTOMER },
      idempotencyKey: 'details-mp-fund',
    }),
  );
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
  for (const driver of [stack.client, connect])
    // Mercado Pago gives no text beside its status_detail.
    expect(await read(driver, transaction.id)).toMatchObject({
      declineReason: 'cc_rejected_insufficient_amount',
      declineCategory: 'insufficient_funds',
      declineMessage: '',
    });
});

it('keeps every refund as a record: id, amount, status, provider id, who asked and when', async () => {
  const paid = await cardCharge(SANDBOX_TEST_CARDS.approved);
  const refund = (amount: number, idempotencyKey: string) =>
    stack.client.call(
      'gateway',
      'refoundTransaction',
      RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: paid.id, amount, idempotencyKey }),
    );
  const first = await refund(1000, 'details-refund-1');
  // A retry of the same refund is the same record, not a second one.
  await refund(1000, 'details-refund-1');
  const second = await refund(990, 'details-refund-2');
  const charge = await read(connect, paid.id);
  expect(charge.refundedAmount).toBe(1990);
  expect(charge.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect(charge.refunds.map(({ amount, status, providerRefundId, requestedBy }) => ({ amount, status, providerRefundId, requestedBy }))).toEqual([
    { amount: 1000, status: 'SUCCEEDED', providerRefundId: first.refund.refundId, requestedBy: 'API_TOKENS #1' },
    { amount: 990, status: 'SUCCEEDED', providerRefundId: second.refund.refundId, requestedBy: 'API_TOKENS #1' },
  ]);
  expect(first.refund.refundId).not.toBe('');
  for (const record of charge.refunds) {
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.createdAt!.getTime()).toBeGreaterThanOrEqual(paid.createdAt!.getTime());
  }
});
