import type { OAuth2Auth } from '../../../lib/http/index.js';
import type { PixKeyStyle } from '../../../lib/pixKey.js';
import { credentialPart } from '../../kit/credentials.js';
import type { PathTemplate, ProviderDeclaration } from '../../kit/declaration.js';

/**
 * What a member of the BACEN API Pix family declares: the kit's declaration
 * (identity, capabilities, auth, credentials, money, expiry, statuses,
 * failures) and how this dialect varies between PSPs. Extension points, for
 * the variations the spec lists:
 *
 * | variation (spec doc 2 §4–§8, doc 3 §4–§8)                  | declared as                                                   |
 * |-------------------------------------------------------------|---------------------------------------------------------------|
 * | token request JSON with the secret in the body (VOLUTI)     | `auth: bacenPixAuth({ body: 'json', clientAuth: 'body' })`    |
 * | VOLUTI, Podpay, Onz refund POST /sells/{id}/refund          | `refund: { kind: 'post', path: '/sells/{id}/refund' }` + `capabilities.refunds` |
 * | the API Pix devolução (PUT /pix/{e2eid}/devolucao/{id})     | `refund: { kind: 'devolucao' }` + `capabilities.refunds`       |
 * | the public material's refund beside the spec's (api_version)| `publicRefund` + `apiVersions: ['specification', 'public']`   |
 * | payouts by /pix/payments/dict, read back by GET             | `payout: { lookupPath }` + `capabilities.withdrawMethods/withdrawalLookup` |
 * | Onz's separate cash-out host                                | `payout: { baseUrl: 'https://…' }`                            |
 * | Podpay, Onz payouts reported APPROVED at once               | `payout: { statusAtCreation: 'approved' }`                    |
 * | 'Unauthorized.' without the platform record (Podpay, Onz)   | `payout: { requirePlatform: true }`                           |
 * | a cash-out host without client certificates                | `payout: { mtls: false }`                                      |
 * | payouts known and read back by their idempotency key (Pagstar) | `payout: { knownBy: 'idempotencyKey', lookupPath }`         |
 * | PIX expiry                                                  | `expiry: { pixSeconds }`                                      |
 * | TREEAL's {data:{txId, status}} with no event type           | `untypedEvent: 'RECEIVE'`                                     |
 *
 * Cash-in always presents the platform's cash-in certificate and cash-out its
 * cash-out certificate ('Unauthorized.' when the platform has none, doc 2 §8).
 */
export interface BacenPixMember extends ProviderDeclaration {
  /** Default: PHONE keys with '+55' (every member the spec names). */
  pixKeyStyle?: PixKeyStyle;
  /** How refunds are made, when `capabilities.refunds` (the specification's way). */
  refund?: BacenPixRefund;
  /**
   * Where the member's public material (or the API Pix it runs on) refunds
   * otherwise than the specification says: the refund of an account whose
   * api_version is 'public' (`apiVersions: ['specification', 'public']`).
   */
  publicRefund?: BacenPixRefund;
  /** How payouts are made, when `capabilities.withdrawMethods` lists PIX. */
  payout?: BacenPixPayout;
  /** The event a {data} notification without `type` is (default: none, such a body is ignored). */
  untypedEvent?: 'RECEIVE';
}

export type BacenPixRefund =
  /** POST <path> {amount: reais}; `{id}` is the txid. */
  | { kind: 'post'; path: PathTemplate }
  /** The API Pix devolução: GET /cob/{txid} for the Pix's endToEndId, then PUT /pix/{e2eid}/devolucao/{id} {valor}. */
  | { kind: 'devolucao' };

