import { Migration } from '@mikro-orm/migrations';

/**
 * Provider health (GetRoutingHealth) as every gateway process counted it, one row per account, kind of call and
 * minute: each process adds its counts to the row (one upsert per flush), so that any process reads the same merged
 * figures and a restart forgets nothing. `latency_counts` holds one counter per bucket of the fixed latency histogram
 * (LATENCY_BUCKETS_MS in server/gateway/healthCounts.ts), so that percentiles merge by adding counters.
 */
export class Migration20261204020000_provider_health extends Migration {
  override name = 'Migration20261204020000_provider_health';

  override up(): void | Promise<void> {
    this.addSql(`create table "provider_health" (
      "provider_account_id" text not null,
      "operation" text not null,
      "bucket_start" timestamptz not null,
      "calls" integer not null,
      "errors" integer not null,
      "answered" integer not null,
      "not_rejected" integer not null,
      "total_ms" double precision not null,
      "latency_counts" integer[] not null,
      primary key ("provider_account_id", "operation", "bucket_start")
    );`);
    this.addSql(`create index "provider_health_bucket_start_index" on "provider_health" ("bucket_start");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "provider_health";`);
  }
}
