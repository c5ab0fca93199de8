import { SPEC_GROUPS } from '../adapter.js';
import {
  API_PIX_DOCUMENTATION,
  BacenPixAdapter,
  PAYOUT_REFUSAL_SOURCE,
  PIX_PAYMENT_SOURCE,
  DICT_PAYMENT_LOOKUP_PATH,
  bacenPixAuth,
  type BacenPixMember,
} from '../families/bacenPix/index.js';
import { member } from '../kit/registration.js';

/**
 * TREEAL (spec doc 2, group 2), a member of the BACEN API Pix family: cash-in
 * and cash-out over the platform's certificates ('Unauthorized.' without them,
 * doc 2 §5/§8), POST /oauth/token, POST /cob, GET /cob/{txid}, POST
 * /pix/payments/dict with x-idempotency-key (doc 2 §7), RECEIVE/REFUND/CANCELED
 * notifications (doc 2 §4), PIX valid 1 day (§9, the default).
 *
 * From the provider research (groups 1–2, F8; Treeal's public integrations):
 * host api.pix.treeal.com, the token request form-encoded with client_id and
 * client_secret in the body. The spec shows no TREEAL refund path, and its
 * integrations configure BACEN's devolução ("refund_nature ORIGINAL"): refunds
 * are the API Pix devolução. Its notifications come as {data:{txId, status}}
 * without an event type: they are RECEIVE events.
 */
export const TREEAL: BacenPixMember = {
  identity: { id: 'TREEAL', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.pix.treeal.com' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true },
  auth: bacenPixAuth({ clientAuth: 'body' }),
  money: 'reais',
  sources: [
    "paths, statuses, events: spec (doc 2 §4/§7); cob, devolução, RFC 7807 errors: the Banco Central's API Pix (openapi.yaml 2.9.0); REFUND/TRANSFER notifications and the dict payout: Avista's \"PIX Bacen\" documentation of the same API; host `api.pix.treeal.com`, form token with client credentials in the body, POST /cob answering {status, txid, pixCopiaECola}, `{data:{txId,status}}` notifications without a type, `refund_nature ORIGINAL` (the API Pix devolução), `/pix/payments/dict` answering 202 `{endToEndId, status}`: Treeal's public integrations (research F8). Verified by the stand-in written from them (tests/standins/bacenpix.ts)",
    PIX_PAYMENT_SOURCE,
    PAYOUT_REFUSAL_SOURCE,
  ].join('; '),
  evidence: { level: 'platform', addresses: API_PIX_DOCUMENTATION },
  refund: { kind: 'devolucao' },
  payout: { lookupPath: DICT_PAYMENT_LOOKUP_PATH },
  untypedEvent: 'RECEIVE',
};

export default member(BacenPixAdapter, TREEAL);
