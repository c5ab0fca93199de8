import { Migration } from '@mikro-orm/migrations';

/** Service tokens (hashes only) and the audit trail, which the database itself keeps append-only (UPDATE, DELETE and TRUNCATE raise). */
export class Migration20261125140000_access extends Migration {
  override name = 'Migration20261125140000_access';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "audit_events" ("id" uuid not null, "at" timestamptz not null, "actor_kind" varchar(16) not null, "actor_id" varchar(255) not null, "actor_name" varchar(255) not null, "action" varchar(255) not null, "resource" varchar(255) not null, "source" varchar(255) not null, "outcome" varchar(32) not null, "detail" text not null, primary key ("id"));`,
    );
    this.addSql(`create index "audit_events_at_index" on "audit_events" ("at");`);
    this.addSql(`create index "audit_events_actor_id_at_index" on "audit_events" ("actor_id", "at");`);
    this.addSql(`create index "audit_events_resource_at_index" on "audit_events" ("resource", "at");`);

    this.addSql(
      `create table "service_tokens" ("id" uuid not null, "name" varchar(100) not null, "token_hash" varchar(64) not null, "scopes" jsonb not null, "provider_account_ids" jsonb not null, "created_at" timestamptz not null, "created_by" varchar(255) not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "service_tokens" add constraint "service_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "service_tokens_created_at_index" on "service_tokens" ("created_at");`);

    this.addSql(
      `create or replace function "audit_events_audit_events_append_only_fn"() returns trigger as $$ begin raise exception 'audit_events is append-only'; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "audit_events_append_only" BEFORE UPDATE OR DELETE on "audit_events" for each STATEMENT execute function "audit_events_audit_events_append_only_fn"();`,
    );
    // Declared here only: information_schema, which MikroORM's schema diff reads, does not show TRUNCATE triggers.
    this.addSql(
      `create trigger "audit_events_no_truncate" before truncate on "audit_events" for each statement execute function "audit_events_audit_events_append_only_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "audit_events_no_truncate" on "audit_events";`);
    this.addSql(`drop trigger if exists "audit_events_append_only" on "audit_events";`);
    this.addSql(`drop function if exists "audit_events_audit_events_append_only_fn"();`);
    this.addSql(`drop table if exists "audit_events" cascade;`);
    this.addSql(`drop table if exists "service_tokens" cascade;`);
  }
}
