import { Migration } from '@mikro-orm/migrations';

/**
 * The search's first index, as this migration made it (the gateway's id among its trigrams); migration 20261205010000
 * replaced it. Written out here so that this migration stays what it was.
 */
export const FIRST_SEARCH_INDEX = 'transactions_search_trgm_index';
export const CREATE_FIRST_SEARCH_INDEX = `create index "${FIRST_SEARCH_INDEX}" on "transactions" using gin (lower(coalesce("customer_name", '') || ' ' || coalesce("customer_email", '') || ' ' || coalesce("customer_document", '') || ' ' || coalesce("order_id", '') || ' ' || "provider_transaction_id" || ' ' || "id"::text) gin_trgm_ops)`;

/**
 * A charge's customer name, description, items, card brand and last 4, and decline reason; its refunds as records;
 * and the search by part (pg_trgm, which the embedded PGlite loads too: embeddedServer.ts).
 */
export class Migration20261129020000_charge_details extends Migration {
  override name = 'Migration20261129020000_charge_details';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(
      `alter table "transactions" add column "customer_name" text null, add column "description" text null, add column "items" jsonb null, add column "card_brand" varchar(16) null, add column "card_last4" varchar(4) null, add column "decline_reason" text null;`,
    );
    this.addSql(`${CREATE_FIRST_SEARCH_INDEX};`);
    this.addSql(
      `create table "refunds" ("id" uuid not null, "transaction_id" uuid not null, "amount" bigint not null, "status" varchar(16) not null, "provider_refund_id" varchar(255) null, "idempotency_key" varchar(255) null, "requested_by_id" varchar(255) null, "requested_by_name" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "refunds_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "refunds_transaction_id_created_at_index" on "refunds" ("transaction_id", "created_at");`);
    this.addSql(`alter table "refunds" add constraint "refunds_transaction_id_idempotency_key_unique" unique ("transaction_id", "idempotency_key");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "refunds" cascade;`);
    this.addSql(`drop index if exists "${FIRST_SEARCH_INDEX}";`);
    this.addSql(
      `alter table "transactions" drop column "customer_name", drop column "description", drop column "items", drop column "card_brand", drop column "card_last4", drop column "decline_reason";`,
    );
  }
}
