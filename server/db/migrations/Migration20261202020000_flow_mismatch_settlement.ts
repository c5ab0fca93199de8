import { Migration } from '@mikro-orm/migrations';

/** An operator's settlement of a flow mismatch: who, when, what they found and their note. */
export class Migration20261202020000_flow_mismatch_settlement extends Migration {
  override name = 'Migration20261202020000_flow_mismatch_settlement';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "flow_mismatches" add column "settled_at" timestamptz null, add column "settled_by_id" varchar(255) null, add column "settled_by_name" varchar(255) null, add column "settlement_outcome" varchar(32) null, add column "settlement_note" text null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "flow_mismatches" drop column if exists "settled_at", drop column if exists "settled_by_id", drop column if exists "settled_by_name", drop column if exists "settlement_outcome", drop column if exists "settlement_note";`,
    );
  }
}
