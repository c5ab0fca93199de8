import { Migration } from '@mikro-orm/migrations';

/**
 * A PIX charge's payment as its provider reports it: the Banco Central's end-to-end id and the payer (name, document
 * as received, bank ISPB and name). Texts, bounded where they are written (domain/pixPayments.ts): providers send
 * documents formatted or masked, and not every one keeps to the 32 characters of an end-to-end id.
 */
export class Migration20261201010000_pix_payment extends Migration {
  override name = 'Migration20261201010000_pix_payment';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "transactions" add column "pix_end_to_end_id" text null, add column "pix_payer_name" text null, add column "pix_payer_document" text null, add column "pix_payer_bank_ispb" text null, add column "pix_payer_bank_name" text null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "transactions" drop column "pix_end_to_end_id", drop column "pix_payer_name", drop column "pix_payer_document", drop column "pix_payer_bank_ispb", drop column "pix_payer_bank_name";`,
    );
  }
}
