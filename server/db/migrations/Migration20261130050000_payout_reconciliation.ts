import { Migration } from '@mikro-orm/migrations';

/**
 * Payouts are reconciled like charges: a PENDING payout with no news for a while is asked about at its provider, so a
 * lost notification no longer leaves it PENDING for ever. `last_polled_at` spaces the questions; the partial index
 * keeps the search for due payouts to the PENDING ones.
 */
export class Migration20261130050000_payout_reconciliation extends Migration {
  override name = 'Migration20261130050000_payout_reconciliation';

  override up(): void | Promise<void> {
    this.addSql(`alter table "withdrawals" add column "last_polled_at" timestamptz null;`);
    this.addSql(`create index "withdrawals_pending_updated_at_index" on "withdrawals" ("updated_at") where "status" = 'PENDING';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "withdrawals_pending_updated_at_index";`);
    this.addSql(`alter table "withdrawals" drop column "last_polled_at";`);
  }
}
