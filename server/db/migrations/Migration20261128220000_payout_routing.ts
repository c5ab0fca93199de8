import { Migration } from '@mikro-orm/migrations';

/** On each payout that named a route what the route decided and tried (as transactions.routing). */
export class Migration20261128220000_payout_routing extends Migration {
  override name = 'Migration20261128220000_payout_routing';

  override up(): void | Promise<void> {
    this.addSql(`alter table "withdrawals" add column "routing" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "withdrawals" drop column "routing";`);
  }
}
