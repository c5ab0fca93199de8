import { SPEC_GROUPS } from '../adapter.js';
import { PRIMEPAG_AUTH, PrimePagAdapter, type PrimePagMember } from '../families/primepag/index.js';
import { member } from '../kit/registration.js';

/**
 * ZENDRY (spec doc 2, group 2), on the PrimePag platform (research "G-B"): the
 * platform's paths (§7: POST /auth/generate_token, POST /v1/pix/qrcodes, GET
 * /v1/pix/qrcodes/{id}, POST /v1/pix/payments), its host api.zendry.com.br
 * (research), and the spec's exceptions "canceled is PENDING; error is
 * CHARGEBACK" (§4). No refunds and no payout lookup: the spec gives no path for them.
 */
export const ZENDRY: PrimePagMember = {
  identity: { id: 'ZENDRY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.zendry.com.br' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], webhooks: true },
  auth: PRIMEPAG_AUTH,
  money: 'cents',
  statuses: { transaction: { overrides: { canceled: 'PENDING', error: 'CHARGEBACK' } } },
  evidence: { level: 'third-party' },
  sources:
    "paths, `canceled` PENDING / `error` CHARGEBACK: spec (doc 2 §4/§7); host `api.zendry.com.br`, Basic + JSON token exchange, `value_cents` QR-code and DICT-payout bodies, `{qrcode{…}}`/`{payment{…}}` answers, `pix_qrcode`/`pix_payment` notifications keyed by `reference_code`: research (G-B, ZENDRY's and PRIMEPAG's public integrations); the rest of both status tables, unsigned notifications, `idempotent_id`: gateway's decision; a canceled payout's `cancellation_reason` (named beside `cancellation_date` in the pix_payment notification and in the payment read of the platform's documentation, developers-stg.primepag.com.br/en/docs/webhook/notify-payment and /docs/payment/payment-search-code, null in both examples; its shape not described, so only a text is kept) as the payout's refusal reason",
};

export default member(PrimePagAdapter, ZENDRY);
