import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * TRANSAC (spec doc 2, group 2), a member of the transactions API family with
 * nothing of its own in the spec: the family's paths (§7), statuses (§4) and
 * texts. No public material (provider research): auth is the family's Basic
 * secret-key convention and the host a placeholder accounts override.
 */
export const TRANSAC: TransactionsApiMember = {
  identity: { id: 'TRANSAC', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.transac.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources: "paths: spec (doc 2 §7); the rest the family's dialect (no public material); host: placeholder",
};

export default member(TransactionsApiAdapter, TRANSAC);
