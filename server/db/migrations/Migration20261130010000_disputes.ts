import { Migration } from '@mikro-orm/migrations';

/** Disputes (chargebacks and PIX infractions) against charges, and their evidence: references to uploaded documents. */
export class Migration20261130010000_disputes extends Migration {
  override name = 'Migration20261130010000_disputes';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "disputes" ("id" uuid not null, "transaction_id" uuid not null, "provider_account_id" uuid not null, "provider" varchar(64) not null, "kind" varchar(16) not null, "reason_code" varchar(64) not null, "reason" text not null, "amount" bigint not null, "deadline" timestamptz not null, "status" varchar(24) not null, "outcome_note" text not null, "provider_dispute_id" varchar(128) not null, "sent_to_provider" boolean not null, "opened_by_id" varchar(64) not null, "opened_by_name" varchar(255) not null, "opened_at" timestamptz not null, "updated_at" timestamptz not null, "submitted_at" timestamptz null, "closed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "disputes_deadline_id_index" on "disputes" ("deadline", "id");`);
    this.addSql(`create index "disputes_transaction_id_index" on "disputes" ("transaction_id");`);
    this.addSql(
      `create unique index "disputes_one_open_per_charge_and_kind" on "disputes" ("transaction_id", "kind") where status in ('OPEN', 'EVIDENCE_SUBMITTED');`,
    );

    this.addSql(
      `create table "dispute_evidence" ("id" uuid not null, "dispute_id" uuid not null, "document_url" text not null, "file_name" varchar(255) not null, "description" text not null, "added_by_id" varchar(64) not null, "added_by_name" varchar(255) not null, "added_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "dispute_evidence_dispute_id_added_at_index" on "dispute_evidence" ("dispute_id", "added_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "disputes" cascade;`);
    this.addSql(`drop table if exists "dispute_evidence" cascade;`);
  }
}
