import { SPEC_GROUPS } from '../adapter.js';
import { LORDSPAY_PLATFORM, LordsPayAdapter } from '../families/transactionsApi/platforms/lordspay.js';
import type { TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * LORDSCASH (spec doc 3, group 4) on the LordsPay platform: Bearer, POST
 * /payments, GET /payments/{id}, POST /payments/refund (§7), reais (§9), every
 * failure 'Erro na LordsPay: …' (§8), its own table (§4: paid and approved
 * APPROVED; failed, expired, cancelled REJECTED; refunded REFUNDED; chargeback
 * CHARGEBACK; unknown PENDING, as most of the fourth group), a created boleto PENDING.
 */
export const LORDSCASH: TransactionsApiMember = {
  ...LORDSPAY_PLATFORM,
  identity: { id: 'LORDSCASH', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.lordscash.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  statuses: {
    transaction: {
      table: {
        paid: 'APPROVED',
        approved: 'APPROVED',
        failed: 'REJECTED',
        expired: 'REJECTED',
        cancelled: 'REJECTED',
        refunded: 'REFUNDED',
        chargeback: 'CHARGEBACK',
      },
      unknown: 'PENDING',
    },
  },
  failurePrefixes: { createTransaction: 'LORDSPAY', getTransaction: 'LORDSPAY', refoundTransaction: 'LORDSPAY' },
  evidence: { level: 'specification-only' },
  sources: "paths, Bearer, reais, table, events, texts: spec (doc 3 §4/§7/§8/§9); bodies: the family's dialect (no public material); host: placeholder",
};

export default member(LordsPayAdapter, LORDSCASH);
