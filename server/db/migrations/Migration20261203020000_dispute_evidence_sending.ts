import { Migration } from '@mikro-orm/migrations';

/**
 * A claim on a piece of evidence while one SubmitDisputeDefense sends it: a second call at the same time does not
 * send it too, and a claim whose process died ends with its lease (`sending_until`), so the evidence is not stranded.
 */
export class Migration20261203020000_dispute_evidence_sending extends Migration {
  override name = 'Migration20261203020000_dispute_evidence_sending';

  override up(): void | Promise<void> {
    this.addSql(`alter table "dispute_evidence" add column "sending_claim" uuid null, add column "sending_until" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dispute_evidence" drop column "sending_claim", drop column "sending_until";`);
  }
}
