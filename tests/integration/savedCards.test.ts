import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateServiceTokenRequest, ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CreateCardIdRequest, CreateCardTokenRequest, RevokeSavedCardRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { expectNoCardData } from '../support/cardDataSearch.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { cardCharge } from '../support/gatewayCard.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Cards the gateway saves where the provider takes its card token (PAGUESAFE, a transactions-API member that
 * tokenises nothing), through gRPC: CreateCardId answers a saved card id that charges many times, the card reaching
 * the provider without a CVV; RevokeSavedCard stops it with nothing sent; another account's saved card is refused;
 * the table holds the card sealed; a publishable key or a tokenize-only token can neither save nor revoke.
 */

const SECRETS_KEY = SecretBox.generateEncodedKey();
const PAN = '4111111111111111';
const CVV = '737';
const CARD = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Souza', holderDocument: '123.456.789-09', expMonth: '3', expYear: '30', cvv: CVV };
/** The family's card body as a saved card goes: no cvv at all. */
const SAVED_CARD_BODY = { number: PAN, holderName: 'Ana Souza', holderDocument: '12345678909', expirationMonth: 3, expirationYear: 2030 };
const SHOP = 'https://shop.example';

let stack: TestStack;
let fake: FakeProvider;
let accountId: string;
let otherAccountId: string;

async function account(name: string, provider = 'PAGUESAFE'): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider,
    name,
    publicKey: 'pk_saved',
    secretKey: 'sk_saved',
    baseUrl: fake.url,
  });
  return providerAccount.id;
}

beforeAll(async () => {
  stack = await startTestStack({ env: { SECRETS_KEY } });
  fake = await startFakeProvider();
  accountId = await account('PagueSafe saved');
  otherAccountId = await account('PagueSafe other');
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

beforeEach(() => fake.reset());

const tokenFor = async (providerAccountId: string): Promise<string> =>
  (await stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId, card: CARD }))).cardToken;

const save = (providerAccountId: string, request: Partial<CreateCardIdRequest>, secret?: string) =>
  stack.client.call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId, ...request }), secret);

const revoke = (providerAccountId: string, cardId: string, secret?: string) =>
  stack.client.call('gateway', 'revokeSavedCard', RevokeSavedCardRequest.fromPartial({ providerAccountId, cardId }), secret);

const charge = (providerAccountId: string, cardId: string, idempotencyKey: string) =>
  stack.client.call('gateway', 'createTransaction', cardCharge(providerAccountId, cardId, idempotencyKey));

/** The provider charges the saved card as sent: the family's card body without a CVV. */
const providerCharges = (id: string) =>
  fake.expect({
    method: 'POST',
    path: '/transactions',
    body: (body) => JSON.stringify((body as Record<string, unknown>).card) === JSON.stringify(SAVED_CARD_BODY),
    reply: { status: 200, body: { id, status: 'paid', amount: 1990, paymentMethod: 'credit_card' } },
  });

