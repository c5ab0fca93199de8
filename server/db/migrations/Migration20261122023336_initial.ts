import { Migration } from '@mikro-orm/migrations';

export class Migration20261122023336_initial extends Migration {
  override name = 'Migration20261122023336_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "provider_accounts" ("id" uuid not null, "provider" varchar(64) not null, "name" varchar(255) not null, "public_key" text not null, "secret_key_sealed" text not null, "base_url" text null, "platform_id" varchar(255) null, "cert_cash_in_url" text null, "cert_cash_out_url" text null, "webhook_secret_sealed" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "provider_accounts_provider_index" on "provider_accounts" ("provider");`);

    this.addSql(
      `create table "receivers" ("id" uuid not null, "provider_account_id" uuid not null, "provider" varchar(64) not null, "receiver_id" varchar(255) not null, "receiver_token" varchar(255) null, "name" varchar(255) not null, "document" varchar(14) not null, "document_type" varchar(4) not null, "email" varchar(255) not null, "status" varchar(16) not null, "balance" bigint not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "receivers" add constraint "receivers_provider_account_id_receiver_id_unique" unique ("provider_account_id", "receiver_id");`);

    this.addSql(
      `create table "status_events" ("id" bigserial primary key, "subject" varchar(16) not null, "subject_id" uuid not null, "provider_account_id" uuid not null, "status" varchar(16) not null, "source" varchar(8) not null, "occurred_at" timestamptz not null);`,
    );
    this.addSql(`create index "status_events_subject_subject_id_index" on "status_events" ("subject", "subject_id");`);

    this.addSql(
      `create table "transactions" ("id" uuid not null, "provider_account_id" uuid not null, "provider" varchar(64) not null, "provider_transaction_id" varchar(255) not null, "payment_method" varchar(16) not null, "status" varchar(16) not null, "amount" bigint not null, "currency" varchar(3) not null, "installments" int not null, "pix_code" text null, "pix_qr_code" text null, "billet_code" varchar(255) null, "billet_url" text null, "expires_at" timestamptz null, "order_id" varchar(255) null, "webhook_url" text null, "idempotency_key" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "transactions_provider_account_id_provider_transaction_id_index" on "transactions" ("provider_account_id", "provider_transaction_id");`,
    );
    this.addSql(
      `alter table "transactions" add constraint "transactions_provider_account_id_idempotency_key_unique" unique ("provider_account_id", "idempotency_key");`,
    );

    this.addSql(
      `create table "webhook_notifications" ("id" uuid not null, "provider" varchar(64) not null, "provider_account_id" uuid not null, "body" bytea not null, "headers" jsonb not null, "received_at" timestamptz not null, "outcome" varchar(16) not null, "outcome_reason" text null, "result_type" varchar(16) null, "result_subject_id" varchar(255) null, "result_status" varchar(16) null, "processed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_notifications_provider_account_id_received_at_index" on "webhook_notifications" ("provider_account_id", "received_at");`,
    );

    this.addSql(
      `create table "withdrawals" ("id" uuid not null, "provider_account_id" uuid not null, "provider" varchar(64) not null, "provider_withdraw_id" varchar(255) not null, "payment_method" varchar(16) not null, "status" varchar(16) not null, "amount" bigint not null, "approved_at" timestamptz null, "idempotency_key" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "withdrawals_provider_account_id_provider_withdraw_id_index" on "withdrawals" ("provider_account_id", "provider_withdraw_id");`);
    this.addSql(
      `alter table "withdrawals" add constraint "withdrawals_provider_account_id_idempotency_key_unique" unique ("provider_account_id", "idempotency_key");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "provider_accounts" cascade;`);
    this.addSql(`drop table if exists "receivers" cascade;`);
    this.addSql(`drop table if exists "status_events" cascade;`);
    this.addSql(`drop table if exists "transactions" cascade;`);
    this.addSql(`drop table if exists "webhook_notifications" cascade;`);
    this.addSql(`drop table if exists "withdrawals" cascade;`);
  }
}
