import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * KUBERFINANCE, "Kuber Finance" (spec doc 3, group 3), a member of the
 * transactions API family: POST /transactions, GET /transactions/{id}, refunds
 * by DELETE /transactions/{id} (doc 3 §7) failing with 'Failed to refund
 * transaction.' (§8); new PIX charges and billets start PENDING (§4); PIX valid
 * 1 day (§9); doc 3's common status pattern (§4). No public material (provider
 * research): the family's Basic secret-key auth, bodies and postbacks, amounts
 * in cents, PIX, card and boleto ("many others", §5), a placeholder host.
 */
export const KUBERFINANCE: TransactionsApiMember = {
  identity: { id: 'KUBERFINANCE', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.kuberfinance.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "paths, DELETE refund, 'Failed to refund transaction.', PIX and billets PENDING at creation, validity, statuses: spec (doc 3 §4/§7/§8/§9); auth, bodies, postbacks, cents, methods: the family's dialect (no public material found); host: placeholder",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
  paths: { refund: { method: 'DELETE', path: '/transactions/{id}' } },
  failures: { refoundTransaction: 'KUBER_REFUND_FAILED' },
  pendingAtCreation: ['PIX', 'BILLET'],
};

export default member(TransactionsApiAdapter, KUBERFINANCE);