describe('saved cards at a provider that takes the gateway card token (PAGUESAFE)', () => {
  it('save from a card token, charge twice without CVV, revoke, then charges are refused with nothing sent', async () => {
    const token = await tokenFor(accountId);
    const { cardId } = await save(accountId, { cardToken: token });
    expect(cardId).toMatch(/^gsc_[0-9a-f-]{36}$/);
    expect(fake.received).toEqual([]);

    const first = providerCharges('ps_saved_1');
    expect((await charge(accountId, cardId, 'saved-1')).transaction).toMatchObject({
      transactionId: 'ps_saved_1',
      status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
    });
    const second = providerCharges('ps_saved_2');
    expect((await charge(accountId, cardId, 'saved-2')).transaction.transactionId).toBe('ps_saved_2');
    expect([first.done, second.done]).toEqual([true, true]);
    for (const request of fake.received) {
      expect(request.rawBody).not.toContain('cvv');
      expect(request.rawBody).not.toContain('gsc_');
    }

    // The token was used up by the save: it charges nothing now.
    expect((await errorDetailsOf(charge(accountId, token, 'saved-token-again'))).reason).toBe('CARD_TOKEN_USED');

    const { revokedAt } = await revoke(accountId, cardId);
    expect(revokedAt).toBeInstanceOf(Date);
    expect(await failureOf(charge(accountId, cardId, 'saved-3'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'the saved card was revoked: save the card again to charge it',
    });
    expect((await errorDetailsOf(charge(accountId, cardId, 'saved-4'))).reason).toBe('SAVED_CARD_REVOKED');
    expect(fake.received).toHaveLength(2);
    // A charge made before the revocation is still answered from its record.
    expect((await charge(accountId, cardId, 'saved-1')).transaction.transactionId).toBe('ps_saved_1');
    expect(fake.received).toHaveLength(2);
  });

  it("saves from the card's fields too, and the CVV is checked but not kept", async () => {
    const { cardId } = await save(accountId, { card: CARD });
    providerCharges('ps_saved_fields');
    expect((await charge(accountId, cardId, 'saved-fields')).transaction.transactionId).toBe('ps_saved_fields');
    expect(await failureOf(save(accountId, { card: { ...CARD, cvv: '1' } }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'card.cvv must have 3 or 4 digits',
    });
  });

  it("another account's saved card, or an unknown id, is refused with nothing sent, and cannot be revoked there", async () => {
    const { cardId } = await save(accountId, { cardToken: await tokenFor(accountId) });
    const refusal = { code: 'INVALID_ARGUMENT', message: 'card_id is not a saved card of this provider account' };
    expect(await failureOf(charge(otherAccountId, cardId, 'foreign-1'))).toEqual(refusal);
    expect(await failureOf(charge(accountId, 'gsc_00000000-0000-4000-8000-000000000000', 'unknown-1'))).toEqual(refusal);
    expect(await failureOf(revoke(otherAccountId, cardId))).toEqual(refusal);
    // Another account's token cannot be saved here either.
    expect((await failureOf(save(otherAccountId, { cardToken: await tokenFor(accountId) }))).message).toBe(
      'card_id is not a usable card token: it was made for another provider account',
    );
    expect(fake.received).toEqual([]);
    // The foreign account's refusal revoked nothing: the card still charges at its own account.
    providerCharges('ps_saved_own');
    expect((await charge(accountId, cardId, 'own-1')).transaction.transactionId).toBe('ps_saved_own');
  });

  it('a provider whose API wants the CVV with the card (ASAAS) saves nothing and is sent nothing', async () => {
    const asaas = await account('Asaas cards', 'ASAAS');
    const refused = await errorDetailsOf(save(asaas, { card: CARD }));
    expect(refused.reason).toBe('SAVED_CARD_NOT_ACCEPTED');
    expect(await failureOf(save(asaas, { card: CARD }))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'ASAAS cannot be sent a saved card (its API wants the CVV with the card, which the gateway does not keep): charge it with a new card token',
    });
    expect(fake.received).toEqual([]);
  });

  it('neither a publishable key nor a token that only tokenises can save or revoke', async () => {
    const { cardId } = await save(accountId, { card: CARD });
    const { secret: tokenizeOnly } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: 'tokenize only', scopes: ['cards:tokenize'], providerAccountIds: [accountId] }),
    );
    expect((await failureOf(save(accountId, { card: CARD }, tokenizeOnly))).code).toBe('PERMISSION_DENIED');
    expect((await failureOf(revoke(accountId, cardId, tokenizeOnly))).code).toBe('PERMISSION_DENIED');

    const { secret: publishable } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: 'shop', scopes: ['cards:tokenize'], providerAccountIds: [accountId], allowedOrigins: [SHOP] }),
    );
    for (const method of ['CreateCardId', 'RevokeSavedCard']) {
      const answer = await fetch(`${stack.gateway.httpUrl}/gateway.v1.PaymentGatewayService/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${publishable}`, origin: SHOP },
        body: JSON.stringify({ providerAccountId: accountId, card: CARD, cardId }),
      });
      expect(answer.status).toBe(403);
    }
  });

  it('the save and the revoke are audited without card data; the table holds the card sealed', async () => {
    const { cardId } = await save(accountId, { card: CARD });
    await revoke(accountId, cardId);
    const { events } = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ pageSize: 500 }));
    const actions = events.map((event: { action: string }) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['gateway.v1.PaymentGatewayService/CreateCardId', 'gateway.v1.PaymentGatewayService/RevokeSavedCard']));
    expectNoCardData('audit', JSON.stringify(events), { pan: PAN, cvv: CVV });

    const db = new pg.Client({ connectionString: stack.database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ row: string }>('select t::text as row from saved_cards t');
      expect(rows.length).toBeGreaterThan(0);
      const dump = rows.map((row) => row.row).join('\n');
      expect(dump).toContain('v1.');
      expectNoCardData('saved_cards', dump, { pan: PAN, cvv: CVV });
      expect(dump).not.toContain('Ana Souza');
    } finally {
      await db.end();
    }
  });
});
