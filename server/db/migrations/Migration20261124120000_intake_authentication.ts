import { Migration } from '@mikro-orm/migrations';

/** A notification remembers that its sender proved itself at intake with a credential header the gateway does not store. */
export class Migration20261124120000_intake_authentication extends Migration {
  override name = 'Migration20261124120000_intake_authentication';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_notifications" add column "authenticated_at_intake" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_notifications" drop column "authenticated_at_intake";`);
  }
}
