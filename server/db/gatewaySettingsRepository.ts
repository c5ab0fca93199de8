import type { EntityManager } from '@mikro-orm/postgresql';
import { auditedByValues, type AuditedBy } from './auditedBy.js';

/** The settings this table holds, by their row's name. */
export type GatewaySettingName = 'payout_approval_above_cents';

/** A setting as stored: its cents (null: off) and when it was set; undefined when never set (the environment's value holds). */
export interface StoredSetting {
  valueCents: number | null;
  updatedAt: Date;
}

const SET_SETTING = `
  with old as (select value_cents from gateway_settings where name = ?::text for update),
   changed as (
     insert into gateway_settings (name, value_cents, updated_at) values (?::text, ?::bigint, ?)
     on conflict (name) do update set value_cents = excluded.value_cents, updated_at = excluded.updated_at
     returning value_cents, updated_at),
   audited as (
     insert into audit_events (id, at, actor_kind, actor_id, actor_name, action, resource, source, outcome, detail)
     select w.id, changed.updated_at, w.actor_kind, w.actor_id, w.actor_name, w.action, ?::text, w.source, 'OK',
            jsonb_build_object('before', case when exists (select 1 from old) then (select value_cents from old) else ?::bigint end,
                               'after', changed.value_cents)::text
       from changed,
            (select ?::uuid as id, ?::text as actor_kind, ?::text as actor_id, ?::text as actor_name, ?::text as action, ?::text as source) w
      where w.id is not null
     returning id)
  select (select count(*) from audited) as audited`;

/**
 * Settings an admin changes in the back-office, read from the primary: a limit just changed must be the one the next
 * payout reads. A change writes its audit row (the value before and after) in the same statement, so that no change
 * is stored without its row.
 */
export class GatewaySettingsRepository {
  async get(em: EntityManager, name: GatewaySettingName): Promise<StoredSetting | undefined> {
    const [row] = await em
      .getConnection('write')
      .execute<Array<{ value_cents: string | null; updated_at: Date }>>('select value_cents, updated_at from gateway_settings where name = ?', [name], 'all');
    return row ? { valueCents: row.value_cents === null ? null : Number(row.value_cents), updatedAt: new Date(row.updated_at) } : undefined;
  }

  /**
   * Sets the setting; `before` is what held until now when no row did (the environment's value), for the audit row.
   * Returns whether the audit row was written with the change.
   */
  async set(
    em: EntityManager,
    name: GatewaySettingName,
    valueCents: number | null,
    { before, at, audit }: { before: number | null; at: Date; audit?: AuditedBy },
  ): Promise<{ audited: boolean }> {
    const [row] = await em
      .getConnection('write')
      .execute<Array<{ audited: string }>>(SET_SETTING, [name, name, valueCents, at, name, before, ...auditedByValues(audit)], 'all');
    return { audited: Number(row?.audited) > 0 };
  }
}
