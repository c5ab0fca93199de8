import { SPEC_GROUPS } from '../adapter.js';
import { OrdersApiAdapter, type OrdersApiMember } from '../families/ordersApi/index.js';
import { member } from '../kit/registration.js';
import { PAGARMEBAAS } from './pagarmebaas.js';

/** Pagar.me v5 as PAGARMEBAAS speaks it, without PAGARMEBAAS's own 5-day boleto (doc 2 §9 names it for group 2 only). */
const { expiry: _pagarmeBaasBoleto, ...PAGARME_V5 } = PAGARMEBAAS;

/**
 * PAGARME (spec doc 2, group 1): Pagar.me's API v5 (research; the issue asks
 * for "Pagar.me v5 for PAGARME (the orders family)"), the orders family as
 * PAGARMEBAAS uses it: orders with PIX, boleto and card charges, card tokens
 * and saved cards, refunds by DELETE /charges/{id}, withdrawals from a
 * recipient, Pagar.me's events; §9's default validity (PIX 1 day, boleto 3
 * days). Recipients (creation with the transfer settings of document 1 §9) are
 * not built yet (docs/decisions.md).
 */
export const PAGARME: OrdersApiMember = {
  ...PAGARME_V5,
  identity: { id: 'PAGARME', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.pagar.me/core/v5' },
  sources:
    'host `api.pagar.me/core/v5`, Basic with the secret key, bodies, statuses, events, `Idempotency-Key`, the orders paths: research (Pagar.me API v5 reference) and the orders family (PAGARMEBAAS); validity: document 1 §9 defaults',
};

export default member(OrdersApiAdapter, PAGARME);
