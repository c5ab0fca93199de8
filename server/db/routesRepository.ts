import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Route, RouteInput } from '../domain/routing.js';
import type { RouteOutcomeRow } from '../domain/routeOutcomes.js';
import { isUuid } from '../lib/ids.js';
import { RouteEntity, type RouteRow } from './entities.js';

const WRITE = { connectionType: 'write' } as const;

const toRoute = (row: RouteRow): Route => ({
  id: row.id,
  name: row.name,
  rules: row.rules,
  maxAttempts: row.maxAttempts,
  softDeclineCodes: row.softDeclineCodes ?? [],
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * Routes, read from the primary: they are few, read through the gateway's cache (routes.ts), and a route just saved
 * must be the one the next charge uses. Plain INSERT and UPDATE outside the unit of work, so that a name already
 * taken (the unique index decides a race) leaves nothing behind.
 */
export class RoutesRepository {
  /** Undefined when the name is taken. */
  async create(em: EntityManager, input: RouteInput): Promise<Route | undefined> {
    const now = new Date();
    const row: RouteRow = { id: randomUUID(), ...input, softDeclineCodes: input.softDeclineCodes ?? [], createdAt: now, updatedAt: now };
    try {
      await em.insert(RouteEntity, row);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return undefined;
      throw error;
    }
    return toRoute(row);
  }

  /** By id or by name. */
  async find(em: EntityManager, idOrName: string): Promise<Route | undefined> {
    const row = await em.fork().findOne(RouteEntity, isUuid(idOrName) ? { $or: [{ id: idOrName }, { name: idOrName }] } : { name: idOrName }, WRITE);
    return row ? toRoute(row) : undefined;
  }

  async list(em: EntityManager): Promise<Route[]> {
    return (await em.fork().find(RouteEntity, {}, { ...WRITE, orderBy: { name: 'asc' } })).map(toRoute);
  }

  /** 'missing' when no route has the id, 'name_taken' when another route has the name. */
  async update(em: EntityManager, id: string, input: RouteInput): Promise<Route | 'missing' | 'name_taken'> {
    if (!isUuid(id)) return 'missing';
    try {
      const updated = await em.nativeUpdate(RouteEntity, { id }, { ...input, updatedAt: new Date() });
      if (!updated) return 'missing';
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return 'name_taken';
      throw error;
    }
    return (await this.find(em, id)) ?? 'missing';
  }

  async delete(em: EntityManager, id: string): Promise<boolean> {
    return isUuid(id) && (await em.nativeDelete(RouteEntity, { id })) > 0;
  }

  /**
   * Routed charges created since `since`, counted per route and per account tried (one row each; accountId null: the
   * route's own totals). On the primary: an operator looks here right after charging. The range is the
   * transactions' (created_at, id) index; the charges without a route are filtered out of it.
   */
  async outcomes(em: EntityManager, since: Date): Promise<RouteOutcomeRow[]> {
    const rows = await em.getConnection('write').execute<Array<Record<string, unknown>>>(
      `with routed as (
         select t.routing, t.status, t.provider_account_id from transactions t where t.created_at >= ? and t.routing is not null
       )
       select routing->>'routeId' as route_id, max(routing->>'routeName') as route_name, null as account_id, null as provider,
              count(*) as charges,
              count(*) filter (where status in ('APPROVED', 'REFUNDED', 'CHARGEBACK')) as approved,
              count(*) filter (where status = 'REJECTED') as declined,
              count(*) filter (where exists (select 1 from jsonb_array_elements(routing->'attempts') a where a->>'outcome' = 'not_sent')) as fallbacks
         from routed group by 1
       union all
       select routing->>'routeId', max(routing->>'routeName'), a->>'providerAccountId', max(a->>'provider'),
              count(*) filter (where a->>'outcome' = 'charged'),
              count(*) filter (where a->>'outcome' = 'charged' and status in ('APPROVED', 'REFUNDED', 'CHARGEBACK')),
              count(*) filter (where a->>'outcome' = 'charged' and status = 'REJECTED'),
              count(*) filter (where a->>'outcome' = 'not_sent')
         from routed, jsonb_array_elements(routing->'attempts') a group by 1, 3`,
      [since],
      'all',
    );
    return rows.map((row) => ({
      routeId: String(row.route_id),
      routeName: String(row.route_name ?? ''),
      providerAccountId: row.account_id == null ? undefined : String(row.account_id),
      provider: String(row.provider ?? ''),
      charges: Number(row.charges),
      approved: Number(row.approved),
      declined: Number(row.declined),
      fallbacks: Number(row.fallbacks),
    }));
  }
}
