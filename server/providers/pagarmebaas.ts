import { boletoDueDaysFor, pixExpirySecondsFor } from '../lib/expiry.js';
import type { ProviderHttpDeclaration } from '../lib/http/index.js';
import { OrdersApiAdapter, type OrdersApiMember } from './families/ordersApi.js';

/**
 * PAGARMEBAAS (spec doc 2, group 2): the orders API as Pagar.me v5 serves it.
 * - Paths (doc 2 §7): POST /tokens, /customers, /customers/{id}/cards, /orders;
 *   GET /orders/{id}; DELETE /charges/{id} (amount); POST /recipients/{id}/withdrawals.
 * - Errors (doc 2 §8): the provider's message is rethrown under the common prefixes.
 * - Boleto due in 5 days (doc 2 §9); PIX 1 day, the common default.
 * - Statuses: the family's table, unknown → REJECTED (not in the spec's PENDING minority).
 * - Withdrawals: from the recipient the input names (receiver_id), else from the
 *   platform's default recipient, which the account's platform_id holds.
 */
export const PAGARMEBAAS: OrdersApiMember = {
  identity: {
    id: 'PAGARMEBAAS',
    aliases: [],
    specGroup: 'document 2 (group 2)',
    paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
    // The money goes to the recipient's registered bank account: a receiver-wallet payout.
    withdrawMethods: ['RECEIVER'],
    // Pagar.me API v5 (core); an account's base_url overrides it.
    defaultBaseUrl: 'https://api.pagar.me/core/v5',
  },
  pixExpiresInSeconds: pixExpirySecondsFor('PAGARMEBAAS'),
  boletoDueDays: boletoDueDaysFor('PAGARMEBAAS'),
  withdrawalRecipient: (ctx, input) => input.receiverId || ctx.platformId || undefined,
};

export class PagarmeBaasAdapter extends OrdersApiAdapter {
  /** Tests may shorten timeouts or fix the clock; production uses the declaration as is. */
  constructor(overrides: { http?: Partial<ProviderHttpDeclaration>; now?: () => Date } = {}) {
    super({ ...PAGARMEBAAS, ...overrides });
  }
}
