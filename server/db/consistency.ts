import type { ConnectionType, EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Read-your-writes. 'replica' reads may be served by a lagging replica, so a
 * row that is missing there is looked up again on the primary (a charge just
 * created is always found); 'primary' reads are for data that must reflect a
 * write just made.
 */
export type Consistency = 'replica' | 'primary';

export async function findOneConsistent<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  consistency: Consistency = 'replica',
): Promise<{ row: T | null; connectionType: ConnectionType }> {
  if (consistency === 'replica') {
    const row = await em.findOne(entity, where as never, { connectionType: 'read' });
    if (row) return { row, connectionType: 'read' };
  }
  // refresh: an entity loaded from a replica into this unit of work must not stand in for the primary's.
  return { row: await em.findOne(entity, where as never, { connectionType: 'write', refresh: true }), connectionType: 'write' };
}
