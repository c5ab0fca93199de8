import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * A card charge without a card reference is refused before anything is sent, in
 * the provider's own words where its specification has them: the gateway's
 * check asks the account's adapter (doc 2 §5 LYNXPAY, doc 3 §5 PODPAY2), and
 * keeps doc 1's 'cardId is required for credit card transactions' elsewhere.
 */

let stack: TestStack;
let fake: FakeProvider;

beforeAll(async () => {
  stack = await startTestStack();
  fake = await startFakeProvider();
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

async function account(provider: string): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider,
    name: `${provider} card texts`,
    publicKey: 'pk_card_texts',
    secretKey: 'sk_card_texts',
    baseUrl: fake.url,
  });
  return providerAccount.id;
}

const cardCharge = (providerAccountId: string, cardId?: string) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, ...(cardId !== undefined ? { cardId } : {}) },
    }),
  );

describe("a card charge without a card reference, in the provider's words", () => {
  it.each([
    ['PODPAY2', 'Dados do cartão são obrigatórios para pagamento com cartão de crédito.', 'PODPAY2_CARD_DATA_REQUIRED'],
    ['LYNXPAY', 'Card token is required for credit card payments.', 'CARD_TOKEN_REQUIRED'],
    ['PAGUESAFE', 'cardId is required for credit card transactions', 'CARD_ID_REQUIRED'],
  ])('%s: %s (nothing sent)', async (provider, message, reason) => {
    const id = await account(provider);
    for (const cardId of [undefined, '  ']) expect(await failureOf(cardCharge(id, cardId))).toEqual({ code: 'INVALID_ARGUMENT', message });
    expect(await errorDetailsOf(cardCharge(id))).toMatchObject({ reason, fields: ['transaction.card_id'] });
    expect(fake.received).toHaveLength(0);
  });
});
