import { Migration } from '@mikro-orm/migrations';

/**
 * The gateway's card tokens a charge has used, by the token's SHA-256 (never the token, never card data), with the
 * idempotency key of the charge that used it: a token is single-use, except for a retry of the same charge.
 */
export class Migration20261128143100_card_token_uses extends Migration {
  override name = 'Migration20261128143100_card_token_uses';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "card_token_uses" ("token_hash" varchar(64) not null, "provider_account_id" uuid not null, "idempotency_key" varchar(255) null, "used_at" timestamptz not null, "expires_at" timestamptz not null, constraint "card_token_uses_pkey" primary key ("token_hash"));`,
    );
    this.addSql(`create index "card_token_uses_expires_at_index" on "card_token_uses" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "card_token_uses" cascade;`);
  }
}
