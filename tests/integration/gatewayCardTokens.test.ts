import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CreateCardTokenRequest, CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { Operation, PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { derivedCardTokenKeys, sealCardToken } from '../../server/lib/gatewayCardToken.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { failureOf, errorDetailsOf } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The gateway's own card token through gRPC at a transactions-API member that tokenises nothing (PAGUESAFE): the
 * card reaches the provider in the family's card body, opened from the token only for the call; a token that is
 * expired, another account's, altered or used by another charge is refused with nothing sent; a retry of the same
 * charge (its idempotency key) is not another use.
 */

const SECRETS_KEY = SecretBox.generateEncodedKey();
const PAN = '4111111111111111';
const CVV = '737';
const CARD = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Souza', holderDocument: '123.456.789-09', expMonth: '3', expYear: '30', cvv: CVV };
/** The family's card body (doc 1 §7: number, holderName, expirationMonth, expirationYear, cvv): digits, four-digit year. */
const CARD_BODY = { number: PAN, holderName: 'Ana Souza', holderDocument: '12345678909', expirationMonth: 3, expirationYear: 2030, cvv: CVV };

let stack: TestStack;
let fake: FakeProvider;
let accountId: string;
let otherAccountId: string;

async function account(provider: string, name: string): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider,
    name,
    publicKey: 'pk_card_tokens',
    secretKey: 'sk_card_tokens',
    baseUrl: fake.url,
  });
  return providerAccount.id;
}

beforeAll(async () => {
  stack = await startTestStack({ env: { SECRETS_KEY, CARD_TOKEN_TTL_SECONDS: '1800' } });
  fake = await startFakeProvider();
  accountId = await account('PAGUESAFE', 'PagueSafe cards');
  otherAccountId = await account('PAGUESAFE', 'PagueSafe other');
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

beforeEach(() => fake.reset());

const tokenFor = async (providerAccountId: string, card = CARD): Promise<string> =>
  (await stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId, card }))).cardToken;

const cardCharge = (providerAccountId: string, cardId: string, idempotencyKey?: string) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      ...(idempotencyKey ? { idempotencyKey } : {}),
      transaction: {
        amount: 1990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        installments: 2,
        customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
        cardId,
      },
    }),
  );

/** The provider charges the card it was sent in the family's shape (and no card id), once per call expected. */
function providerCharges(id: string, status = 'paid') {
  return fake.expect({
    method: 'POST',
    path: '/transactions',
    body: (body) => {
      const charge = body as Record<string, any>;
      return charge.paymentMethod === 'credit_card' && charge.installments === 2 && JSON.stringify(charge.card) === JSON.stringify(CARD_BODY);
    },
    reply: { status: 200, body: { id, status, amount: 1990, paymentMethod: 'credit_card' } },
  });
}

