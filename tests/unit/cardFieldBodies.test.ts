import { describe, expect, it } from '@jest/globals';
import type { TransactionInput } from '../../server/domain/types.js';
import { cardMyId, customerMyId, toCelcashNewCard } from '../../server/providers/celcoin/adapter.js';
import { toApiCardToken } from '../../server/providers/families/transactionsApi/mappers.js';
import {
  assertPublicPurchaseCard,
  publicPurchaseParties,
  toPublicPurchase,
  toPurchaseCardFields,
} from '../../server/providers/families/transactionsApi/platforms/purchase.js';

/** The card bodies built from a card opened from the gateway's card token (Cel_Cash's Card, the purchase platform's creditCard), as pure mappers. */

const OPENED = { cardNumber: '4111 1111-1111 1111', holderName: ' ANA SOUZA ', holderDocument: '', expMonth: '3', expYear: '31', cvv: '321' };
const ANA = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '+55 (11) 98765-4321' };
const input = (extra: Partial<TransactionInput> = {}): TransactionInput => ({
  amount: 1990,
  paymentMethod: 'PIX',
  items: [],
  installments: 1,
  fingerPrints: [],
  splits: [],
  currency: 'BRL',
  customer: ANA,
  userDocument: '987.654.321-00',
  userId: 'seller-9',
  ...extra,
});
const terms = { notificationUrl: 'https://gateway.example/webhooks/a', amount: (cents: number) => cents };

describe("Cel_Cash's card by its own fields", () => {
  it('sends digits, the holder trimmed, expiresAt YYYY-MM and the CVV, under the given myId', () => {
    expect(toCelcashNewCard(OPENED, 'card-id')).toEqual({ myId: 'card-id', number: '4111111111111111', holder: 'ANA SOUZA', expiresAt: '2031-03', cvv: '321' });
  });

  it("names a card after its charge: the same charge the same UUID, never a customer's", () => {
    expect(cardMyId('idem-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(cardMyId('idem-1')).toBe(cardMyId('idem-1'));
    expect(cardMyId('idem-1')).not.toBe(cardMyId('idem-2'));
    expect(cardMyId('12345678909')).not.toBe(customerMyId('12345678909'));
  });
});

describe("the purchase platform's documented creditCard and body", () => {
  it('sends the card as creditCard {number, holder, expMonth, expYear, cvv, installments}', () => {
    expect(toPurchaseCardFields(OPENED, 4)).toEqual({
      number: '4111111111111111',
      holder: 'ANA SOUZA',
      expMonth: '03',
      expYear: '2031',
      cvv: '321',
      installments: 4,
    });
  });

  it('builds the flat body: the buyer at the top, the responsible fields, the first fingerprint, the card when opened', () => {
    const body = toPublicPurchase(
      input({
        paymentMethod: 'CREDIT_CARD',
        card: OPENED,
        installments: 2,
        orderId: 'o-1',
        fingerPrints: [
          { provider: 'a', value: 'fp-1' },
          { provider: 'b', value: 'fp-2' },
        ],
      }),
      terms,
    );
    expect(body).toEqual({
      name: 'Ana Souza',
      email: 'ana@example.com',
      cpf: '12345678909',
      phone: '11987654321',
      amount: 1990,
      description: 'Pedido',
      responsibleDocument: '98765432100',
      responsibleExternalId: 'seller-9',
      paymentMethod: 'CREDIT_CARD',
      currency: 'BRL',
      externalId: 'o-1',
      postbackUrl: terms.notificationUrl,
      fingerPrint: 'fp-1',
      creditCard: { number: '4111111111111111', holder: 'ANA SOUZA', expMonth: '03', expYear: '2031', cvv: '321', installments: 2 },
    });
  });

  it('refuses, naming the field, what the documented body requires and the input lacks', () => {
    const cases: Array<[Partial<TransactionInput>, string]> = [
      [{ customer: undefined }, 'transaction.customer.name'],
      [{ customer: { ...ANA, email: ' ' } }, 'transaction.customer.email'],
      [{ customer: { ...ANA, document: '' } }, 'transaction.customer.document'],
      [{ customer: { ...ANA, phone: '' } }, 'transaction.customer.phone'],
      [{ userDocument: undefined }, 'transaction.user_document'],
      [{ userId: ' ' }, 'transaction.user_id'],
    ];
    for (const [extra, field] of cases)
      expect(() => publicPurchaseParties(input(extra))).toThrow(`${field} is required for AXISBANK charges in api_version public`);
  });

  it('takes a card only by its own fields: a gateway token passes the early check, a card id does not', () => {
    expect(() => assertPublicPurchaseCard({ paymentMethod: 'CREDIT_CARD', cardId: 'gct_v1.abc' })).not.toThrow();
    expect(() => assertPublicPurchaseCard({ paymentMethod: 'PIX' })).not.toThrow();
    expect(() => assertPublicPurchaseCard({ paymentMethod: 'CREDIT_CARD', cardId: 'card_9' })).toThrow('takes a card by its own fields only');
    expect(() => toPublicPurchase(input({ paymentMethod: 'CREDIT_CARD', cardId: 'gct_v1.abc' }), terms)).toThrow('takes a card by its own fields only');
  });
});

describe("the transactions API family's card body", () => {
  const card = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Souza', holderDocument: '', expMonth: '03', expYear: '30', cvv: '737' };

  it('carries the CVV of a card token, and leaves the field out for a saved card (none is kept)', () => {
    expect(toApiCardToken(card)).toEqual({ number: '4111111111111111', holderName: 'Ana Souza', expirationMonth: 3, expirationYear: 2030, cvv: '737' });
    expect(toApiCardToken({ ...card, cvv: '' })).not.toHaveProperty('cvv');
  });
});
