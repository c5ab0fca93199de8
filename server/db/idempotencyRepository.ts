import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { redactText } from '../lib/http/redact.js';
import { IdempotencyKeyEntity } from './entities.js';
import { prepared, runPrepared } from './preparedSql.js';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;
/** A process that has not marked itself alive for this long holds nothing in flight any more (PROCESS_STALE_MS). */
export const PROCESS_STALE_MS = 30_000;
/**
 * Keys claimed before keys named their process have no owner: judged by age alone, past any provider's timeout
 * (the longest declared is 60 s) with a wide margin.
 */
const OWNERLESS_STALE_MS = 10 * 60_000;
/** An UNKNOWN key never expires: an unconfirmed charge must not be forgotten. */
const NEVER = '9999-12-31T00:00:00Z';
/** How long a key of this process's must have been left untouched before it is taken for lost (see isLost). */
const LOST_CLAIM_QUIET_MS = 2_000;

export type Claim =
  /** `fresh`: the key was inserted now, not taken over from a first attempt that failed or expired. */
  | { kind: 'owner'; id: string; fresh: boolean }
  | { kind: 'completed'; subjectId: string; response: unknown }
  | { kind: 'in_progress' }
  /** The first attempt's provider call ended without a known outcome: nothing may be sent again until it is confirmed. */
  | { kind: 'unknown'; id: string; createdAt: Date; nextCheckAt: Date | null }
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
  /** When the request was claimed, so about when it was sent. */
  createdAt: Date;
  /** When its outcome became unknown (the call failed, or its process was found gone). */
  updatedAt: Date;
  /** When the resolver checks it next; null once no automatic check is left and an operator must settle it. */
  nextCheckAt: Date | null;
}

export interface ClaimRequest {
  providerAccountId: string;
  operation: string;
  key: string;
  requestHash: string;
  /** What recording the result needs, kept from the claim on, so that a request whose process dies mid-call can be settled. */
  pending?: unknown;
}

export interface IdempotencyOptions {
  ttlMs?: number;
  /** This process's id (gateway_processes), stamped on every key it claims. */
  ownerId?: string;
  /** A holder silent for longer than this is gone (PROCESS_STALE_MS). */
  staleMs?: number;
}

/**
 * A key inserted, or taken over from a first attempt that failed at the provider (same request only) or, once
 * settled (COMPLETED or FAILED), expired. A key IN_PROGRESS or UNKNOWN is never taken over here, however old.
 */
const CLAIM_KEY = prepared(
  'claim_idempotency_key',
  `insert into idempotency_keys (id, provider_account_id, operation, key, request_hash, state, owner_id, pending, created_at, updated_at, expires_at)
       values (?, ?, ?, ?, ?, 'IN_PROGRESS', ?, ?::jsonb, ?, ?, ?)
       on conflict (provider_account_id, operation, key) do update
         set state = 'IN_PROGRESS', request_hash = excluded.request_hash, subject_id = null, response = null, failure = null,
             owner_id = excluded.owner_id, pending = excluded.pending, resolve_after = null, resolve_attempts = 0,
             created_at = excluded.created_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at
         where (idempotency_keys.state = 'FAILED' and idempotency_keys.request_hash = excluded.request_hash)
            or (idempotency_keys.expires_at < excluded.created_at and idempotency_keys.state in ('COMPLETED', 'FAILED'))
       returning id, (xmax = 0) as fresh`,
);

const LIVE_AMONG = prepared(
  'live_idempotency_keys_among',
  `select key, state, subject_id from idempotency_keys
    where provider_account_id = any(?::uuid[]) and operation = ? and key = any(?::text[]) and state <> 'FAILED'`,
);

/** Whether a key IN_PROGRESS is held by nobody: its process stopped marking itself alive, or is known gone. */
const HELD_BY_NOBODY = `case when k.owner_id is null then k.updated_at < now() - (? * interval '1 millisecond')
       else not exists (select 1 from gateway_processes p where p.id = k.owner_id and p.heartbeat_at > now() - (? * interval '1 millisecond')) end`;

/** A key someone else holds, and whether its holder is still there. */
const FIND_KEY = prepared(
  'find_idempotency_key',
  `select k.id, k.request_hash, k.state, k.subject_id, k.response, k.created_at, k.resolve_after, k.owner_id,
          k.state = 'IN_PROGRESS' and ${HELD_BY_NOBODY} as orphaned,
          k.updated_at < now() - (? * interval '1 millisecond') as quiet
     from idempotency_keys k
    where k.provider_account_id = ? and k.operation = ? and k.key = ?`,
);

