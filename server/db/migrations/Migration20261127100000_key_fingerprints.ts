import { Migration } from '@mikro-orm/migrations';

/** Fingerprints of the keys every process of one database must share, so that a process with another key refuses to start. */
export class Migration20261127100000_key_fingerprints extends Migration {
  override name = 'Migration20261127100000_key_fingerprints';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "key_fingerprints" ("name" varchar(64) not null, "fingerprint" varchar(64) not null, "recorded_at" timestamptz not null, constraint "key_fingerprints_pkey" primary key ("name"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "key_fingerprints" cascade;`);
  }
}
