import { Migration } from '@mikro-orm/migrations';
import { CREATE_FIRST_SEARCH_INDEX, FIRST_SEARCH_INDEX } from './Migration20261129020000_charge_details.js';

/**
 * The search's second index, as this migration makes it: written out here, not taken from transactionSearch.ts, so
 * that a later change of the search's text needs a migration of its own instead of changing what this one did
 * (tests/integration/migrations.test.ts checks that the two still build the same index).
 */
const SECOND_SEARCH_INDEX = 'transactions_search_text_trgm_index';
const CREATE_SECOND_SEARCH_INDEX = `create index if not exists "${SECOND_SEARCH_INDEX}" on "transactions" using gin (lower(coalesce("customer_name", '') || ' ' || coalesce("customer_email", '') || ' ' || coalesce("customer_document", '') || ' ' || coalesce("order_id", '') || ' ' || "provider_transaction_id") gin_trgm_ops)`;

/**
 * The charges' search by part without the gateway's id among its trigrams (transactionSearch.ts): the id is found by
 * its beginning, on the primary key. `if not exists`: on a large table, build the new index beforehand with `create
 * index concurrently` (which cannot run inside the migration's transaction) under the same name, and this only drops
 * the old one; built here, it holds the table's writes while it builds.
 */
export class Migration20261205010000_search_without_id extends Migration {
  override name = 'Migration20261205010000_search_without_id';

  override up(): void | Promise<void> {
    this.addSql(`${CREATE_SECOND_SEARCH_INDEX};`);
    this.addSql(`drop index if exists "${FIRST_SEARCH_INDEX}";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`${CREATE_FIRST_SEARCH_INDEX.replace('create index', 'create index if not exists')};`);
    this.addSql(`drop index if exists "${SECOND_SEARCH_INDEX}";`);
  }
}
