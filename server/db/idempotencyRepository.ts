import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { IdempotencyKeyEntity } from './entities.js';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;

export type Claim =
  | { kind: 'owner'; id: string }
  | { kind: 'completed'; subjectId: string; response: unknown }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

export interface ClaimRequest {
  providerAccountId: string;
  operation: string;
  key: string;
  requestHash: string;
}

/**
 * Idempotency keys, claimed atomically in PostgreSQL: of any number of
 * simultaneous requests with one key, exactly one becomes the owner and reaches
 * the provider; the others see it in progress, then completed.
 */
export class IdempotencyRepository {
  constructor(private readonly ttlMs = IDEMPOTENCY_KEY_TTL_MS) {}

  async claim(em: EntityManager, request: ClaimRequest): Promise<Claim> {
    const connection = em.getConnection('write');
    const now = new Date();
    // Insert, or take over a key whose first attempt failed at the provider (same request only) or that has expired.
    const taken = await connection.execute<{ id: string }[]>(
      `insert into idempotency_keys (id, provider_account_id, operation, key, request_hash, state, created_at, updated_at, expires_at)
       values (?, ?, ?, ?, ?, 'IN_PROGRESS', ?, ?, ?)
       on conflict (provider_account_id, operation, key) do update
         set state = 'IN_PROGRESS', request_hash = excluded.request_hash, subject_id = null, response = null, failure = null,
             created_at = excluded.created_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at
         where (idempotency_keys.state = 'FAILED' and idempotency_keys.request_hash = excluded.request_hash)
            or idempotency_keys.expires_at < excluded.created_at
       returning id`,
      [randomUUID(), request.providerAccountId, request.operation, request.key, request.requestHash, now, now, new Date(now.getTime() + this.ttlMs)],
      'all',
    );
    if (taken.length > 0) return { kind: 'owner', id: taken[0]!.id };
    const existing = await em.findOne(
      IdempotencyKeyEntity,
      { providerAccountId: request.providerAccountId, operation: request.operation, key: request.key },
      { connectionType: 'write', disableIdentityMap: true },
    );
    if (!existing || existing.requestHash !== request.requestHash) return { kind: existing ? 'mismatch' : 'in_progress' };
    if (existing.state === 'COMPLETED' && existing.subjectId) return { kind: 'completed', subjectId: existing.subjectId, response: existing.response };
    return { kind: 'in_progress' };
  }

  async complete(em: EntityManager, id: string, subjectId: string, response: unknown): Promise<void> {
    await em.nativeUpdate(IdempotencyKeyEntity, { id }, { state: 'COMPLETED', subjectId, response: response ?? null, updatedAt: new Date() });
  }

  /** The provider refused or could not be reached: the same request may try again. */
  async fail(em: EntityManager, id: string, failure: string): Promise<void> {
    await em.nativeUpdate(IdempotencyKeyEntity, { id }, { state: 'FAILED', failure, updatedAt: new Date() });
  }

  /** Forgets keys older than their time to live. */
  async purgeExpired(em: EntityManager, now = new Date()): Promise<number> {
    return em.nativeDelete(IdempotencyKeyEntity, { expiresAt: { $lt: now } });
  }
}
