import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys whose provider call ended without a known outcome (a
 * timeout, a 5xx) stay taken in state UNKNOWN until the provider or an operator
 * confirms what happened: `pending` holds what is needed to record the result,
 * `resolve_after` is the resolver's lease and back-off.
 */
export class Migration20261122161500_unknown_outcomes extends Migration {
  override name = 'Migration20261122161500_unknown_outcomes';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "idempotency_keys" add column "pending" jsonb null, add column "resolve_after" timestamptz null, add column "resolve_attempts" int not null default 0;`,
    );
    this.addSql(`create index "idempotency_keys_state_resolve_after_index" on "idempotency_keys" ("state", "resolve_after");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "idempotency_keys_state_resolve_after_index";`);
    this.addSql(`alter table "idempotency_keys" drop column "pending", drop column "resolve_after", drop column "resolve_attempts";`);
  }
}
