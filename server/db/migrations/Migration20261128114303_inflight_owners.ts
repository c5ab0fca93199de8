import { Migration } from '@mikro-orm/migrations';

/**
 * Calls in flight survive a crash: each gateway process has a row it keeps alive with a heartbeat, and each
 * idempotency key names the process that claimed it, so a key whose process is gone is found and confirmed
 * instead of staying IN_PROGRESS until it expires.
 */
export class Migration20261128114303_inflight_owners extends Migration {
  override name = 'Migration20261128114303_inflight_owners';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "gateway_processes" ("id" uuid not null, "host" varchar(255) not null, "pid" int not null, "started_at" timestamptz not null, "heartbeat_at" timestamptz not null, primary key ("id"));`,
    );

    this.addSql(`alter table "idempotency_keys" add "owner_id" uuid null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "gateway_processes" cascade;`);

    this.addSql(`alter table "idempotency_keys" drop column "owner_id";`);
  }
}
