import { Migration } from '@mikro-orm/migrations';

/**
 * Settings an admin changes in the back-office, one row per setting (GatewaySettingsRepository): the first is the
 * four-eyes limit for payouts. A missing row means the environment's value (PAYOUT_APPROVAL_ABOVE_CENTS) still holds.
 */
export class Migration20261204050000_gateway_settings extends Migration {
  override name = 'Migration20261204050000_gateway_settings';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "gateway_settings" ("name" varchar(64) not null, "value_cents" bigint null, "updated_at" timestamptz not null, constraint "gateway_settings_pkey" primary key ("name"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "gateway_settings" cascade;`);
  }
}
