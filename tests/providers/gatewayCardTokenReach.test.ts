import { expect, it } from '@jest/globals';
import { createRegistry } from '../../server/providers/catalog.js';
import type { AdapterContext } from '../../server/providers/adapter.js';

const ctx = (apiVersion?: string): AdapterContext => ({
  accountId: 'account',
  publicKey: 'pk',
  secretKey: 'sk',
  baseUrl: 'http://127.0.0.1:9',
  notificationUrl: 'http://127.0.0.1:9/webhooks',
  ...(apiVersion ? { apiVersion } : {}),
});

/**
 * Which card providers the gateway's card token reaches: every provider that takes cards and tokenises nothing gets
 * it, and a charge with it works where the adapter sends a card's own fields. The rest name a card only by a reference
 * of their own (no card body in the specification): listed here so that a change is seen.
 */
it("sends the card opened from the gateway's card token at every card provider without tokenization, except those with no card body", async () => {
  const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:9', sandboxTimeoutMs: 1000 });
  const withoutTokenization = registry
    .list()
    .filter((adapter) => adapter.capabilities.paymentMethods.includes('CREDIT_CARD') && !adapter.capabilities.cardTokens);
  const noCardBody = withoutTokenization.filter((adapter) => !adapter.takesCardData(ctx())).map((adapter) => adapter.identity.id);
  expect(noCardBody.sort()).toEqual([
    'ABMEXSPLIT',
    // HAWKPAY, ORBITA and PAGNET are on the F1 platform: a card by the hash its card script makes, as PODPAY2's.
    'HAWKPAY',
    'MAKEYOURBANK',
    'ORBITA',
    'PAGNET',
    'PAYSHARKGATEWAY',
    'PODPAY2',
    'WITETEC',
  ]);
  expect(withoutTokenization.length - noCardBody.length).toBe(39);
  // Every one that takes card data is a transactions-API member (the family's card body; the purchase platform's documented
  // creditCard at AXISBANK and HUNTERPAY), or a bespoke adapter that
  // sends the card in its provider's own shape (ASAAS's creditCard and creditCardHolderInfo; CELCOIN's PaymentMethodCreditCard.Card;
  // MERCADOPAGO's card token made at charge time).
  const bespoke = ['ASAAS', 'CELCOIN', 'MERCADOPAGO'];
  const takers = withoutTokenization.filter((candidate) => candidate.takesCardData(ctx()));
  expect(
    takers
      .filter((adapter) => adapter.family !== 'transactions API')
      .map((adapter) => adapter.identity.id)
      .sort(),
  ).toEqual(bespoke);
  // PAGOUAI's public dialect (api_version v2) charges only Pagou.ai's own card tokens.
  const pagouai = registry.find('PAGOUAI')!;
  expect(pagouai.takesCardData(ctx())).toBe(true);
  expect(pagouai.takesCardData(ctx('v2'))).toBe(false);
});
