import { Migration } from '@mikro-orm/migrations';
import { CREATE_SEARCH_INDEX, SEARCH_INDEX } from '../transactionSearch.js';
import { CREATE_FIRST_SEARCH_INDEX, FIRST_SEARCH_INDEX } from './Migration20261129020000_charge_details.js';

/**
 * The charges' search by part without the gateway's id among its trigrams (transactionSearch.ts): the id is found by
 * its beginning, on the primary key. `if not exists`: on a large table, build the new index beforehand with `create
 * index concurrently` (which cannot run inside the migration's transaction) under the same name, and this only drops
 * the old one; built here, it holds the table's writes while it builds.
 */
export class Migration20261205010000_search_without_id extends Migration {
  override name = 'Migration20261205010000_search_without_id';

  override up(): void | Promise<void> {
    this.addSql(`${CREATE_SEARCH_INDEX.replace('create index', 'create index if not exists')};`);
    this.addSql(`drop index if exists "${FIRST_SEARCH_INDEX}";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`${CREATE_FIRST_SEARCH_INDEX.replace('create index', 'create index if not exists')};`);
    this.addSql(`drop index if exists "${SEARCH_INDEX}";`);
  }
}
