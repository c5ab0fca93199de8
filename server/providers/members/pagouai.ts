import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';
import { PagouaiAdapter } from '../pagouai/adapter.js';

/**
 * PAGOUAI (spec doc 3, group 3), a member of the transactions API family: POST
 * /transactions (PIX, credit_card, boleto), GET /transactions/{id}, refunds by
 * POST /transactions/{id}/refund (doc 3 §7); PIX valid 1 day (§9); doc 3's
 * common status pattern (§4). The spec's paths are PagouAi's v1, the F1 shape
 * (provider research: PagNet's webhook is an alias of PagouAi's handler); from
 * its official material, host api.pagou.ai and `Authorization: Bearer` with the
 * secret key (sk_live_…).
 *
 * Pagou.ai documents only its v2 API (/v2/transactions with `method`, `buyer`,
 * `products`; refunds by PUT; its own event envelope). The specification's
 * dialect stays the default; an account with api_version `v2` speaks Pagou.ai's
 * own (server/providers/pagouai/adapter.ts, a subclass of the family's adapter).
 */
export const PAGOUAI: TransactionsApiMember = {
  identity: { id: 'PAGOUAI', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.pagou.ai/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  apiVersions: ['specification', 'v2'],
  // Verified for api_version v2 by tests/standins/pagouai.ts (the specification's dialect has no public material of its own).
  evidence: {
    level: 'documented',
    addresses: [
      'https://developer.pagou.ai/start-here/authentication',
      'https://developer.pagou.ai/start-here/environments',
      'https://developer.pagou.ai/start-here/idempotency',
      'https://developer.pagou.ai/api-reference/api--transactions/create-a-transaction',
      'https://developer.pagou.ai/api-reference/api--transactions/get-a-transaction',
      'https://developer.pagou.ai/payments/pix/accept-payments',
      'https://developer.pagou.ai/payments/pix/refunds',
      'https://developer.pagou.ai/payments/vouchers/accept-payments',
      'https://developer.pagou.ai/payments/transaction-statuses',
      'https://developer.pagou.ai/webhooks/overview',
      'https://developer.pagou.ai/webhooks/payment-events',
    ],
  },
  sources:
    "paths (v1, F1), refund path, validity, statuses: spec (doc 3 §4/§7/§9); host `api.pagou.ai`, Bearer secret key, cents: research (official developer.pagou.ai, fixtures); `/v1` base, F1 body and postback: the family's dialect (PagNet alias, research); api_version `v2`: `POST /v2/transactions` body and `{success, data}` answer (developer.pagou.ai api-reference create a transaction, payments/pix/accept-payments), `GET /v2/transactions/{id}` (api-reference get a transaction), `PUT /v2/transactions/{id}/refund {amount}` and its answer (payments/pix/refunds), problem+json errors (start-here/authentication), statuses (payments/transaction-statuses), webhook envelope and events (webhooks/overview, webhooks/payment-events), voucher for boleto (payments/vouchers/accept-payments); card charges by Pagou.ai's `pgct_`/`pgpm_` token only, v2 at the host's root beside the `/v1` base: the gateway's decision; v2 verified by the stand-in written from those pages (tests/standins/pagouai.ts)",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
};

export default member(PagouaiAdapter, PAGOUAI);
