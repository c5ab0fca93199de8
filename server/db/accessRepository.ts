import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditEvent, ServiceToken } from '../domain/types.js';
import { redactText } from '../lib/http/redact.js';
import { isUuid } from '../lib/ids.js';
import { AuditEventEntity, ServiceTokenEntity, type AuditEventRow, type ServiceTokenRow } from './entities.js';
import { encodePageToken, readPageToken } from './pageTokens.js';
import { prepared, runPrepared } from './preparedSql.js';

const toToken = (row: ServiceTokenRow): ServiceToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  providerAccountIds: row.providerAccountIds,
  allowedOrigins: row.allowedOrigins ?? [],
  createdAt: row.createdAt,
  createdBy: row.createdBy,
  lastUsedAt: row.lastUsedAt ?? undefined,
  revokedAt: row.revokedAt ?? undefined,
});

/** Service tokens by the SHA-256 of their secret; the secret itself is never stored. */
export class ServiceTokensRepository {
  async create(em: EntityManager, token: Omit<ServiceToken, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>, tokenHash: string): Promise<ServiceToken> {
    const allowedOrigins = token.allowedOrigins.length ? token.allowedOrigins : null;
    const row = em.create(ServiceTokenEntity, {
      id: randomUUID(),
      ...token,
      allowedOrigins,
      tokenHash,
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    });
    await em.persist(row).flush();
    return toToken(row);
  }

  /** The live (not revoked) token with this hash; read from the primary, so that a revocation counts at once. */
  async findLive(em: EntityManager, tokenHash: string): Promise<ServiceToken | undefined> {
    const row = await em.findOne(ServiceTokenEntity, { tokenHash, revokedAt: null }, { connectionType: 'write', disableIdentityMap: true });
    return row ? toToken(row) : undefined;
  }

  /** Records a use; callers call it at most once a minute per token, so a busy token is not a write per call. */
  async touch(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.nativeUpdate(ServiceTokenEntity, { id }, { lastUsedAt: at });
  }

  async list(em: EntityManager, includeRevoked: boolean): Promise<ServiceToken[]> {
    const rows = await em.find(ServiceTokenEntity, includeRevoked ? {} : { revokedAt: null }, { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    return rows.map(toToken);
  }

  /** Revokes once; revoking a revoked token changes nothing. Undefined for an unknown id. */
  async revoke(em: EntityManager, id: string, at: Date): Promise<ServiceToken | undefined> {
    if (!isUuid(id)) return undefined;
    await em.nativeUpdate(ServiceTokenEntity, { id, revokedAt: null }, { revokedAt: at });
    const row = await em.findOne(ServiceTokenEntity, { id }, { connectionType: 'write', disableIdentityMap: true });
    return row ? toToken(row) : undefined;
  }
}

const toEvent = (row: AuditEventRow): AuditEvent => ({ ...row });

export interface AuditFilter {
  actorId?: string;
  /** Compared lower-cased: e-mails are stored so, token names as given. */
  actorName?: string;
  action?: string;
  resource?: string;
  /** At or after. */
  from?: Date;
  /** Before. */
  to?: Date;
}

const APPEND_AUDIT_EVENTS = prepared(
  'append_audit_events',
  `insert into audit_events (id, at, actor_kind, actor_id, actor_name, action, resource, source, outcome, detail)
   select * from unnest(?::uuid[], ?::timestamptz[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])`,
);

/** The audit trail: appended here, listed, never edited (the table refuses UPDATE and DELETE). */
export class AuditRepository {
  /** One INSERT for them all, the same prepared statement for any number of rows (a column is an array). */
  async appendMany(em: EntityManager, events: Omit<AuditEvent, 'id'>[]): Promise<void> {
    const column = <K extends keyof Omit<AuditEvent, 'id'>>(key: K) => events.map((event) => event[key]);
    await runPrepared(em, 'write', APPEND_AUDIT_EVENTS, [
      events.map(() => randomUUID()),
      column('at'),
      column('actorKind'),
      column('actorId'),
      column('actorName'),
      column('action'),
      column('resource'),
      column('source'),
      column('outcome'),
      // The detail may quote a provider's answer (a refusal's text), and the trail can never be edited: redacted before it is written.
      events.map((event) => redactText(event.detail)),
    ]);
  }

  async list(em: EntityManager, filter: AuditFilter, pageSize: number, pageToken?: string): Promise<{ events: AuditEvent[]; nextPageToken?: string }> {
    const after = readPageToken(pageToken);
    const rows = await em.find(
      AuditEventEntity,
      {
        ...(filter.actorId ? { actorId: filter.actorId } : {}),
        ...(filter.action ? { action: filter.action } : {}),
        ...(filter.resource ? { resource: filter.resource } : {}),
        // ILIKE with its wildcards escaped: equality ignoring case.
        ...(filter.actorName ? { actorName: { $ilike: filter.actorName.replace(/[\\%_]/g, (c) => `\\${c}`) } } : {}),
        ...(filter.from || filter.to ? { at: { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lt: filter.to } : {}) } } : {}),
        ...(after ? { $and: [{ $or: [{ at: { $lt: after.at } }, { at: after.at, id: { $lt: after.id } }] }] } : {}),
      },
      { orderBy: [{ at: 'desc' }, { id: 'desc' }], limit: pageSize + 1, connectionType: 'write' },
    );
    const page = rows.slice(0, pageSize);
    return { events: page.map(toEvent), nextPageToken: rows.length > pageSize ? encodePageToken(page.at(-1)!.at, page.at(-1)!.id) : undefined };
  }
}
