import { Migration } from '@mikro-orm/migrations';

/**
 * The dashboard and the statement (moneyMovements.ts) date what a charge refunded at the provider still held by the
 * day the charge moved to REFUNDED: a range over those moves' times, which a partial index keeps as small as the
 * refunded charges themselves (as 20261202060000 does for chargebacks).
 */
export class Migration20261204030000_refunded_days extends Migration {
  override name = 'Migration20261204030000_refunded_days';

  override up(): void | Promise<void> {
    this.addSql(`create index "status_events_refunded_days_index" on "status_events" ("occurred_at") where subject = 'TRANSACTION' and status = 'REFUNDED';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "status_events_refunded_days_index";`);
  }
}
