import { Migration } from '@mikro-orm/migrations';

/** When each piece of a dispute's evidence reached the provider through its API, so a second defence sends only what is new. */
export class Migration20261202010000_dispute_evidence_sent extends Migration {
  override name = 'Migration20261202010000_dispute_evidence_sent';

  override up(): void | Promise<void> {
    this.addSql(`alter table "dispute_evidence" add column "sent_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dispute_evidence" drop column "sent_at";`);
  }
}
