import { Migration } from '@mikro-orm/migrations';

/**
 * The back-office's lists and stats: the customer's document and e-mail on each charge (for the search), and the indexes
 * that keep every single filter fast. `if not exists`: on a large table, build them beforehand with `create index
 * concurrently` (which cannot run inside the migration's transaction) under the same names, and this skips them.
 */
export class Migration20261125160000_lists extends Migration {
  override name = 'Migration20261125160000_lists';

  override up(): void | Promise<void> {
    this.addSql(`create index if not exists "receivers_created_at_id_index" on "receivers" ("created_at", "id");`);
    this.addSql(`create index if not exists "receivers_provider_account_id_created_at_id_index" on "receivers" ("provider_account_id", "created_at", "id");`);
    this.addSql(`create index if not exists "receivers_receiver_id_index" on "receivers" ("receiver_id");`);
    this.addSql(`create index if not exists "receivers_document_index" on "receivers" ("document");`);
    this.addSql(`create index if not exists "receivers_lower_email_index" on "receivers" (lower("email"));`);

    this.addSql(`alter table "transactions" add "customer_document" varchar(255) null, add "customer_email" varchar(255) null;`);
    this.addSql(`create index if not exists "transactions_created_at_id_index" on "transactions" ("created_at", "id");`);
    this.addSql(
      `create index if not exists "transactions_provider_account_id_created_at_id_index" on "transactions" ("provider_account_id", "created_at", "id");`,
    );
    this.addSql(`create index if not exists "transactions_provider_created_at_id_index" on "transactions" ("provider", "created_at", "id");`);
    this.addSql(`create index if not exists "transactions_status_created_at_id_index" on "transactions" ("status", "created_at", "id");`);
    this.addSql(`create index if not exists "transactions_payment_method_created_at_id_index" on "transactions" ("payment_method", "created_at", "id");`);
    this.addSql(`create index if not exists "transactions_provider_transaction_id_index" on "transactions" ("provider_transaction_id");`);
    this.addSql(`create index if not exists "transactions_order_id_index" on "transactions" ("order_id");`);
    this.addSql(`create index if not exists "transactions_customer_document_index" on "transactions" ("customer_document");`);
    this.addSql(`create index if not exists "transactions_customer_email_index" on "transactions" ("customer_email");`);

    this.addSql(`create index if not exists "withdrawals_created_at_id_index" on "withdrawals" ("created_at", "id");`);
    this.addSql(
      `create index if not exists "withdrawals_provider_account_id_created_at_id_index" on "withdrawals" ("provider_account_id", "created_at", "id");`,
    );
    this.addSql(`create index if not exists "withdrawals_provider_withdraw_id_index" on "withdrawals" ("provider_withdraw_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "receivers_created_at_id_index";`);
    this.addSql(`drop index "receivers_provider_account_id_created_at_id_index";`);
    this.addSql(`drop index "receivers_receiver_id_index";`);
    this.addSql(`drop index "receivers_document_index";`);
    this.addSql(`drop index "receivers_lower_email_index";`);

    this.addSql(`drop index "transactions_created_at_id_index";`);
    this.addSql(`drop index "transactions_provider_account_id_created_at_id_index";`);
    this.addSql(`drop index "transactions_provider_created_at_id_index";`);
    this.addSql(`drop index "transactions_status_created_at_id_index";`);
    this.addSql(`drop index "transactions_payment_method_created_at_id_index";`);
    this.addSql(`drop index "transactions_provider_transaction_id_index";`);
    this.addSql(`drop index "transactions_order_id_index";`);
    this.addSql(`drop index "transactions_customer_document_index";`);
    this.addSql(`drop index "transactions_customer_email_index";`);
    this.addSql(`alter table "transactions" drop column "customer_document", drop column "customer_email";`);

    this.addSql(`drop index "withdrawals_created_at_id_index";`);
    this.addSql(`drop index "withdrawals_provider_account_id_created_at_id_index";`);
    this.addSql(`drop index "withdrawals_provider_withdraw_id_index";`);
  }
}
