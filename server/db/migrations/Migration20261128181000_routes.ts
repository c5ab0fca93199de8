import { Migration } from '@mikro-orm/migrations';

/** Routes (RoutingService), and on each charge that named one what the route decided and tried. */
export class Migration20261128181000_routes extends Migration {
  override name = 'Migration20261128181000_routes';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "routes" ("id" uuid not null, "name" varchar(255) not null, "rules" jsonb not null, "max_attempts" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "routes_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "routes" add constraint "routes_name_unique" unique ("name");`);
    this.addSql(`alter table "transactions" add column "routing" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "transactions" drop column "routing";`);
    this.addSql(`drop table if exists "routes" cascade;`);
  }
}
