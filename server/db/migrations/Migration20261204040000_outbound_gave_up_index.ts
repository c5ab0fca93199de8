import { Migration } from '@mikro-orm/migrations';

/**
 * The operations console's list of deliveries that gave up (ListOutboundDeliveries with state GAVE_UP, and
 * ResendOutboundDeliveries by filter): newest first by (created_at, id), optionally to one merchant address. Two
 * partial indexes hold the GAVE_UP rows only, a small share of a table that every status change grows: one walks them
 * in the list's order, the other does so within one address. Plans before and after: bench/gaveUpDeliveries.ts.
 */
export class Migration20261204040000_outbound_gave_up_index extends Migration {
  override name = 'Migration20261204040000_outbound_gave_up_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "outbound_deliveries_gave_up_index" on "outbound_deliveries" ("created_at", "id") where state = 'GAVE_UP';`);
    this.addSql(`create index "outbound_deliveries_gave_up_url_index" on "outbound_deliveries" ("url", "created_at", "id") where state = 'GAVE_UP';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "outbound_deliveries_gave_up_url_index";`);
    this.addSql(`drop index "outbound_deliveries_gave_up_index";`);
  }
}
