import type { AuthStyle, BreakerOptions, KeyRef, RetryOptions } from '../../lib/http/index.js';
import type { Logger } from '../../lib/logger.js';
import type { PixKeyType } from '../../lib/pixKey.js';
import type { CatalogueKey, FailurePrefixKey } from '../../lib/providerMessages.js';
import type { WithdrawDescriptionStyle } from '../../lib/withdrawDescription.js';
import type { StatusDeclaration } from '../../lib/statusTable.js';
import type { Operation, ReceiverStatus, TransactionStatus, WithdrawStatus } from '../../domain/types.js';
import type { CapabilityDeclaration, ProviderIdentity } from '../adapter.js';
import type { CredentialLayout } from './credentials.js';

/**
 * The one declaration shape of every provider, family member or bespoke
 * adapter (DESIGN §3). A family adds the fields of its own dialect (paths,
 * event rules) to this; nothing here is said twice in another form.
 */
export interface ProviderDeclaration {
  /** Who it is: upper-case id, other registry keys, the spec part, the address used when an account sets none. */
  identity: Omit<ProviderIdentity, 'aliases'> & { aliases?: readonly string[] };
  /** What it offers, as data; everything left out is not offered and rejects with 'Method not implemented.'. */
  capabilities: CapabilityDeclaration;
  /** How every call authenticates (lib/http/auth.ts). A part of a packed key is `credentialPart(layout, 'name')`. */
  auth: AuthStyle;
  /**
   * Headers every call carries besides `auth`: from the account's keys (a KeyRef) or fixed
   * (`{ fixed: 'AtivoB2B/1.0' }`). Not for secrets: a secret is `auth`, which the logs redact.
   */
  headers?: Readonly<Record<string, KeyRef | { fixed: string }>>;
  /** How the account's two keys pack the provider's credentials; parsed once, checked before anything is sent. */
  credentials?: CredentialLayout;
  /** How the provider's JSON carries money: integer cents, or reais (a number with two decimals). */
  money: MoneyUnit;
  /** Validity sent to the provider, in seconds; defaults are the spec's (PIX 1 day, boleto 3 days). */
  expiry?: ExpiryDeclaration;
  /** Over the family's tables: `table` replaces, `overrides` add or change, `unknown` is the default. */
  statuses?: {
    transaction?: StatusDeclaration<TransactionStatus>;
    withdrawal?: StatusDeclaration<WithdrawStatus>;
    receiver?: StatusDeclaration<ReceiverStatus>;
  };
  /** The spec's fixed texts, as catalogue keys (lib/providerMessages.ts). */
  failures?: FailureTexts;
  /** How its payouts are filled in where the caller leaves something out. */
  payouts?: PayoutDefaults;
  /**
   * The spec's text for the provider not knowing what an operation names (its
   * NOT_FOUND failures), instead of '<prefix>: <provider message>':
   * 'Receiver not found.' (ABMEXSPLIT, PAGARME), 'Transação não encontrada' (LUMINA).
   */
  notFound?: Partial<Record<Operation, CatalogueKey>>;
  /**
   * The provider's own text for an operation it does not offer, where the
   * spec gives one (doc 3 §8: Payber's withdraw 'Withdraw method not
   * implemented'); every other such operation rejects with 'Method not implemented.'.
   */
  notOffered?: Partial<Record<Operation, CatalogueKey>>;
  /**
   * The spec's prefixes where a provider's differ from the common ones
   * ('<prefix>: <provider message>'): the fourth group's 'Erro no saque',
   * 'Erro no estorno', 'Erro na criação da transação PIX'; PaySharkGateway's
   * 'Erro ao processar reembolso'. Keys of FAILURE_PREFIXES.
   */
  failurePrefixes?: Partial<Record<Operation, FailurePrefixKey>>;
  /** Per call; default 25 s (lib/http). */
  timeoutMs?: number;
  /**
   * Where its request and response shapes come from, for the provider
   * catalogue (docs/providers.md, generated): the spec's sections, the public
   * API material with its source, or the family's dialect / the gateway's decision.
   */
  sources: string;
  /**
   * What the declaration's shapes rest on (the provider catalogue shows it):
   * `documented`, a stand-in written from the provider's own documentation or
   * SDK passes (tests/standins/<id>.test.ts); `platform`, the same from the
   * documentation of the white-label platform it runs on, with `addresses`
   * where that documentation is; `third-party`, no documentation of the
   * provider's own could be found or read, and third-party public material
   * (integration code, or the documentation of a platform it is only thought
   * to run on) shaped it, named in `sources`; `specification-only`, no public
   * material exists (bodies are readings of the specification, the host a
   * placeholder). Undeclared: unverified (the provider's documentation exists,
   * no stand-in from it runs yet).
   */
  evidence?: { level: 'documented' | 'platform'; addresses: readonly string[] } | { level: 'third-party' | 'specification-only' };
  /**
   * Where the specification and the provider's current public API disagree,
   * both dialects, as the names an account chooses with `api_version`: the
   * specification's first (the default), then the public one. Undeclared: one
   * dialect, and an account's api_version is refused.
   */
  apiVersions?: readonly [string, ...string[]];
}

