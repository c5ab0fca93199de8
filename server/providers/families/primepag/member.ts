import type { OAuth2Auth } from '../../../lib/http/index.js';
import type { PixKeyStyle } from '../../../lib/pixKey.js';
import type { PathTemplate, ProviderDeclaration } from '../../kit/declaration.js';

/**
 * What a member of the PrimePag platform declares ("G-B" in the provider
 * research: PRIMEPAG and ZENDRY speak the same API): the kit's declaration
 * (identity, capabilities, auth, money, expiry, statuses, failures) and the
 * little this dialect lets vary. Extension points:
 *
 * | variation                                               | declared as                                                      |
 * |---------------------------------------------------------|------------------------------------------------------------------|
 * | the host (api.zendry.com.br, api.primepag.com.br)       | `identity.defaultBaseUrl`                                        |
 * | ZENDRY's "canceled is PENDING; error is CHARGEBACK"      | `statuses.transaction.overrides` (doc 2 §4)                      |
 * | payouts to a PIX key (POST /v1/pix/payments)            | `capabilities.withdrawMethods: ['PIX']`                          |
 * | notifications (pix_qrcode, pix_payment)                 | `capabilities.webhooks`                                          |
 * | PIX validity (`expiration_time`, seconds)               | `expiry.pixSeconds`                                              |
 * | another path for a call                                 | `paths` (only what differs from PRIMEPAG_PATHS)                  |
 * | how a PHONE key is written                              | `pixKeyStyle` (default '+55', as the platform's integrations send it) |
 *
 * What the platform does not offer cannot be declared: the adapter refuses a
 * member declaring refunds, payout lookups, card or boleto charges (the spec
 * gives no path for them, doc 2 §7), or amounts in reais (`value_cents`).
 */
export interface PrimePagMember extends ProviderDeclaration {
  /** Only what differs from PRIMEPAG_PATHS. */
  paths?: Partial<PrimePagPaths>;
  pixKeyStyle?: PixKeyStyle;
}

/** `{id}` is the QR code's reference_code. */
export interface PrimePagPaths {
  qrCodes: PathTemplate;
  qrCode: PathTemplate;
  payments: PathTemplate;
}

/** The platform's paths (spec doc 2 §7 for ZENDRY: POST /v1/pix/qrcodes, GET /v1/pix/qrcodes/{id}, POST /v1/pix/payments). */
export const PRIMEPAG_PATHS: PrimePagPaths = {
  qrCodes: '/v1/pix/qrcodes',
  qrCode: '/v1/pix/qrcodes/{id}',
  payments: '/v1/pix/payments',
};

/** The account's keys: publicKey the client_id, secretKey the client_secret (both required). */
export const PRIMEPAG_CREDENTIALS = { publicKey: ['clientId'], secretKey: ['clientSecret'] } as const;

/**
 * The token exchange (spec doc 2 §7: POST /auth/generate_token; research G-B):
 * `Authorization: Basic base64(client_id:client_secret)` and the JSON body
 * `{"grant_type":"client_credentials"}`, answered `{access_token, expires_in}`;
 * then `Authorization: Bearer` on every call. The kit's OAuth2 style caches the
 * token per account and asks again once on a 401.
 */
export const PRIMEPAG_AUTH: OAuth2Auth = { type: 'oauth2', tokenPath: '/auth/generate_token', body: 'json', clientAuth: 'basic' };

/** PHONE keys with '+55' (the platform's integrations send them so). */
export const PRIMEPAG_PIX_KEY_STYLE: PixKeyStyle = { phonePrefix: '+55' };
