import { Migration } from '@mikro-orm/migrations';

/** The statement (GetAccountStatement) reads refunds by the day they were asked for: a range over their creation. */
export class Migration20261130020000_refund_days extends Migration {
  override name = 'Migration20261130020000_refund_days';

  override up(): void | Promise<void> {
    this.addSql(`create index "refunds_created_at_index" on "refunds" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "refunds_created_at_index";`);
  }
}
