import { CreateCardTokenRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
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
