import { SPEC_GROUPS } from '../adapter.js';
import { PRIMEPAG_AUTH, PrimePagAdapter, type PrimePagMember } from '../families/primepag/index.js';
import { member } from '../kit/registration.js';

/**
 * PRIMEPAG (spec doc 2, group 1), the PrimePag platform itself (research
 * "G-B": ZENDRY speaks the same API). Document 2 shows no per-provider paths
 * for group 1, so its real API as its public integrations use it: host
 * api.primepag.com.br, the token at POST /auth/generate_token (Basic
 * client_id:client_secret, JSON client credentials), PIX charges by POST
 * /v1/pix/qrcodes and their reads by GET /v1/pix/qrcodes/{reference_code},
 * PIX payouts by POST /v1/pix/payments (cents, phone keys with +55), and the
 * pix_qrcode / pix_payment notifications. Document 1's common status pattern
 * (the family's table, unknown REJECTED); no refund, payout lookup, card or
 * boleto: the platform's integrations show none.
 */
export const PRIMEPAG: PrimePagMember = {
  identity: { id: 'PRIMEPAG', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.primepag.com.br' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], webhooks: true },
  auth: PRIMEPAG_AUTH,
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    "statuses (common pattern, unknown REJECTED), PIX 1 day: spec (doc 1 §4/§9); host `api.primepag.com.br`, Basic + JSON token exchange, `value_cents` QR-code and DICT-payout bodies, `{qrcode{…}}`/`{payment{…}}` answers, `pix_qrcode`/`pix_payment` notifications keyed by `reference_code`: research (G-B, PrimePag's public integrations); unsigned notifications, `idempotent_id`: the family's decisions; a canceled payout's `cancellation_reason` (named beside `cancellation_date` in the pix_payment notification and in the payment read of the platform's documentation, developers-stg.primepag.com.br/en/docs/webhook/notify-payment and /docs/payment/payment-search-code, null in both examples; its shape not described, so only a text is kept) as the payout's refusal reason",
};

export default member(PrimePagAdapter, PRIMEPAG);
