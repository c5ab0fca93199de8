import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * GATYWAY (spec doc 2, group 2), a member of the transactions API family: PIX
 * payouts by POST /transfers and card tokens by POST /card-token (§7), 'Unsupported
 * payment method' (§8). No public material (provider research); the spec's
 * text for unsupported methods and its card tokens say it takes PIX and cards,
 * not boleto (the gateway's reading). The family's Basic secret-key auth and
 * bodies, a placeholder host accounts override.
 */
export const GATYWAY: TransactionsApiMember = {
  identity: { id: 'GATYWAY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.gatyway.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], withdrawMethods: ['PIX'], refunds: true, cardTokens: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "paths, 'Unsupported payment method': spec (doc 2 §7/§8); no boleto: the gateway's reading of that text; bodies and auth: the family's dialect (no public material); host: placeholder",
  paths: { withdraw: '/transfers', cardToken: '/card-token' },
  failures: { unsupportedPaymentMethod: 'UNSUPPORTED_PAYMENT_METHOD' },
};

export default member(TransactionsApiAdapter, GATYWAY);
