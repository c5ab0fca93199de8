import { createHash, randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Operator } from '../domain/types.js';
import { isUuid } from '../lib/ids.js';
import { OperatorEntity, OperatorSessionEntity, SignInFailureEntity, type OperatorRow } from './entities.js';

const toOperator = (row: OperatorRow): Operator => ({
  id: row.id,
  email: row.email,
  role: row.role,
  disabled: row.disabled,
  createdAt: row.createdAt,
  lastSignInAt: row.lastSignInAt ?? undefined,
  totpEnabled: row.totpSecretSealed != null,
});

export interface OperatorCredentials extends Operator {
  passwordHash: string;
  /** The TOTP secret, sealed, when two-step verification is on. */
  totpSecretSealed?: string;
  /** The last TOTP step accepted. */
  totpLastStep?: number;
}

/** The key of an e-mail's sign-in failures: the SHA-256 of the e-mail as typed, trimmed and lower-cased (strangers' e-mails are not kept in clear). */
export const signInKey = (email: string): string => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

const credentials = (row: OperatorRow): OperatorCredentials => ({
  ...toOperator(row),
  passwordHash: row.passwordHash,
  ...(row.totpSecretSealed ? { totpSecretSealed: row.totpSecretSealed } : {}),
  ...(row.totpLastStep != null ? { totpLastStep: row.totpLastStep } : {}),
});

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
    const row = {
      id: randomUUID(),
      ...input,
      disabled: false,
      createdAt: new Date(),
      lastSignInAt: null,
      totpSecretSealed: null,
      totpPendingSealed: null,
      totpLastStep: null,
    };
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
    return row ? credentials(row) : undefined;
  }

  async credentialsOf(em: EntityManager, id: string): Promise<OperatorCredentials | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await em.findOne(OperatorEntity, { id }, WRITE);
    return row ? credentials(row) : undefined;
  }

  /** A TOTP secret begun (sealed), replacing any other begun and not confirmed. */
  async setPendingTotp(em: EntityManager, id: string, sealed: string): Promise<void> {
    await em.nativeUpdate(OperatorEntity, { id }, { totpPendingSealed: sealed });
  }

  async pendingTotp(em: EntityManager, id: string): Promise<string | undefined> {
    const row = await em.findOne(OperatorEntity, { id }, { ...WRITE, fields: ['totpPendingSealed'] });
    return row?.totpPendingSealed ?? undefined;
  }

  /** Turns on the secret begun, if it is still the one confirmed (another begin since then wins), with its first code's step spent. */
  async enableTotp(em: EntityManager, id: string, pendingSealed: string, step: number): Promise<boolean> {
    const changed = await em.nativeUpdate(
      OperatorEntity,
      { id, totpPendingSealed: pendingSealed },
      { totpSecretSealed: pendingSealed, totpPendingSealed: null, totpLastStep: step },
    );
    return changed === 1;
  }

  /**
   * Spends a TOTP step: true only when it is later than the last one spent, in one statement, so that of two sign-ins
   * racing with the same code exactly one gets in.
   */
  async spendTotpStep(em: EntityManager, id: string, step: number): Promise<boolean> {
    const changed = await em.nativeUpdate(
      OperatorEntity,
      { id, totpSecretSealed: { $ne: null }, $or: [{ totpLastStep: null }, { totpLastStep: { $lt: step } }] },
      { totpLastStep: step },
    );
    return changed === 1;
  }

  /** Turns two-step verification off, and forgets any secret begun. */
  async clearTotp(em: EntityManager, id: string): Promise<void> {
    await em.nativeUpdate(OperatorEntity, { id }, { totpSecretSealed: null, totpPendingSealed: null, totpLastStep: null });
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

  /** Until when sign-in with this e-mail key is locked out, if it is (whether an operator has the e-mail or not). */
  async signInLock(em: EntityManager, key: string): Promise<Date | undefined> {
    const row = await em.findOne(SignInFailureEntity, { emailHash: key }, { ...WRITE, fields: ['lockedUntil'] });
    return row?.lockedUntil ?? undefined;
  }

  /**
   * Counts a failed sign-in for an e-mail key in one statement (concurrent guesses all count) and locks until
   * `lockUntil` at `maxFailures`; returns the lock's end, if locked. The same statement for every e-mail, an
   * operator's or not.
   */
  async recordFailure(em: EntityManager, key: string, maxFailures: number, lockUntil: Date, at: Date): Promise<Date | undefined> {
    const [row] = await em.getConnection('write').execute<{ locked_until: Date | string | null }[]>(
      `insert into "sign_in_failures" ("email_hash", "failed_sign_ins", "locked_until", "last_failed_at")
       values (?, 1, case when 1 >= ? then ?::timestamptz end, ?)
       on conflict ("email_hash") do update set "failed_sign_ins" = "sign_in_failures"."failed_sign_ins" + 1,
         "locked_until" = case when "sign_in_failures"."failed_sign_ins" + 1 >= ? then ?::timestamptz else "sign_in_failures"."locked_until" end,
         "last_failed_at" = excluded."last_failed_at"
       returning "locked_until"`,
      [key, maxFailures, lockUntil.toISOString(), at.toISOString(), maxFailures, lockUntil.toISOString()],
    );
    // The raw driver may hand timestamps back as text.
    return row?.locked_until ? new Date(row.locked_until) : undefined;
  }

  /** A successful sign-in: the operator's failures in a row start again from none. */
  async recordSuccess(em: EntityManager, id: string, key: string, at: Date): Promise<void> {
    await em.nativeUpdate(OperatorEntity, { id }, { lastSignInAt: at });
    await em.nativeDelete(SignInFailureEntity, { emailHash: key });
  }

  /** Forgets failures last seen before `before` whose lock, if any, is over (e-mails tried once and never again). */
  async forgetSignInFailures(em: EntityManager, before: Date): Promise<number> {
    return em.nativeDelete(SignInFailureEntity, { lastFailedAt: { $lt: before }, $or: [{ lockedUntil: null }, { lockedUntil: { $lt: before } }] });
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
