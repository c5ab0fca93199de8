import { Migration } from '@mikro-orm/migrations';

/**
 * Cards the gateway saved for a provider account (CreateCardId at a provider that takes the gateway's card token):
 * the card sealed without its CVV under the account's own key, and when it was revoked.
 */
export class Migration20261129040000_saved_cards extends Migration {
  override name = 'Migration20261129040000_saved_cards';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "saved_cards" ("id" uuid not null, "provider_account_id" uuid not null, "card_sealed" text not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "saved_cards_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "saved_cards_provider_account_id_index" on "saved_cards" ("provider_account_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "saved_cards" cascade;`);
  }
}