export type MoneyUnit = 'cents' | 'reais';

export interface ExpiryDeclaration {
  pixSeconds?: number;
  boletoSeconds?: number;
  /**
   * How long a card charge's receivable runs, reported as the card
   * transaction's `expiresAt` (nothing is sent: doc 1 §9's "card receivable due
   * date: 1 year for one provider", PAGARME). Undeclared, a card charge has no `expiresAt`.
   */
  cardReceivableSeconds?: number;
}

/**
 * Fixed texts of the spec. `<operation>`: the text thrown when that operation
 * fails at the provider, instead of '<prefix>: <provider message>' (PAGUESAFE's
 * refund 'Internal server error', VENIT's 'Erro ao criar transação'); the
 * provider's message then goes to the log and the error keeps the code of the
 * HTTP outcome. `unsupportedPaymentMethod`: the text for a payment method the
 * provider does not offer (GATYWAY's 'Unsupported payment method'; FastSoft's
 * `{ notImplementedFor: 'FastSoft' }`; default 'Payment method not supported by <id>').
 */
/**
 * What a payout gets where its caller leaves something out. `description`: the
 * wording of the default description (doc 1 §9, doc 3 §9: "'Saque solicitado'
 * or 'Saque de R$ {amount}'"), 'withAmount' unless declared. `withoutPixKeyType`:
 * the specification's rule for a PIX payout without a key type (doc 3 §5),
 * 'inferredFromKey' (Veltrax: "contains @ EMAIL; 11 digits CPF; 14 digits CNPJ;
 * 10 to 11 digits PHONE; else RANDOM") or a fixed type (PaySharkGateway's evp is
 * RANDOM); undeclared, such a payout is refused.
 */
export interface PayoutDefaults {
  description?: WithdrawDescriptionStyle;
  withoutPixKeyType?: 'inferredFromKey' | PixKeyType;
}

export type FailureTexts = Partial<Record<Operation, CatalogueKey>> & {
  /** A card charge without a card reference: 'cardId is required for credit card transactions' by default (LYNXPAY: 'Card token is required for credit card payments.'). */
  missingCard?: CatalogueKey;
  /** A catalogue text, or FastSoft's and ByNet's 'Payment method X not implemented for <name>'. */
  unsupportedPaymentMethod?: CatalogueKey | { notImplementedFor: string };
  /** A withdraw method the provider does not offer: 'Método de saque não implementado' by default (Veltrax: 'Veltrax suporta apenas saques via PIX'). */
  unsupportedWithdrawMethod?: CatalogueKey;
};

/**
 * A path as one kind of template: '{name}' is replaced by the URL-encoded
 * value of that name ('/transactions/{id}/refund').
 */
export type PathTemplate = string;

export function fillPath(template: PathTemplate, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`path ${template} needs {${name}}`);
    return encodeURIComponent(value);
  });
}

/**
 * What changes between production and a test, passed the same way to every
 * adapter (its constructor's one argument besides the declaration).
 */
export interface AdapterRuntime {
  /** The clock for expiries and due dates. */
  now?: () => Date;
  logger?: Logger;
  /** Overrides the declaration's timeout (tests shorten it). */
  timeoutMs?: number;
  /** Extra CAs to trust (a test fake's self-signed certificate). */
  ca?: string | readonly string[];
  /** GET retries; false for none. */
  retry?: RetryOptions | false;
  breaker?: BreakerOptions;
}
