import { Migration } from '@mikro-orm/migrations';

/**
 * The notification workers' backlog scan (NotificationsRepository.claimDue) on an index of the backlog alone: the
 * notifications still to be processed, oldest first. A processed notification leaves the index, so the scan costs
 * what the queue holds, not the table's history (which only grows). The predicate is the repository's BACKLOG,
 * word for word, and the entity names the index with the same statement.
 */
export class Migration20261127120000_notification_backlog extends Migration {
  override name = 'Migration20261127120000_notification_backlog';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "webhook_notifications_backlog_index" on "webhook_notifications" ("received_at") where outcome in ('RECEIVED', 'PROCESSING') or (outcome in ('FAILED', 'UNKNOWN_SUBJECT') and next_attempt_at is not null);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_notifications_backlog_index";`);
  }
}
