import { Migration } from '@mikro-orm/migrations';

/**
 * The statement (GetAccountStatement) dates a chargeback by the day the charge moved to CHARGEBACK: a range over those
 * moves' times, which a partial index keeps as small as the chargebacks themselves.
 */
export class Migration20261202060000_chargeback_days extends Migration {
  override name = 'Migration20261202060000_chargeback_days';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "status_events_chargeback_days_index" on "status_events" ("occurred_at") where subject = 'TRANSACTION' and status = 'CHARGEBACK';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "status_events_chargeback_days_index";`);
  }
}
