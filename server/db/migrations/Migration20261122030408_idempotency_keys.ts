import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030408_idempotency_keys extends Migration {
  override name = 'Migration20261122030408_idempotency_keys';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "idempotency_keys" ("id" uuid not null, "provider_account_id" uuid not null, "operation" varchar(32) not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "state" varchar(16) not null, "subject_id" uuid null, "response" jsonb null, "failure" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_provider_account_id_operation_key_unique" unique ("provider_account_id", "operation", "key");`,
    );

    this.addSql(`alter table "transactions" drop constraint "transactions_provider_account_id_idempotency_key_unique";`);

    this.addSql(`alter table "withdrawals" drop constraint "withdrawals_provider_account_id_idempotency_key_unique";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);

    this.addSql(
      `alter table "transactions" add constraint "transactions_provider_account_id_idempotency_key_unique" unique ("provider_account_id", "idempotency_key");`,
    );

    this.addSql(
      `alter table "withdrawals" add constraint "withdrawals_provider_account_id_idempotency_key_unique" unique ("provider_account_id", "idempotency_key");`,
    );
  }
}
