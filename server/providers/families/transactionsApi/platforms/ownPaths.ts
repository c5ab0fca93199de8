import type { TransactionsApiMember } from '../member.js';
import { DOC3_COMMON_OVERRIDES } from '../statuses.js';

/**
 * Doc 3 §7's gateways with "own POST create, GET read and refund paths …
 * exact paths per provider not shown" for which the provider research found no
 * public material (PayRoyal, Payber, Pluggo, XitBank): the family's dialect
 * throughout (POST /transactions, GET /transactions/{id}, POST
 * /transactions/{id}/refund, the F1 body and postback, cents, Basic with the
 * secret key and 'x'), PIX, card and boleto (§5's "many others"), PIX 1 day
 * and boleto 3 days (§9, the family's defaults), doc 3's common status pattern
 * with unknown REJECTED (§4: none is in the PENDING list). No payout: §7 shows
 * them none. A member spreads this into its declaration and adds who it is.
 */
export const OWN_PATHS_GATEWAY: Required<Pick<TransactionsApiMember, 'capabilities' | 'auth' | 'credentials' | 'money' | 'statuses'>> = {
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
};

/**
 * Doc 3 §7: "Card tokenising: POST /cards/tokenize then POST /cards (PayRoyal,
 * Payber, Pluggo)": createCardToken is the first call, createCardId both (the
 * family's `cardSave` extension point). Spread after OWN_PATHS_GATEWAY.
 */
export const CARDS_TOKENIZE_THEN_SAVE: Required<Pick<TransactionsApiMember, 'capabilities' | 'paths'>> = {
  capabilities: { ...OWN_PATHS_GATEWAY.capabilities, cardTokens: true, savedCards: true },
  paths: { cardToken: '/cards/tokenize', cardSave: '/cards' },
};
