import type { PixKeyStyle, PixKeyType } from '../../../lib/pixKey.js';
import type { CashtimePixKeyType } from './wire.js';
import type { PathTemplate, ProviderDeclaration } from '../../kit/declaration.js';

/**
 * What a member of the Cashtime platform family declares (CASHTIME and
 * REFLOWPAY v1, one API: "G-A" in the provider research, groups 1–2): the
 * kit's one declaration shape, and this dialect's paths where a member's
 * differ. Amounts are cents on this platform (the research's `unitPrice` and
 * withdraw `amount`); the adapter refuses a member declaring reais.
 * Extension points, for the variations the spec and the research show:
 *
 * | variation                                                    | declared as                                                    |
 * |--------------------------------------------------------------|----------------------------------------------------------------|
 * | REFLOWPAY's GET /request/withdraw/{id} (doc 2 §7)            | `capabilities.withdrawalLookup: true`                          |
 * | CASHTIME's infraction CHARGEBACK, REFLOWPAY's APPROVED (§4)  | `statuses.transaction: { overrides: { infraction: … } }`       |
 * | the x-authorization-key header (research G-A)                | `auth: { type: 'apiKey', header: 'x-authorization-key' }`      |
 * | the host (api.cashtime.com.br/v1, api.reflowpay.com/v1)      | `identity.defaultBaseUrl` (an account's base_url wins)         |
 * | another path for one exchange                                | `paths: { get: '/…/{id}' }`                                    |
 * | payment methods beyond PIX                                   | `capabilities.paymentMethods` (the card object is not shown; see docs/decisions.md) |
 *
 * The statuses of the family's tables (statuses.ts) hold for every member;
 * infraction is left to each member, because the spec gives the two members
 * opposite readings of it.
 */
export interface CashtimeMember extends ProviderDeclaration {
  /** Only what differs from CASHTIME_PATHS. */
  paths?: Partial<CashtimePaths>;
}

/** `{id}` is the provider's order or withdrawal id. */
export interface CashtimePaths {
  create: PathTemplate;
  get: PathTemplate;
  withdraw: PathTemplate;
  getWithdraw: PathTemplate;
}

/** Spec doc 2 §7: POST /transactions; GET /details/orders/{id}; POST /request/withdraw; GET /request/withdraw/{id} (REFLOWPAY). */
export const CASHTIME_PATHS: CashtimePaths = {
  create: '/transactions',
  get: '/details/orders/{id}',
  withdraw: '/request/withdraw',
  getWithdraw: '/request/withdraw/{id}',
};

/**
 * PIX keys as the platform takes them (research G-A: pixKeyType
 * CPF|CNPJ|EMAIL|PHONE|EVP; Cashtime's public integrations send a phone key
 * as +55 and digits): the spec's "PHONE keys get a +55 prefix at some providers".
 */
export const CASHTIME_PIX_KEYS: PixKeyStyle = { phonePrefix: '+55' };

/** Our PIX key types by the platform's names (RANDOM is EVP). */
export const CASHTIME_PIX_KEY_TYPES = { CPF: 'CPF', CNPJ: 'CNPJ', EMAIL: 'EMAIL', PHONE: 'PHONE', RANDOM: 'EVP' } as const satisfies Record<
  PixKeyType,
  CashtimePixKeyType
>;