/**
 * Keys IN_PROGRESS whose process is gone become UNKNOWN, due for a check at once, and never expire. One that kept no
 * pending record under a process that names itself was never sent (charges and payouts keep theirs from the claim,
 * a refund from its reservation, made before the provider call): it is FAILED, free for the same request again.
 */
const SWEEP_ORPHANS = `update idempotency_keys k
     set state = case when k.pending is null and k.owner_id is not null then 'FAILED' else 'UNKNOWN' end,
         failure = case when k.pending is null and k.owner_id is not null
           then 'the gateway process holding this request stopped before anything was sent'
           else 'the gateway process holding this request stopped while its provider call was in flight: no answer was recorded' end,
         resolve_after = case when k.pending is null and k.owner_id is not null then null else now() end,
         expires_at = case when k.pending is null and k.owner_id is not null then now() + (? * interval '1 millisecond') else '${NEVER}'::timestamptz end,
         updated_at = now()
   where k.state = 'IN_PROGRESS' and ${HELD_BY_NOBODY}`;

/**
 * Idempotency keys, claimed atomically in PostgreSQL: of any number of
 * simultaneous requests with one key, exactly one becomes the owner and reaches
 * the provider; the others see it in progress, then completed. Each key names
 * the process that claimed it, so that a key whose process died mid-call is
 * found (by a retry, a sweep or an operator's listing) and confirmed like any
 * other unknown outcome instead of blocking its key until it expires.
 */
export class IdempotencyRepository {
  /** Keys this process is working on now: from its claim to the last write of its call (runIdempotent's ownerCall). */
  private readonly running = new Set<string>();
  /** Keys whose provider call this process made but whose outcome it could not write (the database was unreachable). */
  private readonly sentUnrecorded = new Set<string>();
  private readonly ttlMs: number;
  readonly ownerId: string | null;
  readonly staleMs: number;

  constructor(options: IdempotencyOptions = {}) {
    this.ttlMs = options.ttlMs ?? IDEMPOTENCY_KEY_TTL_MS;
    this.ownerId = options.ownerId ?? null;
    this.staleMs = options.staleMs ?? PROCESS_STALE_MS;
  }

  async claim(em: EntityManager, request: ClaimRequest): Promise<Claim> {
    for (let pass = 1; ; pass++) {
      const now = new Date();
      const taken = await runPrepared<{ id: string; fresh: boolean }>(em, 'write', CLAIM_KEY, [
        randomUUID(),
        request.providerAccountId,
        request.operation,
        request.key,
        request.requestHash,
        this.ownerId,
        request.pending === undefined || request.pending === null ? null : JSON.stringify(request.pending),
        now,
        now,
        new Date(now.getTime() + this.ttlMs),
      ]);
      if (taken.length > 0) return { kind: 'owner', id: taken[0]!.id, fresh: taken[0]!.fresh };
      const [existing] = await runPrepared<Record<string, unknown>>(em, 'write', FIND_KEY, [
        OWNERLESS_STALE_MS,
        this.staleMs,
        LOST_CLAIM_QUIET_MS,
        request.providerAccountId,
        request.operation,
        request.key,
      ]);
      if (!existing || existing.request_hash !== request.requestHash) return { kind: existing ? 'mismatch' : 'in_progress' };
      if (existing.state === 'COMPLETED' && existing.subject_id)
        return { kind: 'completed', subjectId: String(existing.subject_id), response: existing.response };
      if (existing.state === 'UNKNOWN') {
        return {
          kind: 'unknown',
          id: String(existing.id),
          createdAt: new Date(existing.created_at as string),
          nextCheckAt: existing.resolve_after ? new Date(existing.resolve_after as string) : null,
        };
      }
      // Its process is gone: confirmed like any unknown outcome from now on (or, never sent, free again), then claimed anew.
      if (existing.orphaned && pass === 1 && (await this.sweepOrphans(em, String(existing.id))) > 0) continue;
      if (existing.state === 'IN_PROGRESS' && pass === 1 && this.isLost(existing) && (await this.settleLost(em, String(existing.id))) > 0) continue;
      return { kind: 'in_progress' };
    }
  }

