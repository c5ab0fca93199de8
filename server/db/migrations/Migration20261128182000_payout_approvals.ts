import { Migration } from '@mikro-orm/migrations';

/**
 * Safe payouts: what a payout was asked to do (destination, description), who asked, who reviewed it and why it was
 * refused; a payout held for a second operator's approval has no provider id yet, so that column may be null.
 */
export class Migration20261128182000_payout_approvals extends Migration {
  override name = 'Migration20261128182000_payout_approvals';

  override up(): void | Promise<void> {
    this.addSql(`alter table "withdrawals" alter column "provider_withdraw_id" drop not null;`);
    // AWAITING_APPROVAL is 17 characters.
    this.addSql(`alter table "withdrawals" alter column "status" type varchar(24);`);
    this.addSql(`alter table "status_events" alter column "status" type varchar(24);`);
    this.addSql(
      `alter table "withdrawals" add column "request" jsonb null, add column "requested_by_id" varchar(255) null, add column "requested_by_name" varchar(255) null, add column "review" varchar(16) null, add column "reviewed_by_id" varchar(255) null, add column "reviewed_by_name" varchar(255) null, add column "reviewed_at" timestamptz null, add column "refusal_reason" text null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "withdrawals" where "provider_withdraw_id" is null;`);
    this.addSql(`delete from "status_events" where "status" = 'AWAITING_APPROVAL';`);
    this.addSql(`alter table "withdrawals" alter column "provider_withdraw_id" set not null;`);
    this.addSql(`alter table "withdrawals" alter column "status" type varchar(16);`);
    this.addSql(`alter table "status_events" alter column "status" type varchar(16);`);
    this.addSql(
      `alter table "withdrawals" drop column if exists "request", drop column if exists "requested_by_id", drop column if exists "requested_by_name", drop column if exists "review", drop column if exists "reviewed_by_id", drop column if exists "reviewed_by_name", drop column if exists "reviewed_at", drop column if exists "refusal_reason";`,
    );
  }
}
