import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '../domain/types.js';

/** Who made a call, for its audit row when that commits with the call's own write (server/gateway/callAudit.ts). */
export type AuditedBy = Pick<AuditEvent, 'actorKind' | 'actorId' | 'actorName' | 'action' | 'source'>;

/**
 * The parameters of a statement's `(select ?::uuid as id, ?::text as actor_kind, …) w` row: all null without an audit
 * row to write, so that `where w.id is not null` writes none.
 */
export const auditedByValues = (audit: AuditedBy | undefined): (string | null)[] => [
  audit ? randomUUID() : null,
  audit?.actorKind ?? null,
  audit?.actorId ?? null,
  audit?.actorName ?? null,
  audit?.action ?? null,
  audit?.source ?? null,
];
