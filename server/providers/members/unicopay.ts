import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * UNICOPAY (spec doc 2, group 2), a member of the transactions API family with
 * nothing of its own in the spec (§4, §7). The research found only a route name
 * in a multi-gateway app: auth is the family's Basic secret-key convention and
 * the host a placeholder accounts override.
 */
export const UNICOPAY: TransactionsApiMember = {
  identity: { id: 'UNICOPAY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.unicopay.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources: "paths: spec (doc 2 §7); the rest the family's dialect (research found only a route name); host: placeholder",
};

export default member(TransactionsApiAdapter, UNICOPAY);
