import { CreateCardTokenRequest, CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import type { CardInput } from '../../server/lib/card.js';
import type { Driver } from './clients.js';

/** What a provider's test searches answers and logs for (expectNoCardData): the typed card's digits and its CVV. */
export const TYPED_CARD_SECRETS = { pan: '5448280000000007', cvv: '8316' } as const;

/** A card as a buyer types it into the checkout: grouped digits, a one-digit month, a two-digit year, no holder document. */
export const TYPED_CARD: CardInput = {
  cardNumber: '5448 2800 0000 0007',
  holderName: 'ANA SOUZA',
  holderDocument: '',
  expMonth: '3',
  expYear: '31',
  cvv: TYPED_CARD_SECRETS.cvv,
};

/** The gateway's own card token of `card` for an account whose provider takes cards and tokenises nothing. */
export async function gatewayCardToken(driver: Driver, providerAccountId: string, card: CardInput = TYPED_CARD): Promise<string> {
  return (await driver.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId, card }))).cardToken;
}

/** A card charge of R$ 19,90 in one instalment at an account, with a card token or a saved card as `card_id`. */
export const cardCharge = (providerAccountId: string, cardId: string, idempotencyKey: string): CreateTransactionRequest =>
  CreateTransactionRequest.fromPartial({
    providerAccountId,
    idempotencyKey,
    transaction: {
      amount: 1990,
      paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
      installments: 1,
      customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
      cardId,
    },
  });
