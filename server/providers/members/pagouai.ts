import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * PAGOUAI (spec doc 3, group 3), a member of the transactions API family: POST
 * /transactions (PIX, credit_card, boleto), GET /transactions/{id}, refunds by
 * POST /transactions/{id}/refund (doc 3 §7); PIX valid 1 day (§9); doc 3's
 * common status pattern (§4). The spec's paths are PagouAi's v1, the F1 shape
 * (provider research: PagNet's webhook is an alias of PagouAi's handler); from
 * its official material, host api.pagou.ai and `Authorization: Bearer` with the
 * secret key (sk_live_…). The v2 API (/v2/transactions, `buyer`, PUT refunds)
 * is not the spec's and is not used.
 */
export const PAGOUAI: TransactionsApiMember = {
  identity: { id: 'PAGOUAI', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.pagou.ai/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources:
    "paths (v1, F1), refund path, validity, statuses: spec (doc 3 §4/§7/§9); host `api.pagou.ai`, Bearer secret key, cents: research (official developer.pagou.ai, fixtures); `/v1` base, F1 body and postback: the family's dialect (PagNet alias, research)",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
};

export default member(TransactionsApiAdapter, PAGOUAI);
