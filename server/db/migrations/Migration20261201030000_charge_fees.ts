import { Migration } from '@mikro-orm/migrations';

/** The fee a provider reported for a charge (Asaas' value − netValue), in cents, for the statement's fees. */
export class Migration20261201030000_charge_fees extends Migration {
  override name = 'Migration20261201030000_charge_fees';

  override up(): void | Promise<void> {
    this.addSql(`alter table "transactions" add column "provider_fee" bigint null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "transactions" drop column "provider_fee";`);
  }
}
