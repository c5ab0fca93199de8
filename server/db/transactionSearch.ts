/**
 * The charges' text search by part: one lower-cased text of every searched column (the customer's name, e-mail and
 * document digits, the order id, the provider's id and the gateway's own), under a pg_trgm GIN index, so that
 * "mari" finds "Maria" and "maria@…" and an id's first characters find it, with one index scan whatever is typed.
 * The expression is written once here: the index (entities.ts, migration 20261129020000) and the query must match
 * it character for character for PostgreSQL to use the index.
 */
export const SEARCH_TEXT = `lower(coalesce("customer_name", '') || ' ' || coalesce("customer_email", '') || ' ' || coalesce("customer_document", '') || ' ' || coalesce("order_id", '') || ' ' || "provider_transaction_id" || ' ' || "id"::text)`;

export const SEARCH_INDEX = 'transactions_search_trgm_index';

export const CREATE_SEARCH_INDEX = `create index "${SEARCH_INDEX}" on "transactions" using gin (${SEARCH_TEXT} gin_trgm_ops)`;

/** Trigrams need three characters: a shorter text is matched only as an exact value. */
export const MIN_PARTIAL_SEARCH = 3;

/** A LIKE pattern finding `text` anywhere, its own %, _ and \ taken literally. */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
