import { Migration } from '@mikro-orm/migrations';

/** Provider answers that would have moved money for another amount or id than the gateway's record: kept, never applied. */
export class Migration20261125130000_flow_mismatches extends Migration {
  override name = 'Migration20261125130000_flow_mismatches';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "flow_mismatches" ("id" uuid not null, "provider_account_id" uuid not null, "provider" varchar(64) not null, "subject_kind" varchar(16) not null, "subject_id" uuid not null, "source" varchar(16) not null, "claimed_status" varchar(16) not null, "expected_amount" bigint not null, "reported_amount" bigint not null, "expected_provider_id" varchar(255) not null, "reported_provider_id" varchar(255) not null, "reason" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "flow_mismatches_provider_account_id_created_at_index" on "flow_mismatches" ("provider_account_id", "created_at");`);
    this.addSql(`create index "flow_mismatches_subject_id_index" on "flow_mismatches" ("subject_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "flow_mismatches" cascade;`);
  }
}
