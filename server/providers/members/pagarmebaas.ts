import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { SPEC_GROUPS } from '../adapter.js';
import { OrdersApiAdapter, SECRET_KEY_BASIC, type OrdersApiMember } from '../families/ordersApi/index.js';
import { member } from '../kit/registration.js';

/**
 * PAGARMEBAAS (spec doc 2, group 2): the orders API as Pagar.me v5 serves it.
 * - Paths (doc 2 §7): POST /tokens, /customers, /customers/{id}/cards, /orders;
 *   GET /orders/{id}; DELETE /charges/{id} (amount); POST /recipients/{id}/withdrawals.
 * - Errors (doc 2 §8): the provider's message is rethrown under the common prefixes.
 * - Boleto due in 5 days (doc 2 §9); PIX 1 day, the common default.
 * - Statuses: the family's table, unknown → REJECTED (not in the spec's PENDING minority).
 * - Withdrawals: from the recipient the input names (receiver_id), else from the
 *   platform's default recipient, which the account's platform_id holds; the
 *   money goes to the recipient's registered bank account (a receiver-wallet payout).
 * - Host and auth from Pagar.me's public API reference (api.pagar.me/core/v5,
 *   HTTP Basic with the secret key as user; provider research, groups 1–2).
 */
export const PAGARMEBAAS: OrdersApiMember = {
  identity: { id: 'PAGARMEBAAS', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.pagar.me/core/v5' },
  capabilities: {
    paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
    withdrawMethods: ['RECEIVER'],
    refunds: true,
    cardTokens: true,
    savedCards: true,
    webhooks: true,
  },
  auth: SECRET_KEY_BASIC,
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources:
    'paths, 5-day boleto: spec (doc 2 §7/§9); bodies, statuses, events, `Idempotency-Key`, host `api.pagar.me/core/v5`, Basic auth: research (Pagar.me API v5 reference)',
  expiry: { boletoSeconds: 5 * SECONDS_PER_DAY },
  withdrawalRecipient: (ctx, input) => input.receiverId || ctx.platformId || undefined,
};

export default member(OrdersApiAdapter, PAGARMEBAAS);
