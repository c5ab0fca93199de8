import { Migration } from '@mikro-orm/migrations';

/** Publishable keys are service tokens with the web pages' origins they may be used from (null for the others). */
export class Migration20261128180000_publishable_keys extends Migration {
  override name = 'Migration20261128180000_publishable_keys';

  override up(): void | Promise<void> {
    this.addSql(`alter table "service_tokens" add column "allowed_origins" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "service_tokens" drop column if exists "allowed_origins";`);
  }
}
