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
 */
export const AXISBANK: TransactionsApiMember = {
  identity: { id: 'AXISBANK', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.axisbanking.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: 'empty' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    'paths and request fields: spec (doc 2 §7); host `api.axisbanking.com.br`, Basic with the key and an empty password, cents, PIX and card only: research (F10, IHub/AxisBanking integrations); answers read as the family reads them',
  paths: { create: '/transactions/v2/purchase', refund: { method: 'POST', path: '/transactions/refund/{id}' }, withdraw: '/withdraws/cash-out' },
};

export default member(PurchaseAdapter, AXISBANK);
