import { SPEC_GROUPS } from '../adapter.js';
import type { TransactionsApiMember } from '../families/transactionsApi/index.js';
import { PurchaseAdapter } from '../families/transactionsApi/platforms/purchase.js';
import { member } from '../kit/registration.js';

/**
 * AXISBANK (spec doc 2, group 2) on the "/transactions/v2/purchase" platform
 * (provider research F10: IHub / AxisBanking, host api.axisbanking.com.br, HTTP
 * Basic with the key as user and an empty password, amounts in cents, PIX and
 * card). Paths and request fields are the spec's (doc 2 §7): POST
 * /transactions/v2/purchase (customer, paymentMethod, description, amount,
 * postbackUrl, referrerUrl, checkoutUrl, responsible fields, currency,
 * creditCard or fingerPrint); GET /transactions/{id}; POST
 * /transactions/refund/{id}; POST /withdraws/cash-out (bankAccount,
 * institution, name, bankAgency, amount, document, pixType, pixKey). Where the
 * research's flat body differs (name, cpf… at the top level), the spec's
 * `customer` wins. Answers are read as the family reads them. Its bodies are
 * the platform's, shared with HunterPay (`families/transactionsApi/platforms/purchase.ts`).
 * AxisBanking's own documentation ("Create Transaction") gives the
 * `creditCard` fields the spec leaves open, sent for a card opened from the
 * gateway's card token, and its flat purchase body, which an account takes as
 * api_version `public`.
 */

/** AxisBanking's documentation the stand-in (tests/standins/axisbank.ts) was written from. */
export const AXISBANK_DOCUMENTATION = ['https://docs.axisbanking.com.br/api/create-transaction'] as const;

export const AXISBANK: TransactionsApiMember = {
  identity: { id: 'AXISBANK', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.axisbanking.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: 'empty' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  // The specification's field list, then the documented body (flat buyer, required responsible fields).
  apiVersions: ['specification', 'public'],
  evidence: { level: 'documented', addresses: AXISBANK_DOCUMENTATION },
  sources:
    "paths and request fields: spec (doc 2 §7); the `creditCard` fields `{number, holder, expMonth, expYear, cvv, installments}` (a card opened from the gateway's card token) and the flat purchase body of api_version `public` (`name, email, cpf, phone` at the top, `responsibleDocument` and `responsibleExternalId` required, `fingerPrint` one text): AxisBanking's documentation (Create Transaction), verified by its stand-in; host `api.axisbanking.com.br`, Basic with the key and an empty password, cents, PIX and card only: research (F10, IHub/AxisBanking integrations); a caller's card id as `creditCard {token, installments}` (default dialect only), answers read as the family reads them: the gateway's decision (the page's answer could not be read)",
  paths: { create: '/transactions/v2/purchase', refund: { method: 'POST', path: '/transactions/refund/{id}' }, withdraw: '/withdraws/cash-out' },
};

export default member(PurchaseAdapter, AXISBANK);
