import { Migration } from '@mikro-orm/migrations';

/**
 * Operators' two-step verification: the TOTP secret sealed like the accounts' secrets, the one begun and not yet
 * confirmed, and the last step accepted (a code of that step or earlier is refused, so it cannot be replayed).
 */
export class Migration20261129060000_operator_totp extends Migration {
  override name = 'Migration20261129060000_operator_totp';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "operators" add column "totp_secret_sealed" text null, add column "totp_pending_sealed" text null, add column "totp_last_step" bigint null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "operators" drop column "totp_secret_sealed", drop column "totp_pending_sealed", drop column "totp_last_step";`);
  }
}
