import { SPEC_GROUPS } from '../adapter.js';
import {
  API_PIX_DOCUMENTATION,
  BacenPixAdapter,
  DICT_PAYMENT_LOOKUP_PATH,
  PAYOUT_REFUSAL_SOURCE,
  PIX_PAYMENT_SOURCE,
  SELLS_REFUND_PATH,
  bacenPixAuth,
  type BacenPixMember,
} from '../families/bacenPix/index.js';
import { member } from '../kit/registration.js';

/**
 * VOLUTI (spec doc 2, group 2), a member of the BACEN API Pix family: PIX
 * cash-in by cob, payouts by /pix/payments/dict read back by GET
 * /pix/payments/{endToEndId}, refunds by POST /sells/{id}/refund (doc 2 §7)
 * or, for accounts on api_version 'public', by the API Pix's devolução,
 * PIX valid 1 day (doc 1 §9, the default). Host api.pix.voluti.com.br and the
 * JSON token request {grant_type, client_id, client_secret} are what VOLUTI's
 * public integrations send (provider research, groups 1–2, F8).
 */
export const VOLUTI: BacenPixMember = {
  identity: { id: 'VOLUTI', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.pix.voluti.com.br' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true },
  auth: bacenPixAuth({ body: 'json', clientAuth: 'body' }),
  money: 'reais',
  sources: [
    "paths, statuses, events: spec (doc 2 §4/§7); cob (CobSolicitada, CobGerada, CobCompleta), devolução (api_version public), RFC 7807 errors: the Banco Central's API Pix (openapi.yaml 2.9.0); {type, data} RECEIVE/REFUND/TRANSFER notifications and the dict payout: Avista's \"PIX Bacen\" documentation of the same API; host `api.pix.voluti.com.br`, the JSON token body {grant_type, client_id, client_secret}, POST /cob's answer {txid, location, pixCopiaECola}: VOLUTI's public integrations (research F8); `/pix/payments/dict` with `x-idempotency-key`: the Onz-style payout these PSPs share (research F8); /sells/{id}/refund: spec only. Verified by the stand-in written from them (tests/standins/bacenpix.ts)",
    PIX_PAYMENT_SOURCE,
    PAYOUT_REFUSAL_SOURCE,
  ].join('; '),
  evidence: { level: 'platform', addresses: API_PIX_DOCUMENTATION },
  refund: { kind: 'post', path: SELLS_REFUND_PATH },
  // No public material shows /sells/{id}/refund; the API Pix VOLUTI's cob runs on refunds by devolução.
  apiVersions: ['specification', 'public'],
  publicRefund: { kind: 'devolucao' },
  payout: { lookupPath: DICT_PAYMENT_LOOKUP_PATH },
};

export default member(BacenPixAdapter, VOLUTI);