  /**
   * Settles every lost key of this process (see isLost), whether or not a retry asks for it again: a caller that gave
   * up would otherwise leave it IN_PROGRESS for as long as this process lives. Returns how many.
   */
  async settleOwnLost(em: EntityManager): Promise<number> {
    if (this.ownerId === null) return 0;
    const rows = await em
      .getConnection('write')
      .execute<Array<{ id: string }>>(
        `select id from idempotency_keys where state = 'IN_PROGRESS' and owner_id = ? and updated_at < now() - (? * interval '1 millisecond')`,
        [this.ownerId, LOST_CLAIM_QUIET_MS],
        'all',
      );
    let settled = 0;
    for (const { id } of rows) if (!this.running.has(id)) settled += await this.settleLost(em, id);
    return settled;
  }

  /** This process is working on the key `id` (it holds its claim). */
  hold(id: string): void {
    this.running.add(id);
  }

  /**
   * This process is done with the key `id`. `sentUnrecorded`: its provider call was made and its outcome could not be
   * written (the database was unreachable), so the key is still IN_PROGRESS under this process, which lives on.
   */
  release(id: string, sentUnrecorded: boolean): void {
    this.running.delete(id);
    if (sentUnrecorded) this.sentUnrecorded.add(id);
  }

  /**
   * A key IN_PROGRESS under this very process that none of its calls holds: the claim's answer was lost on the way
   * back (a pooler or a primary gone between commit and answer), or the call ended without writing its outcome.
   * Quiet for a moment, so that a claim whose answer is still on its way to this process is not taken for lost.
   */
  private isLost(existing: Record<string, unknown>): boolean {
    return this.ownerId !== null && existing.owner_id === this.ownerId && existing.quiet === true && !this.running.has(String(existing.id));
  }

  /**
   * Settles a lost key of this process: UNKNOWN (to the resolver) when its provider call was made, FAILED (free for
   * the same request again) when this process never sent it. Returns how many rows changed (0 or 1).
   */
  private async settleLost(em: EntityManager, id: string): Promise<number> {
    const sent = this.sentUnrecorded.has(id);
    const rows = await em.getConnection('write').execute<Array<{ id: string }>>(
      `update idempotency_keys
          set state = ?, failure = ?, resolve_after = ${sent ? 'now()' : 'null'},
              expires_at = ${sent ? `'${NEVER}'::timestamptz` : `now() + (? * interval '1 millisecond')`}, updated_at = now()
        where id = ? and state = 'IN_PROGRESS' and owner_id = ? returning id`,
      [
        sent ? 'UNKNOWN' : 'FAILED',
        sent
          ? 'the outcome of the provider call could not be recorded (the database could not be reached): no answer was recorded'
          : 'the claim of this request was lost on its way back from the database: nothing was sent',
        ...(sent ? [] : [this.ttlMs]),
        id,
        this.ownerId,
      ],
      'all',
    );
    if (rows.length > 0) this.sentUnrecorded.delete(id);
    return rows.length;
  }

  /**
   * Keys IN_PROGRESS whose process is gone (its heartbeat older than `staleMs`, or its row forgotten) become
   * UNKNOWN and go to the resolver (or FAILED where nothing was sent). Only `id`, when given. Returns how many.
   */
  async sweepOrphans(em: EntityManager, id?: string): Promise<number> {
    const rows = await em
      .getConnection('write')
      .execute<Array<{ id: string }>>(
        `${SWEEP_ORPHANS}${id ? ' and k.id = ?' : ''} returning k.id`,
        [this.ttlMs, OWNERLESS_STALE_MS, this.staleMs, ...(id ? [id] : [])],
        'all',
      );
    return rows.length;
  }

  /**
   * The provider may have acted (timeout, 5xx): the key stays taken, with what
   * recording the result needs, until the resolver or an operator confirms it.
   * It no longer expires: an unconfirmed charge must not be forgotten.
   */
  async markUnknown(em: EntityManager, id: string, failure: string, pending: unknown, firstCheckAfter: Date): Promise<void> {
    // Never over a settled key: a sweep may have found this process silent, and the resolver or an operator settled it meanwhile.
    await em.nativeUpdate(
      IdempotencyKeyEntity,
      { id, state: { $in: ['IN_PROGRESS', 'UNKNOWN'] } },
      {
        state: 'UNKNOWN',
        // A provider's error text, kept for operators (ListUnconfirmedRequests): without the card data it may echo.
        failure: redactText(failure),
        pending: pending ?? null,
        resolveAfter: firstCheckAfter,
        expiresAt: new Date(NEVER),
        updatedAt: new Date(),
      },
    );
  }

  /**
   * A retry takes over a key whose outcome is unknown, to send the same request again with the same key to a
   * provider documented to answer a repeated key with the first resource. Only the same request, only while UNKNOWN.
   */
  async takeOverUnknown(em: EntityManager, id: string, requestHash: string): Promise<boolean> {
    const updated = await em.nativeUpdate(
      IdempotencyKeyEntity,
      { id, state: 'UNKNOWN', requestHash },
      { state: 'IN_PROGRESS', ownerId: this.ownerId, resolveAfter: null, updatedAt: new Date() },
    );
    return updated > 0;
  }

