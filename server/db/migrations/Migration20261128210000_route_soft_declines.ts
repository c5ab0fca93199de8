import { Migration } from '@mikro-orm/migrations';

/** Each route's card decline reasons retried at its next target (null, as for routes saved before: the default list). */
export class Migration20261128210000_route_soft_declines extends Migration {
  override name = 'Migration20261128210000_route_soft_declines';

  override up(): void | Promise<void> {
    this.addSql(`alter table "routes" add column "soft_decline_codes" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "routes" drop column "soft_decline_codes";`);
  }
}
