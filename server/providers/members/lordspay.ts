import { SPEC_GROUPS } from '../adapter.js';
import { LORDSPAY_PLATFORM, LordsPayAdapter } from '../families/transactionsApi/platforms/lordspay.js';
import type { TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * LORDSPAY (spec doc 3, group 3) on the LordsPay platform. Its own paths are
 * "not shown" (§7), so the platform's (LordsCash's) are used; its texts (§8):
 * 'Erro na LordsPay' creating, 'Erro ao consultar transação' reading, 'Erro ao
 * reembolsar transação' refunding, each with the provider's text; unknown
 * statuses PENDING (§4).
 */
export const LORDSPAY: TransactionsApiMember = {
  ...LORDSPAY_PLATFORM,
  identity: { id: 'LORDSPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.lordspay.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  statuses: { transaction: { overrides: { authorized: 'APPROVED' }, unknown: 'PENDING' } },
  failurePrefixes: { createTransaction: 'LORDSPAY', getTransaction: 'QUERY_TRANSACTION', refoundTransaction: 'REFUND_TRANSACTION_LORDSPAY' },
  evidence: { level: 'specification-only' },
  sources:
    "events, texts, unknown PENDING: spec (doc 3 §4/§8); paths and reais: the LordsPay platform's (LordsCash, doc 3 §7/§9), LordsPay's own being not shown; bodies and Bearer auth: the family's dialect (no public material); host: placeholder",
};

export default member(LordsPayAdapter, LORDSPAY);
