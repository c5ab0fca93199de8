import { Migration } from '@mikro-orm/migrations';

/** The gateway tracks what it refunded and what is being refunded, so that refunds can never exceed a charge. */
export class Migration20261122163000_refunded_amounts extends Migration {
  override name = 'Migration20261122163000_refunded_amounts';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "transactions" add column "refunded_amount" bigint not null default '0', add column "refund_pending_amount" bigint not null default '0';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "transactions" drop column "refunded_amount", drop column "refund_pending_amount";`);
  }
}
