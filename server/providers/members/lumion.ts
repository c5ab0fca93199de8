import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * LUMION (spec doc 3, group 3), a member of the transactions API family: POST
 * /transactions (PIX, credit_card, boleto) and GET /transactions/{id}, no refund
 * (doc 3 §7); PIX valid 1 day, boleto 3 days (§9); doc 3's common status
 * pattern (§4). No public material (provider research): the family's Basic
 * secret-key auth, bodies and postbacks, amounts in cents, a placeholder host
 * accounts override.
 */
export const LUMION: TransactionsApiMember = {
  identity: { id: 'LUMION', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.lumion.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "paths, no refund, validity, statuses: spec (doc 3 §4/§7/§9); auth, bodies, postbacks, cents: the family's dialect (no public material found); host: placeholder",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
};

export default member(TransactionsApiAdapter, LUMION);
