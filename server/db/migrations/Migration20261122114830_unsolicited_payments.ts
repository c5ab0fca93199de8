import { Migration } from '@mikro-orm/migrations';

export class Migration20261122114830_unsolicited_payments extends Migration {
  override name = 'Migration20261122114830_unsolicited_payments';

  override up(): void | Promise<void> {
    this.addSql(`alter table "transactions" add "origin" varchar(8) not null default 'api';`);

    this.addSql(`alter table "webhook_notifications" alter column "result_type" type varchar(32) using ("result_type"::varchar(32));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "transactions" drop column "origin";`);

    this.addSql(`alter table "webhook_notifications" alter column "result_type" type varchar(16) using ("result_type"::varchar(16));`);
  }
}
