import { Migration } from '@mikro-orm/migrations';

/**
 * Dedup only over what was proven (NotificationsService.applyStatus): a notification holds its dedup key once it was
 * signed or confirmed by the provider's read. Before, every notification that reached the dedup step claimed one, so
 * a forged claim the read refused (UNCONFIRMED) or whose amount did not match (MISMATCH) still holds the key its
 * genuine copy needs, and would make that copy a DUPLICATE. Those keys are let go. A signed MISMATCH loses its key
 * too (which rows were signed is not stored): a re-delivery of it is then checked again, and refused again.
 */
export class Migration20261128100000_unproven_dedup_keys extends Migration {
  override name = 'Migration20261128100000_unproven_dedup_keys';

  override up(): void | Promise<void> {
    this.addSql(`update "webhook_notifications" set "dedup_key" = null where "outcome" in ('UNCONFIRMED', 'MISMATCH') and "dedup_key" is not null;`);
  }

  override down(): void | Promise<void> {
    // The keys let go are not known any more: nothing to restore.
  }
}