export interface BacenPixPayout {
  /** A host other than the account's for cash-out. */
  baseUrl?: string;
  /** Default '/pix/payments/dict'. */
  path?: PathTemplate;
  /** Default 'x-idempotency-key'. */
  idempotencyHeader?: string;
  /** 'response' (default): PENDING unless the answer says more; 'approved': reported APPROVED at once. */
  statusAtCreation?: 'response' | 'approved';
  /** GET for getWithdraw (`{id}` is the payout id), when `capabilities.withdrawalLookup`. */
  lookupPath?: PathTemplate;
  /** Cash-out presents the platform's cash-out certificate (default); false where the PSP's cash-out host does not ask for one. */
  mtls?: boolean;
  /** 'Unauthorized.' without the platform record. */
  requirePlatform?: boolean;
  /**
   * What the payout is known by: its endToEndId, else the PSP's id (default), or
   * the idempotency key sent (Pagstar's Accounts API reads a payout back by it,
   * GET /pix/payments/idempotencyKey/{key}, and answers its POST 202 without a
   * body it documents); then the TRANSFER notification names it by `data.idempotencyKey`.
   */
  knownBy?: 'endToEndId' | 'idempotencyKey';
}

/**
 * The family's credentials: publicKey 'clientId|chave' (the OAuth client id and
 * the receiving PIX key every cob needs; without '|' the cob carries no chave,
 * for PSPs that fill in the account's key), secretKey 'clientSecret' or
 * 'clientSecret|certificatePassphrase' for an encrypted key or PKCS#12 bundle.
 */
export const BACEN_PIX_CREDENTIALS = {
  publicKey: ['clientId', 'chave?'],
  secretKey: ['clientSecret', 'certificatePassphrase?'],
} as const;

/**
 * OAuth2 client credentials with the family's credentials. By default the token
 * request is form-encoded with HTTP Basic client authentication (RFC 6749
 * §2.3.1, which every standard PSP must accept) at POST /oauth/token.
 */
export function bacenPixAuth(options: { path?: string; body?: 'form' | 'json'; clientAuth?: 'body' | 'basic'; scope?: string } = {}): OAuth2Auth {
  return {
    type: 'oauth2',
    tokenPath: options.path ?? '/oauth/token',
    body: options.body ?? 'form',
    clientAuth: options.clientAuth ?? 'basic',
    scope: options.scope,
    clientId: credentialPart(BACEN_PIX_CREDENTIALS, 'clientId'),
    clientSecret: credentialPart(BACEN_PIX_CREDENTIALS, 'clientSecret'),
  };
}

export const DICT_PAYMENT_PATH = '/pix/payments/dict';
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
/** The spec's /sells refund dialect (VOLUTI, Podpay, Onz). */
export const SELLS_REFUND_PATH = '/sells/{id}/refund';
export const DICT_PAYMENT_LOOKUP_PATH = '/pix/payments/{id}';

/**
 * Where the family's platform is documented: the Banco Central's API Pix
 * (cob, devolução, errors) and Avista's "PIX Bacen", a PSP's public
 * documentation of the same API with the {type, data} notifications and the
 * /pix/payments/dict-style payout these PSPs share. The stand-in of the family's
 * members (tests/standins/bacenpix.ts) was written from them, and passes.
 */
/** Where the family's reading of a charge's PIX payment (end-to-end id and payer) comes from, for the members' `sources`. */
export const PIX_PAYMENT_SOURCE =
  "the payment's endToEndId in GET /cob's `pix` and the API Pix webhook: the Banco Central's API Pix (its Pix names no payer); RECEIVE's endToEndId and `debtorAccount` {ispb, name (\"Nome do banco do pagador\"), document (masked)} as the payer's bank and document: Avista's \"PIX Bacen\" RECEIVE page";

/** Where the family's reading of a failed payout's reason comes from, for the members' `sources`. */
export const PAYOUT_REFUSAL_SOURCE =
  "a failed payout's `errorCode` (an SPI code such as AB03) as its refusal reason, from the TRANSFER notification and the payout read: Pagstar's transfer webhook and transfer details pages (docs.pagstar.com, Onz's Accounts API), Avista's \"PIX Bacen\" TRANSFER page (`errorCode`, null on success)";

export const API_PIX_DOCUMENTATION = [
  'https://github.com/bacen/pix-api/blob/0d74e5e1a2eefc0eb3f373860d1266ceab5f864e/openapi.yaml',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/endpoints/cob.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/endpoints/devolucao.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/endpoints/dict-pix.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/overview.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/receive.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/refund.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/transfer.mdx',
] as const;
