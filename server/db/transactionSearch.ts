/**
 * The charges' text search by part: one lower-cased text of the searched columns (the customer's name, e-mail and
 * document digits, the order id and the provider's id), under a pg_trgm GIN index, so that "mari" finds "Maria" and
 * "maria@…" with one index scan whatever is typed. The gateway's own id is not in it: it is found by its beginning
 * (the 8 characters the back-office shows, or more), as a range of the primary key (idPrefixRange). Its 36 characters
 * were a third of each row's trigrams, and every new charge paid for them in its insert (docs/decisions.md, *The
 * gateway's id out of the search's trigrams*).
 * The expression is written once here: the index (entities.ts, migration 20261205010000) and the query must match
 * it character for character for PostgreSQL to use the index.
 */
export const SEARCH_TEXT = `lower(coalesce("customer_name", '') || ' ' || coalesce("customer_email", '') || ' ' || coalesce("customer_document", '') || ' ' || coalesce("order_id", '') || ' ' || "provider_transaction_id")`;

export const SEARCH_INDEX = 'transactions_search_text_trgm_index';

export const CREATE_SEARCH_INDEX = `create index "${SEARCH_INDEX}" on "transactions" using gin (${SEARCH_TEXT} gin_trgm_ops)`;

/** Trigrams need three characters: a shorter text is matched only as an exact value. */
export const MIN_PARTIAL_SEARCH = 3;

/** A LIKE pattern finding `text` anywhere, its own %, _ and \ taken literally. */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A UUID's text from its 32 hex digits, with the dashes where they go (8-4-4-4-12). */
const uuidOf = (hex: string): string => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * The ids that begin with `text`, as the first and last UUID of that range, or undefined when `text` cannot be the
 * beginning of a UUID as the gateway writes them (lower-case hex digits, dashes where they go; case is ignored).
 */
export function idPrefixRange(text: string): { from: string; to: string } | undefined {
  const typed = text.toLowerCase();
  const hex = typed.replace(/-/g, '');
  if (!/^[0-9a-f]{1,32}$/.test(hex)) return undefined;
  const from = uuidOf(hex.padEnd(32, '0'));
  return from.startsWith(typed) ? { from, to: uuidOf(hex.padEnd(32, 'f')) } : undefined;
}
