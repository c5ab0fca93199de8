import { Migration } from '@mikro-orm/migrations';

/** Operators of the back-office (scrypt password hashes, lock-out counters) and their sessions (token hashes only). */
export class Migration20261125150000_operators extends Migration {
  override name = 'Migration20261125150000_operators';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "operators" ("id" uuid not null, "email" varchar(254) not null, "password_hash" varchar(255) not null, "role" varchar(16) not null, "disabled" boolean not null default false, "created_at" timestamptz not null, "last_sign_in_at" timestamptz null, "failed_sign_ins" int not null default 0, "locked_until" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "operators" add constraint "operators_email_unique" unique ("email");`);

    this.addSql(
      `create table "operator_sessions" ("id" uuid not null, "token_hash" varchar(64) not null, "operator_id" uuid not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "source" varchar(255) not null, primary key ("id"));`,
    );
    this.addSql(`alter table "operator_sessions" add constraint "operator_sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "operator_sessions_operator_id_index" on "operator_sessions" ("operator_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "operators" cascade;`);
    this.addSql(`drop table if exists "operator_sessions" cascade;`);
  }
}
