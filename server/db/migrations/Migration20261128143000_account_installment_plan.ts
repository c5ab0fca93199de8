import { Migration } from '@mikro-orm/migrations';

/** An account's installment plan (CalculateInstallments at a provider that takes cards and quotes none itself). */
export class Migration20261128143000_account_installment_plan extends Migration {
  override name = 'Migration20261128143000_account_installment_plan';

  override up(): void | Promise<void> {
    this.addSql(`alter table "provider_accounts" add column "installment_plan" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "provider_accounts" drop column if exists "installment_plan";`);
  }
}
