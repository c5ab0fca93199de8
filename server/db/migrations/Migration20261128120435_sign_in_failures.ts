import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-in failures move from the operators to a table of their own, keyed by the SHA-256 of the lower-cased e-mail,
 * so that an e-mail no operator has is counted and locked out like one that does (the lock-out told them apart).
 * An operator's running count and lock come along.
 */
export class Migration20261128120435_sign_in_failures extends Migration {
  override name = 'Migration20261128120435_sign_in_failures';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "sign_in_failures" ("email_hash" varchar(64) not null, "failed_sign_ins" int not null, "locked_until" timestamptz null, "last_failed_at" timestamptz not null, primary key ("email_hash"));`,
    );
    this.addSql(`create index "sign_in_failures_last_failed_at_index" on "sign_in_failures" ("last_failed_at");`);
    this.addSql(
      `insert into "sign_in_failures" ("email_hash", "failed_sign_ins", "locked_until", "last_failed_at")
       select encode(sha256(convert_to("email", 'UTF8')), 'hex'), "failed_sign_ins", "locked_until", now() from "operators" where "failed_sign_ins" > 0;`,
    );
    this.addSql(`alter table "operators" drop column "failed_sign_ins", drop column "locked_until";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "operators" add "failed_sign_ins" int4 not null default 0, add "locked_until" timestamptz(6) null;`);
    this.addSql(
      `update "operators" o set "failed_sign_ins" = f."failed_sign_ins", "locked_until" = f."locked_until"
       from "sign_in_failures" f where f."email_hash" = encode(sha256(convert_to(o."email", 'UTF8')), 'hex');`,
    );
    this.addSql(`drop table if exists "sign_in_failures" cascade;`);
  }
}
