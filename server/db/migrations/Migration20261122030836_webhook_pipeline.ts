import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030836_webhook_pipeline extends Migration {
  override name = 'Migration20261122030836_webhook_pipeline';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "outbound_deliveries" ("id" uuid not null, "event_id" bigint not null, "transaction_id" uuid not null, "url" text not null, "body" text not null, "state" varchar(16) not null, "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "locked_until" timestamptz null, "delivered_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "outbound_deliveries_state_next_attempt_at_index" on "outbound_deliveries" ("state", "next_attempt_at");`);
    this.addSql(`create index "outbound_deliveries_transaction_id_index" on "outbound_deliveries" ("transaction_id");`);

    this.addSql(
      `create table "outbound_delivery_attempts" ("id" bigserial primary key, "delivery_id" uuid not null, "number" int not null, "attempted_at" timestamptz not null, "response_status" int not null, "error" text null);`,
    );
    this.addSql(`create index "outbound_delivery_attempts_delivery_id_index" on "outbound_delivery_attempts" ("delivery_id");`);

    this.addSql(`alter table "transactions" add "last_polled_at" timestamptz null;`);

    this.addSql(
      `alter table "webhook_notifications" add "subject_id" uuid null, add "dedup_key" varchar(255) null, add "attempts" int not null default 0, add "locked_until" timestamptz null, add "next_attempt_at" timestamptz null;`,
    );
    this.addSql(`create index "webhook_notifications_outcome_next_attempt_at_index" on "webhook_notifications" ("outcome", "next_attempt_at");`);
    this.addSql(`create index "webhook_notifications_subject_id_index" on "webhook_notifications" ("subject_id");`);
    this.addSql(
      `alter table "webhook_notifications" add constraint "webhook_notifications_provider_account_id_dedup_key_unique" unique ("provider_account_id", "dedup_key");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "outbound_deliveries" cascade;`);
    this.addSql(`drop table if exists "outbound_delivery_attempts" cascade;`);

    this.addSql(`alter table "transactions" drop column "last_polled_at";`);

    this.addSql(`drop index "webhook_notifications_outcome_next_attempt_at_index";`);
    this.addSql(`drop index "webhook_notifications_subject_id_index";`);
    this.addSql(`alter table "webhook_notifications" drop constraint "webhook_notifications_provider_account_id_dedup_key_unique";`);
    this.addSql(
      `alter table "webhook_notifications" drop column "subject_id", drop column "dedup_key", drop column "attempts", drop column "locked_until", drop column "next_attempt_at";`,
    );
  }
}
