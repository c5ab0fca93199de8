import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * HORIZONBANK (spec doc 2, group 2), a member of the transactions API family:
 * the family's paths (doc 2 §7), boleto 3 days and PIX 1 day, the defaults (§9),
 * 'Internal server error' on a refund failure (§8). No public material (provider
 * research): auth is the family's Basic secret-key convention and the host a
 * placeholder that accounts override with base_url.
 */
export const HORIZONBANK: TransactionsApiMember = {
  identity: { id: 'HORIZONBANK', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.horizonbank.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "paths, validity, 'Internal server error' on refunds: spec (doc 2 §7–§9); bodies and Basic auth: the family's dialect (no public material); host: placeholder",
  failures: { refoundTransaction: 'INTERNAL_SERVER_ERROR' },
};

export default member(TransactionsApiAdapter, HORIZONBANK);
