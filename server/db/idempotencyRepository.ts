import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { IdempotencyKeyEntity } from './entities.js';
import { prepared, runPrepared } from './preparedSql.js';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;

export type Claim =
  | { kind: 'owner'; id: string }
  | { kind: 'completed'; subjectId: string; response: unknown }
  | { kind: 'in_progress' }
  /** The first attempt's provider call ended without a known outcome: nothing may be sent again until it is confirmed. */
  | { kind: 'unknown' }
  | { kind: 'mismatch' };

/** A key waiting for its outcome to be confirmed. */
export interface UnknownKey {
  id: string;
  providerAccountId: string;
  operation: string;
  key: string;
  pending: unknown;
  failure: string | null;
  resolveAttempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ClaimRequest {
  providerAccountId: string;
  operation: string;
  key: string;
  requestHash: string;
}

/** A key inserted, or taken over from a first attempt that failed at the provider (same request only) or that has expired. */
const CLAIM_KEY = prepared(
  'claim_idempotency_key',
  `insert into idempotency_keys (id, provider_account_id, operation, key, request_hash, state, created_at, updated_at, expires_at)
       values (?, ?, ?, ?, ?, 'IN_PROGRESS', ?, ?, ?)
       on conflict (provider_account_id, operation, key) do update
         set state = 'IN_PROGRESS', request_hash = excluded.request_hash, subject_id = null, response = null, failure = null,
             created_at = excluded.created_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at
         where (idempotency_keys.state = 'FAILED' and idempotency_keys.request_hash = excluded.request_hash)
            or idempotency_keys.expires_at < excluded.created_at
       returning id`,
);

/**
 * Idempotency keys, claimed atomically in PostgreSQL: of any number of
 * simultaneous requests with one key, exactly one becomes the owner and reaches
 * the provider; the others see it in progress, then completed.
 */
export class IdempotencyRepository {
  constructor(private readonly ttlMs = IDEMPOTENCY_KEY_TTL_MS) {}

  async claim(em: EntityManager, request: ClaimRequest): Promise<Claim> {
    const now = new Date();
    const taken = await runPrepared<{ id: string }>(em, 'write', CLAIM_KEY, [
      randomUUID(),
      request.providerAccountId,
      request.operation,
      request.key,
      request.requestHash,
      now,
      now,
      new Date(now.getTime() + this.ttlMs),
    ]);
    if (taken.length > 0) return { kind: 'owner', id: taken[0]!.id };
    const existing = await em.findOne(
      IdempotencyKeyEntity,
      { providerAccountId: request.providerAccountId, operation: request.operation, key: request.key },
      { connectionType: 'write', disableIdentityMap: true },
    );
    if (!existing || existing.requestHash !== request.requestHash) return { kind: existing ? 'mismatch' : 'in_progress' };
    if (existing.state === 'COMPLETED' && existing.subjectId) return { kind: 'completed', subjectId: existing.subjectId, response: existing.response };
    if (existing.state === 'UNKNOWN') return { kind: 'unknown' };
    return { kind: 'in_progress' };
  }

  /**
   * The provider may have acted (timeout, 5xx): the key stays taken, with what
   * recording the result needs, until the resolver or an operator confirms it.
   * It no longer expires: an unconfirmed charge must not be forgotten.
   */
  async markUnknown(em: EntityManager, id: string, failure: string, pending: unknown, firstCheckAfter: Date): Promise<void> {
    await em.nativeUpdate(
      IdempotencyKeyEntity,
      { id },
      {
        state: 'UNKNOWN',
        failure,
        pending: pending ?? null,
        resolveAfter: firstCheckAfter,
        expiresAt: new Date('9999-12-31T00:00:00Z'),
        updatedAt: new Date(),
      },
    );
  }

  /** Takes up to `limit` unknown keys due for a check, leasing each for `leaseMs` so that no other worker checks it meanwhile. */
  async claimUnknownDue(em: EntityManager, limit: number, leaseMs: number, now = new Date()): Promise<UnknownKey[]> {
    const rows = await em.getConnection('write').execute<Array<Record<string, unknown>>>(
      `update idempotency_keys set resolve_after = ?, resolve_attempts = resolve_attempts + 1
        where id in (select id from idempotency_keys where state = 'UNKNOWN' and resolve_after <= ? order by resolve_after limit ? for update skip locked)
        returning id, provider_account_id, operation, key, pending, failure, resolve_attempts, created_at, updated_at`,
      [new Date(now.getTime() + leaseMs), now, limit],
      'all',
    );
    return rows.map(toUnknownKey);
  }

  async findUnknown(em: EntityManager, filter: { providerAccountId?: string; id?: string } = {}): Promise<UnknownKey[]> {
    const rows = await em.find(
      IdempotencyKeyEntity,
      { state: 'UNKNOWN', ...(filter.providerAccountId ? { providerAccountId: filter.providerAccountId } : {}), ...(filter.id ? { id: filter.id } : {}) },
      { orderBy: { createdAt: 'asc' }, connectionType: 'write', disableIdentityMap: true, limit: 500 },
    );
    return rows.map((row) => ({
      id: row.id,
      providerAccountId: row.providerAccountId,
      operation: row.operation,
      key: row.key,
      pending: row.pending,
      failure: row.failure ?? null,
      resolveAttempts: row.resolveAttempts,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }));
  }

  /** Completes or fails a key only while it is still UNKNOWN (the resolver and an operator may race). */
  async settleUnknown(em: EntityManager, id: string, settlement: { subjectId: string; response?: unknown } | { failure: string }): Promise<boolean> {
    const changes =
      'subjectId' in settlement
        ? { state: 'COMPLETED', subjectId: settlement.subjectId, response: settlement.response ?? null }
        : { state: 'FAILED', failure: settlement.failure };
    const updated = await em.nativeUpdate(
      IdempotencyKeyEntity,
      { id, state: 'UNKNOWN' },
      { ...changes, pending: null, resolveAfter: null, expiresAt: new Date(Date.now() + this.ttlMs), updatedAt: new Date() },
    );
    return updated > 0;
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

function toUnknownKey(row: Record<string, unknown>): UnknownKey {
  return {
    id: String(row.id),
    providerAccountId: String(row.provider_account_id),
    operation: String(row.operation),
    key: String(row.key),
    pending: row.pending,
    failure: (row.failure as string | null) ?? null,
    resolveAttempts: Number(row.resolve_attempts),
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.updated_at as string),
  };
}
