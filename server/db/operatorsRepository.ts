import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Operator } from '../domain/types.js';
import { isUuid } from '../lib/ids.js';
import { OperatorEntity, OperatorSessionEntity, type OperatorRow } from './entities.js';

const toOperator = (row: OperatorRow): Operator => ({
  id: row.id,
  email: row.email,
  role: row.role,
  disabled: row.disabled,
  createdAt: row.createdAt,
  lastSignInAt: row.lastSignInAt ?? undefined,
});

export interface OperatorCredentials extends Operator {
  passwordHash: string;
  failedSignIns: number;
  lockedUntil?: Date;
}

export interface OperatorPatch {
  role?: string;
  disabled?: boolean;
  passwordHash?: string;
}

const WRITE = { connectionType: 'write', disableIdentityMap: true } as const;

/** Operators and their sessions. Everything here reads the primary: a sign-in, a lock-out or a sign-out must count at once. */
export class OperatorsRepository {
  /**
   * Inserts an operator; undefined when another already has the e-mail (the unique index decides, so of two creations
   * racing for one e-mail exactly one is made). A plain INSERT, outside the unit of work: a refused row is not left in it.
   */
  async create(em: EntityManager, input: { email: string; role: string; passwordHash: string }): Promise<Operator | undefined> {
    const row = { id: randomUUID(), ...input, disabled: false, createdAt: new Date(), lastSignInAt: null, failedSignIns: 0, lockedUntil: null };
    try {
      await em.insert(OperatorEntity, row);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return undefined;
      throw error;
    }
    return toOperator(row);
  }

  async count(em: EntityManager): Promise<number> {
    return em.count(OperatorEntity, {}, { connectionType: 'write' });
  }

  async countActiveAdmins(em: EntityManager): Promise<number> {
    return em.count(OperatorEntity, { role: 'admin', disabled: false }, { connectionType: 'write' });
  }

  async get(em: EntityManager, id: string): Promise<Operator | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await em.findOne(OperatorEntity, { id }, WRITE);
    return row ? toOperator(row) : undefined;
  }

  async byEmail(em: EntityManager, email: string): Promise<OperatorCredentials | undefined> {
    const row = await em.findOne(OperatorEntity, { email }, WRITE);
    return row
      ? { ...toOperator(row), passwordHash: row.passwordHash, failedSignIns: row.failedSignIns, lockedUntil: row.lockedUntil ?? undefined }
      : undefined;
  }

  async list(em: EntityManager): Promise<Operator[]> {
    return (await em.find(OperatorEntity, {}, { ...WRITE, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map(toOperator);
  }

  async update(em: EntityManager, id: string, patch: OperatorPatch): Promise<Operator | undefined> {
    if (!isUuid(id)) return undefined;
    const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    if (Object.keys(changes).length) await em.nativeUpdate(OperatorEntity, { id }, changes);
    return this.get(em, id);
  }

  /** Counts a failed sign-in in one statement (concurrent guesses all count) and locks until `lockUntil` at `maxFailures`; returns the lock's end, if locked. */
  async recordFailure(em: EntityManager, id: string, maxFailures: number, lockUntil: Date): Promise<Date | undefined> {
    const [row] = await em.getConnection('write').execute<{ locked_until: Date | string | null }[]>(
      `update "operators" set "failed_sign_ins" = "failed_sign_ins" + 1,
         "locked_until" = case when "failed_sign_ins" + 1 >= ? then ?::timestamptz else "locked_until" end
       where "id" = ? returning "locked_until"`,
      [maxFailures, lockUntil.toISOString(), id],
    );
    // The raw driver may hand timestamps back as text.
    return row?.locked_until ? new Date(row.locked_until) : undefined;
  }

  async recordSuccess(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.nativeUpdate(OperatorEntity, { id }, { failedSignIns: 0, lockedUntil: null, lastSignInAt: at });
  }

  async createSession(em: EntityManager, session: { tokenHash: string; operatorId: string; expiresAt: Date; source: string }): Promise<void> {
    const now = new Date();
    await em.insert(OperatorSessionEntity, { id: randomUUID(), ...session, createdAt: now, lastSeenAt: now, revokedAt: null });
  }

  /** The live session with this token hash and its operator, or undefined. */
  async session(em: EntityManager, tokenHash: string): Promise<{ id: string; lastSeenAt: Date; expiresAt: Date; operator: Operator } | undefined> {
    const session = await em.findOne(OperatorSessionEntity, { tokenHash, revokedAt: null }, WRITE);
    if (!session) return undefined;
    const operator = await this.get(em, session.operatorId);
    return operator && { id: session.id, lastSeenAt: session.lastSeenAt, expiresAt: session.expiresAt, operator };
  }

  async touchSession(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.nativeUpdate(OperatorSessionEntity, { id }, { lastSeenAt: at });
  }

  async revokeSession(em: EntityManager, tokenHash: string, at: Date): Promise<void> {
    await em.nativeUpdate(OperatorSessionEntity, { tokenHash, revokedAt: null }, { revokedAt: at });
  }

  /** Ends every session of an operator (disabled, password changed, role changed). */
  async revokeSessionsOf(em: EntityManager, operatorId: string, at: Date): Promise<void> {
    await em.nativeUpdate(OperatorSessionEntity, { operatorId, revokedAt: null }, { revokedAt: at });
  }
}
