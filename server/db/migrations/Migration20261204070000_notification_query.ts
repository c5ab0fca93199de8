import { Migration } from '@mikro-orm/migrations';

/**
 * A notification's URL query as received (credential-like parameters left out): Mercado Pago's IPN says what it is
 * about only there (`?topic=chargebacks&id=…`), so processing later must see it as intake did. A constant default is
 * metadata only in PostgreSQL, so the column costs nothing on a large table.
 */
export class Migration20261204070000_notification_query extends Migration {
  override name = 'Migration20261204070000_notification_query';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_notifications" add column "query" jsonb not null default '{}';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_notifications" drop column "query";`);
  }
}
