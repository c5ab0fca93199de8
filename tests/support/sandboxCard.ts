import { CreateCardIdRequest, CreateCardTokenRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import type { Driver } from './clients.js';

/** A saved card on a SANDBOX-backed account (the sandbox approves 4111 1111 1111 1111; SANDBOX_TEST_CARDS has the declining ones), ready for a card charge. */
export async function sandboxCardId(driver: Driver, providerAccountId: string, cardNumber = '4111111111111111'): Promise<string> {
  const { cardToken } = await driver.call(
    'gateway',
    'createCardToken',
    CreateCardTokenRequest.fromPartial({
      providerAccountId,
      card: { cardNumber, holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' },
    }),
  );
  const { cardId } = await driver.call('gateway', 'createCardId', CreateCardIdRequest.fromPartial({ providerAccountId, cardToken }));
  return cardId;
}