  /** When the resolver checks an unknown key next; null: no automatic check is left, an operator settles it. */
  async scheduleCheck(em: EntityManager, id: string, at: Date | null): Promise<void> {
    await em.nativeUpdate(IdempotencyKeyEntity, { id, state: 'UNKNOWN' }, { resolveAfter: at });
  }

  /** Takes up to `limit` unknown keys due for a check, leasing each for `leaseMs` so that no other worker checks it meanwhile. */
  async claimUnknownDue(em: EntityManager, limit: number, leaseMs: number, now = new Date()): Promise<UnknownKey[]> {
    const rows = await em.getConnection('write').execute<Array<Record<string, unknown>>>(
      `update idempotency_keys set resolve_after = ?, resolve_attempts = resolve_attempts + 1
        where id in (select id from idempotency_keys where state = 'UNKNOWN' and resolve_after <= ? order by resolve_after limit ? for update skip locked)
        returning id, provider_account_id, operation, key, pending, failure, resolve_attempts, resolve_after, created_at, updated_at`,
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
      nextCheckAt: row.resolveAfter ?? null,
    }));
  }

  /** How many keys are UNKNOWN, and since when the oldest has been (it became UNKNOWN at its last update). */
  async unknownSummary(em: EntityManager): Promise<{ count: number; oldestSince?: Date }> {
    const [row] = await em
      .getConnection('write')
      .execute<{ count: number; oldest: Date | string | null }[]>(
        `select count(*)::int as count, min(updated_at) as oldest from idempotency_keys where state = 'UNKNOWN'`,
        [],
        'all',
      );
    return { count: row?.count ?? 0, ...(row?.oldest ? { oldestSince: new Date(row.oldest) } : {}) };
  }

  /** Completes or fails a key only while it is still UNKNOWN (the resolver and an operator may race). */
  async settleUnknown(em: EntityManager, id: string, settlement: { subjectId: string; response?: unknown } | { failure: string }): Promise<boolean> {
    const changes =
      'subjectId' in settlement
        ? { state: 'COMPLETED', subjectId: settlement.subjectId, response: settlement.response ?? null }
        : { state: 'FAILED', failure: redactText(settlement.failure) };
    const updated = await em.nativeUpdate(
      IdempotencyKeyEntity,
      { id, state: 'UNKNOWN' },
      { ...changes, pending: null, resolveAfter: null, expiresAt: new Date(Date.now() + this.ttlMs), updatedAt: new Date() },
    );
    return updated > 0;
  }

  /**
   * The keys of an operation at any of these accounts that are one of `keys` and not FAILED (a routed charge's
   * attempts, wherever its route sent them): one indexed statement.
   */
  async liveAmong(
    em: EntityManager,
    operation: string,
    providerAccountIds: string[],
    keys: string[],
  ): Promise<{ key: string; state: string; subjectId: string | null }[]> {
    const rows = await runPrepared<{ key: string; state: string; subject_id: string | null }>(em, 'write', LIVE_AMONG, [providerAccountIds, operation, keys]);
    return rows.map((row) => ({ key: row.key, state: row.state, subjectId: row.subject_id }));
  }

  async complete(em: EntityManager, id: string, subjectId: string, response: unknown): Promise<void> {
    await em.nativeUpdate(IdempotencyKeyEntity, { id }, { state: 'COMPLETED', subjectId, response: response ?? null, updatedAt: new Date() });
  }

  /** The provider refused or could not be reached: the same request may try again. Never over a settled key. */
  async fail(em: EntityManager, id: string, failure: string): Promise<void> {
    await em.nativeUpdate(
      IdempotencyKeyEntity,
      { id, state: { $in: ['IN_PROGRESS', 'UNKNOWN'] } },
      { state: 'FAILED', failure: redactText(failure), updatedAt: new Date() },
    );
  }

  /** Forgets settled keys older than their time to live; a key in flight or unknown is never forgotten. */
  async purgeExpired(em: EntityManager, now = new Date()): Promise<number> {
    return em.nativeDelete(IdempotencyKeyEntity, { expiresAt: { $lt: now }, state: { $in: ['COMPLETED', 'FAILED'] } });
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
    nextCheckAt: row.resolve_after ? new Date(row.resolve_after as string) : null,
  };
}
