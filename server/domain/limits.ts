/**
 * How long caller input may be, checked at the edge before any provider is
 * called: a value the database would refuse after the provider has already
 * charged is refused up front instead (INVALID_ARGUMENT naming the field).
 *
 * The numbers are the columns' sizes in server/db/entities.ts (a string column
 * without a length is varchar(255)); tests/unit/limits.test.ts holds the two
 * together.
 */
export const COLUMN_LIMITS = {
  /** transactions.currency */
  currency: 3,
  /** provider_accounts.provider, and every table's provider copy */
  provider: 64,
  /** varchar(255): order_id, idempotency_key, names, e-mails, platform_id, receiver ids, … */
  varchar: 255,
} as const;

/** Ids and other short strings the gateway passes on or looks up (a 1 MB id is nobody's id). */
export const MAX_ID_LENGTH = COLUMN_LIMITS.varchar;

/** A card id or card token: a provider's, or the gateway's own (gatewayCardToken.ts), which is at most about 550 characters. */
export const CARD_REFERENCE_LENGTH = 1024;

/** Free text that lands in a text column or only in a provider's request: keys, URLs, descriptions, notification headers. */
export const MAX_TEXT_LENGTH = 8192;

/** Fields (by their name in the contract) with a limit other than MAX_ID_LENGTH. */
export const FIELD_LIMITS: Readonly<Record<string, number>> = {
  currency: COLUMN_LIMITS.currency,
  provider: COLUMN_LIMITS.provider,
  public_key: MAX_TEXT_LENGTH,
  secret_key: MAX_TEXT_LENGTH,
  webhook_secret: MAX_TEXT_LENGTH,
  base_url: MAX_TEXT_LENGTH,
  cert_cash_in_url: MAX_TEXT_LENGTH,
  cert_cash_out_url: MAX_TEXT_LENGTH,
  webhook_url: MAX_TEXT_LENGTH,
  referrer_url: MAX_TEXT_LENGTH,
  checkout_url: MAX_TEXT_LENGTH,
  description: MAX_TEXT_LENGTH,
  headers: MAX_TEXT_LENGTH,
  address: MAX_TEXT_LENGTH,
  /**
   * A card reference is stored nowhere; the gateway's own card token carries the sealed card (a holder name of up to
   * 255 characters among its fields), so it is longer than an id.
   */
  card_id: CARD_REFERENCE_LENGTH,
  card_token: CARD_REFERENCE_LENGTH,
};

/** The largest WatchEvents cursor: status_events.id is a PostgreSQL bigint. */
export const MAX_EVENT_ID = 9223372036854775807n;
