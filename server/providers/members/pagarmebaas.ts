import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { SPEC_GROUPS } from '../adapter.js';
import { OrdersApiAdapter, SECRET_KEY_BASIC, type OrdersApiMember } from '../families/ordersApi/index.js';
import { member } from '../kit/registration.js';

/**
 * Where Pagar.me's API v5 is documented: the pages and official SDK files its
 * stand-in (tests/standins/pagarme.ts) was written from, and passes.
 */
export const PAGARME_V5_DOCUMENTATION = [
  'https://docs.pagar.me/reference/autentica%C3%A7%C3%A3o-2',
  'https://docs.pagar.me/reference/erros-1',
  'https://docs.pagar.me/docs/o-que-%C3%A9',
  'https://docs.pagar.me/reference/pix-2',
  'https://docs.pagar.me/docs/cobran%C3%A7a',
  'https://docs.pagar.me/reference/exemplo-de-webhook-1',
  'https://docs.pagar.me/docs/lista-de-events',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/ordersController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/chargesController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/tokensController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/customersController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/recipientsController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/models/createCancelChargeRequest.ts',
  'https://github.com/pagarme/ecommerce-module-core/blob/02a6467/src/Kernel/ValueObjects/TransactionStatus.php',
] as const;

/** The SDK's GetBalanceResponse: `available_amount`, `waiting_funds_amount` ("Amount waiting in cents"), `transferred_amount`, in cents. */
export const PAGARME_BALANCE_RESPONSE = 'https://github.com/pagarme/pagarme-nodejs-sdk/blob/04b920a/src/models/getBalanceResponse.ts';

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
 * - Balance (issue 33 §4): the default recipient's, GET /recipients/{id}/balance, the recipient named by the
 *   account's platform_id as for payouts (the family's read, as PAGARME's): Pagar.me documents the balance per
 *   recipient, the account's own being its default recipient.
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
    balances: true,
  },
  auth: SECRET_KEY_BASIC,
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources:
    "paths, 5-day boleto: spec (doc 2 §7/§9); host `api.pagar.me/core/v5` and Basic auth with the secret key (docs.pagar.me, Autenticação); order, charge, token, customer and card bodies and answers (pagarme-nodejs-sdk controllers and models); PIX `expires_in` and refunds by cancelling the charge (Pix); transaction statuses, `pending_refund` among them (Cobrança; the official module's TransactionStatus); `Idempotency-Key` on orders, payouts and refunds (Idempotência; the SDK's cancelCharge); the error body `{message, errors}` (Erros); unsigned webhooks `{id, type, data}` (Exemplo de webhook, Lista de Events): verified by the stand-in written from them (tests/standins/pagarme.ts); the account's balance as its default recipient's (platform_id), GET /recipients/{id}/balance, `available_amount` available and `waiting_funds_amount` pending (recipientsController, GetBalanceResponse)",
  evidence: { level: 'documented', addresses: [...PAGARME_V5_DOCUMENTATION, PAGARME_BALANCE_RESPONSE] },
  expiry: { boletoSeconds: 5 * SECONDS_PER_DAY },
  withdrawalRecipient: (ctx, input) => input.receiverId || ctx.platformId || undefined,
};

export default member(OrdersApiAdapter, PAGARMEBAAS);
