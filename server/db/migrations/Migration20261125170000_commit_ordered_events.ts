import { Migration } from '@mikro-orm/migrations';

/**
 * Without the global event-log lock (issue "fast and observable"):
 * - each status event carries the id of the database transaction that wrote it (`tx`, filled by PostgreSQL), so
 *   WatchEvents serves events in commit-safe order: only those whose transaction is older than every transaction
 *   still running (the snapshot's xmin), ordered by (tx, id);
 * - a provider's id names one charge (one payout) per account: the unique indexes replace the lock that made the
 *   "already recorded?" check and the insert atomic. A database holding duplicates stops the migration with a message
 *   naming them, rather than losing one.
 */
export class Migration20261125170000_commit_ordered_events extends Migration {
  override name = 'Migration20261125170000_commit_ordered_events';

  override up(): void | Promise<void> {
    this.addSql(`alter table "status_events" add "tx" xid8 not null default pg_current_xact_id();`);
    this.addSql(`create index "status_events_tx_id_index" on "status_events" ("tx", "id");`);
    this.addSql(`do $$
      begin
        if exists (select 1 from "transactions" group by "provider_account_id", "provider_transaction_id" having count(*) > 1) then
          raise exception 'transactions holds two charges with one provider id on one account; merge them before upgrading';
        end if;
        if exists (select 1 from "withdrawals" group by "provider_account_id", "provider_withdraw_id" having count(*) > 1) then
          raise exception 'withdrawals holds two payouts with one provider id on one account; merge them before upgrading';
        end if;
      end $$;`);
    this.addSql(`drop index "transactions_provider_account_id_provider_transaction_id_index";`);
    this.addSql(
      `alter table "transactions" add constraint "transactions_provider_account_id_provider_transaction_id_unique" unique ("provider_account_id", "provider_transaction_id");`,
    );
    this.addSql(`drop index "withdrawals_provider_account_id_provider_withdraw_id_index";`);
    this.addSql(
      `alter table "withdrawals" add constraint "withdrawals_provider_account_id_provider_withdraw_id_unique" unique ("provider_account_id", "provider_withdraw_id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "withdrawals" drop constraint "withdrawals_provider_account_id_provider_withdraw_id_unique";`);
    this.addSql(`create index "withdrawals_provider_account_id_provider_withdraw_id_index" on "withdrawals" ("provider_account_id", "provider_withdraw_id");`);
    this.addSql(`alter table "transactions" drop constraint "transactions_provider_account_id_provider_transaction_id_unique";`);
    this.addSql(
      `create index "transactions_provider_account_id_provider_transaction_id_index" on "transactions" ("provider_account_id", "provider_transaction_id");`,
    );
    this.addSql(`drop index "status_events_tx_id_index";`);
    this.addSql(`alter table "status_events" drop column "tx";`);
  }
}
