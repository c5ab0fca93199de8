import { SPEC_GROUPS } from '../adapter.js';
import {
  API_PIX_DOCUMENTATION,
  BacenPixAdapter,
  PAYOUT_REFUSAL_SOURCE,
  PIX_PAYMENT_SOURCE,
  SELLS_REFUND_PATH,
  bacenPixAuth,
  type BacenPixMember,
} from '../families/bacenPix/index.js';
import { member } from '../kit/registration.js';

/**
 * ONZ (spec doc 3, group 3), a member of the BACEN API Pix family: the OAuth
 * token over the platform's client certificates, POST /cob {devedor, valor,
 * chave}, GET /cob/{txid}, POST /sells/{id}/refund (the API Pix's devolução
 * for accounts on api_version 'public'), and payouts POSTed to a
 * separate cash-out host at /pix/payments/dict {pixKey, payment} with an
 * idempotency header (doc 3 §7); RECEIVE/REFUND/CANCELED notifications and the
 * cob statuses (§4); a payout reported APPROVED at once (§4); 'Unauthorized.'
 * without the platform record or the cash-out certificate on withdraw, and
 * without the cash-in certificate on charges (§5); phone keys with '+55' (§5);
 * PIX valid 1 day (§9, the default).
 *
 * From the provider research (groups 3–4, F8; the Onz Infopago v2 write-up):
 * the cash-out host https://cashout.infopago.com.br/api/v2, the token request
 * form-encoded with client_id and client_secret in the body ({accessToken,
 * expiresAt} back), `x-idempotency-key`. The cash-in host is Onz's own
 * (secureapi.bancodigital.onz.software, the write-up's "legacy" host; the
 * spec's cob API was not seen in Onz's docs): accounts set their base_url.
 */
/** Onz's cash-out as its white label Pagstar documents it (software by Onz: secureapi.pagstar-prod.onz.software). */
export const ONZ_DOCUMENTATION = [
  'https://docs.pagstar.com/reference/account-api-configure-webhook',
  'https://docs.pagstar.com/reference/criar-transfer%C3%AAncia-com-dados-banc%C3%A1rios-copy',
] as const;

export const ONZ: BacenPixMember = {
  identity: { id: 'ONZ', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://secureapi.bancodigital.onz.software/api/v2' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: bacenPixAuth({ clientAuth: 'body' }),
  money: 'reais',
  sources: [
    "paths, statuses, events, payout APPROVED at creation, 'Unauthorized.' rules: spec (doc 3 §4/§5/§7); cob, devolução (api_version public), RFC 7807 errors: the Banco Central's API Pix (openapi.yaml 2.9.0); the TRANSFER notification {data{id, idempotencyKey, endToEndId, status LIQUIDATED|CANCELED, payment{amount}}, type} and POST /api/v2/pix/payments/dict answered 202: Onz's white label Pagstar (docs.pagstar.com); RECEIVE/REFUND notifications: Avista's \"PIX Bacen\" documentation of the same API; cash-out host `cashout.infopago.com.br/api/v2`, form token with client credentials in the body answered {accessToken, expiresAt}, `x-idempotency-key` as [a-zA-Z0-9]{1,50}, cash-in host `secureapi.bancodigital.onz.software`: the Onz Infopago v2 write-up (research F8), which also shows a refund PUT /pix/payments/refund/{e2eid}/{id} not adopted; /sells/{id}/refund: spec only. Verified by the stand-in written from them (tests/standins/bacenpix.ts)",
    PIX_PAYMENT_SOURCE,
    PAYOUT_REFUSAL_SOURCE,
  ].join('; '),
  evidence: { level: 'platform', addresses: [...API_PIX_DOCUMENTATION, ...ONZ_DOCUMENTATION] },
  refund: { kind: 'post', path: SELLS_REFUND_PATH },
  // Onz's public material does not show /sells/{id}/refund; a Pix its cob received is returned by the API Pix's devolução.
  apiVersions: ['specification', 'public'],
  publicRefund: { kind: 'devolucao' },
  payout: { baseUrl: 'https://cashout.infopago.com.br/api/v2', statusAtCreation: 'approved', requirePlatform: true },
};

export default member(BacenPixAdapter, ONZ);
