import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * PIXIUM (spec doc 2, group 2), a member of the transactions API family: the
 * family's paths (doc 2 §7), the spec's default validity (PIX 1 day, boleto 3
 * days, §9: no expiry to declare), 'Internal server error' on a refund failure (§8). No public API material was found for it
 * (provider research, groups 1–2), so everything else is the family's dialect
 * and the host is a placeholder that accounts override with base_url.
 */
export const PIXIUM: TransactionsApiMember = {
  identity: { id: 'PIXIUM', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.pixium.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources: 'as PAGUESAFE: paths, validity and refund text from the spec; no public API material found; host: placeholder',
  failures: { refoundTransaction: 'INTERNAL_SERVER_ERROR' },
};

export default member(TransactionsApiAdapter, PIXIUM);
