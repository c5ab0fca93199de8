import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A unit of work to read or write entities with: `em` itself, or a fork when `em` is the root EntityManager
 * (Database.rootEm), which repository methods that mostly send statements are given so that a call forks only on the
 * path that needs entities.
 */
export const unitOf = (em: EntityManager): EntityManager => (em.global ? em.fork() : em);
