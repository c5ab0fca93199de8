import { SPEC_GROUPS } from '../adapter.js';
import {
  BacenPixAdapter,
  PAYOUT_REFUSAL_SOURCE,
  PIX_PAYMENT_SOURCE,
  SELLS_REFUND_PATH,
  bacenPixAuth,
  type BacenPixMember,
} from '../families/bacenPix/index.js';
import { member } from '../kit/registration.js';

/**
 * PODPAY (spec doc 3, group 3; its BACEN-style variant, not PODPAY2's
 * transactions API), a member of the BACEN API Pix family: the OAuth token
 * over the platform's client certificates, POST /cob {devedor, valor, chave},
 * GET /cob/{txid}, POST /sells/{id}/refund (the API Pix's devolução for
 * accounts on api_version 'public'), POST /pix/payments/dict {pixKey,
 * payment} with an idempotency header (doc 3 §7); RECEIVE/REFUND/CANCELED
 * notifications and the cob statuses (§4); a payout reported APPROVED at once
 * (§4); 'Unauthorized.' on withdraw without the platform record (§5); phone
 * keys with '+55' (§5, the family's default); PIX valid 1 day (§9, the default).
 *
 * No public material documents this variant (research, groups 3–4: "Podpay's
 * Onz-style variant"): the token request is F8's (form-encoded, client
 * credentials in the body), the cash-out host is the account's (the spec names
 * none for Podpay), and the host is the brand's only known one (accounts set
 * their base_url). Its certificates are the family's: §7 says its token is
 * asked "using client certificates", so a call without them cannot be made.
 */
export const PODPAY: BacenPixMember = {
  identity: { id: 'PODPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.podpay.co' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: bacenPixAuth({ clientAuth: 'body' }),
  money: 'reais',
  evidence: { level: 'third-party' },
  sources: [
    "paths, statuses, events, payout APPROVED at creation, 'Unauthorized.' without the platform record: spec (doc 3 §4/§5/§7); cob, devolução (api_version public): Banco Central's API Pix (driven by the family's stand-in, tests/standins/bacenpix.ts; third-party: Podpay publishes nothing for this variant, which the research only infers runs on the F8 platform); form token with client credentials in the body, `/pix/payments/dict` body and `x-idempotency-key`: research (F8, inferred for Podpay); host `api.podpay.co` (the brand's only known host) and the account's host for cash-out: the gateway's decision",
    PIX_PAYMENT_SOURCE,
    PAYOUT_REFUSAL_SOURCE,
  ].join('; '),
  refund: { kind: 'post', path: SELLS_REFUND_PATH },
  // No public material shows /sells/{id}/refund; the API Pix Podpay's cob runs on refunds by devolução.
  apiVersions: ['specification', 'public'],
  publicRefund: { kind: 'devolucao' },
  payout: { statusAtCreation: 'approved', requirePlatform: true },
};

export default member(BacenPixAdapter, PODPAY);
