import { Migration } from '@mikro-orm/migrations';

/**
 * A declined charge's decline in the provider's own words, beside decline_reason (its code where it has one): the
 * back-office shows both, and the category is still read from the code.
 */
export class Migration20261204010000_decline_message extends Migration {
  override name = 'Migration20261204010000_decline_message';

  override up(): void | Promise<void> {
    this.addSql(`alter table "transactions" add column "decline_message" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "transactions" drop column "decline_message";`);
  }
}
