import { Migration } from '@mikro-orm/migrations';

/** The API dialect a provider account speaks, where its provider has more than one (the specification's and its public one). */
export class Migration20261128120000_account_api_version extends Migration {
  override name = 'Migration20261128120000_account_api_version';

  override up(): void | Promise<void> {
    this.addSql(`alter table "provider_accounts" add column "api_version" varchar(32) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "provider_accounts" drop column if exists "api_version";`);
  }
}