describe("the gateway's card token through gRPC (PAGUESAFE, no tokenization of its own)", () => {
  it('CreateCardToken answers a gateway token without asking the provider', async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await tokenFor(accountId);
    expect(token.startsWith('gct_v1.')).toBe(true);
    // It opens for CARD_TOKEN_TTL_SECONDS.
    const expiry = Number(token.split('.')[3]);
    expect(expiry).toBeGreaterThanOrEqual(before + 1800);
    expect(expiry).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1800);
    expect(token).not.toContain(PAN);
    expect(fake.received).toEqual([]);
  });

  it('a card charge with the token sends the card in the family shape, and the token is used up', async () => {
    const token = await tokenFor(accountId);
    const charged = providerCharges('ps_card_1');
    const { transaction } = await cardCharge(accountId, token, 'card-charge-1');
    expect(charged.done).toBe(true);
    expect(transaction).toMatchObject({ transactionId: 'ps_card_1', status: TransactionStatus.TRANSACTION_STATUS_APPROVED });
    // The token itself never travels to the provider.
    expect(fake.received[0]!.rawBody).not.toContain('gct_v1');

    // Another charge with it (another key, or none) is a second use: refused, nothing sent.
    for (const key of ['card-charge-2', undefined]) {
      expect(await failureOf(cardCharge(accountId, token, key))).toEqual({
        code: 'FAILED_PRECONDITION',
        message: 'the card token was already used by another charge (a retry of that charge must carry its idempotency_key): create a new card token',
      });
    }
    expect((await errorDetailsOf(cardCharge(accountId, token, 'card-charge-3'))).reason).toBe('CARD_TOKEN_USED');
    expect(fake.received).toHaveLength(1);
  });

  it("keeps the card's brand and last 4 read from the token, and nothing more of it, on the charge", async () => {
    const charged = providerCharges('ps_card_facts');
    const { transaction } = await cardCharge(accountId, await tokenFor(accountId), 'card-facts-1');
    expect(charged.done).toBe(true);
    const read = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
    expect(read.transaction).toMatchObject({ cardBrand: 'visa', cardLast4: '1111' });
    expect(JSON.stringify(read.transaction)).not.toContain(PAN);
  });

  it('a retry of the same charge (same idempotency key) is not a reuse: it answers the first charge', async () => {
    const token = await tokenFor(accountId);
    providerCharges('ps_card_retry');
    const first = await cardCharge(accountId, token, 'card-retry-1');
    const again = await cardCharge(accountId, token, 'card-retry-1');
    expect(again.transaction.id).toBe(first.transaction.id);
    expect(fake.received).toHaveLength(1);
  });

  it('a retry with the same key after the provider refused the first attempt reaches the provider again with the card', async () => {
    const token = await tokenFor(accountId);
    const refused = fake.expect({ method: 'POST', path: '/transactions', reply: { status: 422, body: { message: 'Cartão recusado temporariamente' } } });
    const first = await failureOf(cardCharge(accountId, token, 'card-refused-1'));
    expect(refused.done).toBe(true);
    expect(first.code).toBe('INVALID_ARGUMENT');
    const charged = providerCharges('ps_card_second_try');
    const { transaction } = await cardCharge(accountId, token, 'card-refused-1');
    expect(charged.done).toBe(true);
    expect(transaction.transactionId).toBe('ps_card_second_try');
  });

  it('a repeat of a charge already made is answered from the record even once its token has expired; a new charge with it is refused', async () => {
    const box = SecretBox.fromEncodedKey(SECRETS_KEY);
    // Made with the gateway's own key so that it expires two seconds from now.
    const shortLived = sealCardToken(CARD, {
      accountId,
      keys: derivedCardTokenKeys((info) => box.deriveKeys(info), 1),
      now: new Date(Date.now() - 3_598_000),
      ttlSeconds: 3600,
    });
    providerCharges('ps_card_short_lived');
    const first = await cardCharge(accountId, shortLived.token, 'card-short-lived');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, shortLived.expiresAt.getTime() - Date.now()) + 100));
    expect((await cardCharge(accountId, shortLived.token, 'card-short-lived')).transaction.id).toBe(first.transaction.id);
    expect((await failureOf(cardCharge(accountId, shortLived.token, 'card-short-lived-2'))).message).toBe(
      `the card token expired at ${shortLived.expiresAt.toISOString()}: create a new one`,
    );
    expect(fake.received).toHaveLength(1);
  });

  it('a token sent with an idempotency key that belongs to another charge is refused for the key and not used up', async () => {
    providerCharges('ps_card_key_owner');
    await cardCharge(accountId, await tokenFor(accountId), 'card-key-owner');
    const token = await tokenFor(accountId);
    expect((await failureOf(cardCharge(accountId, token, 'card-key-owner'))).code).toBe('ALREADY_EXISTS');
    providerCharges('ps_card_own_key');
    expect((await cardCharge(accountId, token, 'card-own-key')).transaction.transactionId).toBe('ps_card_own_key');
    expect(fake.received).toHaveLength(2);
  });

  it("refuses another account's token, an altered token and an expired one, with nothing sent", async () => {
    const foreign = await tokenFor(otherAccountId);
    expect(await failureOf(cardCharge(accountId, foreign, 'card-foreign'))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'card_id is not a usable card token: it was made for another provider account',
    });

    const token = await tokenFor(accountId);
    const parts = token.split('.');
    const later = [...parts.slice(0, 3), String(Number(parts[3]) + 86_400), parts[4]].join('.');
    const raw = Buffer.from(parts[4]!, 'base64');
    raw[20]! ^= 0x01;
    const flipped = [...parts.slice(0, 4), raw.toString('base64')].join('.');
    for (const altered of [later, flipped]) {
      expect(await failureOf(cardCharge(accountId, altered, `card-altered-${altered.length}-${altered.slice(-6)}`))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'card_id is not a usable card token: it was altered or not made by this gateway',
      });
    }

    // Made with the gateway's own key (the same SECRETS_KEY) an hour and a minute ago: authentic, but out of date.
    const box = SecretBox.fromEncodedKey(SECRETS_KEY);
    const expired = sealCardToken(CARD, {
      accountId,
      keys: derivedCardTokenKeys((info) => box.deriveKeys(info), 1),
      now: new Date(Date.now() - 3_660_000),
      ttlSeconds: 3600,
    });
    const failure = await failureOf(cardCharge(accountId, expired.token, 'card-expired'));
    expect(failure.code).toBe('FAILED_PRECONDITION');
    expect(failure.message).toBe(`the card token expired at ${expired.expiresAt.toISOString()}: create a new one`);
    expect(fake.received).toEqual([]);

    // The refusals used nothing up: the good token still charges.
    providerCharges('ps_card_after_refusals');
    expect((await cardCharge(accountId, token, 'card-after-refusals')).transaction.transactionId).toBe('ps_card_after_refusals');
  });

  it('a token of a card with the longest holder name a request may carry is still accepted as a card_id (longer than an id)', async () => {
    const holderName = `Ana ${'Souza '.repeat(42)}Lima`.slice(0, 255);
    const token = await tokenFor(accountId, { ...CARD, holderName });
    expect(token.length).toBeGreaterThan(255);
    fake.expect({
      method: 'POST',
      path: '/transactions',
      body: (body) => (body as { card?: { holderName?: string } }).card?.holderName === holderName,
      reply: { status: 200, body: { id: 'ps_card_long_name', status: 'paid', amount: 1990, paymentMethod: 'credit_card' } },
    });
    expect((await cardCharge(accountId, token, 'card-long-name')).transaction.transactionId).toBe('ps_card_long_name');
  });

  it('refuses a card that is not one at CreateCardToken, naming the field only', async () => {
    const failure = await failureOf(tokenFor(accountId, { ...CARD, cardNumber: '4111 1111 1111 1112' }));
    expect(failure).toEqual({ code: 'INVALID_ARGUMENT', message: 'card.card_number is not a valid card number' });
  });

  it('a member whose API takes a card only by its own reference (PODPAY2: the script hash) issues no gateway token, and refuses one at the charge, nothing sent', async () => {
    const podpay = await account('PODPAY2', 'PodPay2 cards');
    // A token the provider could never be charged with is refused when asked for, not at the charge.
    const asked = await failureOf(tokenFor(podpay));
    expect(asked.code).toBe('FAILED_PRECONDITION');
    expect(asked.message).toMatch(/^PODPAY2 cannot be sent a card from the gateway's card token/);
    // One sealed for it anyway (the gateway's own key) is refused at the charge.
    const box = SecretBox.fromEncodedKey(SECRETS_KEY);
    const keys = derivedCardTokenKeys((info) => box.deriveKeys(info), 1);
    const { token } = sealCardToken(CARD, { accountId: podpay, keys, now: new Date(), ttlSeconds: 600 });
    const failure = await failureOf(cardCharge(podpay, token, 'card-podpay'));
    expect(failure.code).toBe('FAILED_PRECONDITION');
    expect(failure.message).toMatch(/^PODPAY2 cannot be sent a card from the gateway's card token/);
    expect(fake.received).toEqual([]);
  });

  it("HUNTERPAY (the purchase platform) is sent the card as the platform's documented creditCard, in its spec body", async () => {
    const hunterpay = await account('HUNTERPAY', 'HunterPay cards');
    const token = await tokenFor(hunterpay);
    const charged = fake.expect({
      method: 'POST',
      path: '/transactions/v2/purchase',
      body: (body) => {
        const purchase = body as Record<string, any>;
        return (
          purchase.paymentMethod === 'CREDIT_CARD' &&
          purchase.customer?.document === '12345678909' &&
          JSON.stringify(purchase.creditCard) ===
            JSON.stringify({ number: PAN, holder: 'Ana Souza', expMonth: '03', expYear: '2030', cvv: CVV, installments: 2 })
        );
      },
      reply: { status: 200, body: { id: 'hp_card_1', status: 'paid', amount: 1990, paymentMethod: 'credit_card' } },
    });
    const { transaction } = await cardCharge(hunterpay, token, 'card-hunterpay-1');
    expect(charged.done).toBe(true);
    expect(transaction).toMatchObject({ transactionId: 'hp_card_1', status: TransactionStatus.TRANSACTION_STATUS_APPROVED });
    expect(fake.received[0]!.rawBody).not.toContain('gct_v1');
  });

  it('ListProviders offers CreateCardToken where the gateway token charges the provider, and not where it cannot', async () => {
    const { providers } = await stack.client.call('gateway', 'listProviders', {});
    const operationsOf = (id: string) => (providers as Array<{ id: string; operations: number[] }>).find((provider) => provider.id === id)!.operations;
    expect(operationsOf('PAGUESAFE')).toContain(Operation.OPERATION_CREATE_CARD_TOKEN);
    expect(operationsOf('PODPAY2')).not.toContain(Operation.OPERATION_CREATE_CARD_TOKEN);
    // Bespoke adapters that send the card's own fields from it, and the purchase platform's members.
    for (const provider of ['ASAAS', 'CELCOIN', 'MERCADOPAGO', 'AXISBANK', 'HUNTERPAY'])
      expect({ provider, operations: operationsOf(provider) }).toEqual({
        provider,
        operations: expect.arrayContaining([Operation.OPERATION_CREATE_CARD_TOKEN]),
      });
    // A provider that tokenises cards itself keeps its own operation, once.
    expect(operationsOf('PAGARME').filter((operation) => operation === Operation.OPERATION_CREATE_CARD_TOKEN)).toHaveLength(1);
  });
});
