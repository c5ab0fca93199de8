import { Migration } from '@mikro-orm/migrations';

/** A receiver may hold a credential its provider issued for it (an Iugu sub-account's API token), sealed like the accounts' secrets. */
export class Migration20261125120000_receiver_secrets extends Migration {
  override name = 'Migration20261125120000_receiver_secrets';

  override up(): void | Promise<void> {
    this.addSql(`alter table "receivers" add column "secret_sealed" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "receivers" drop column "secret_sealed";`);
  }
}
