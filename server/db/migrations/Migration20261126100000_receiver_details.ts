import { Migration } from '@mikro-orm/migrations';

/** What CreateReceiver was given (bank account, address, verification-document URLs…), kept for the back-office's receiver page. */
export class Migration20261126100000_receiver_details extends Migration {
  override name = 'Migration20261126100000_receiver_details';

  override up(): void | Promise<void> {
    this.addSql(`alter table "receivers" add column "details" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "receivers" drop column "details";`);
  }
}
