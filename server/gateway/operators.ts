import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/orm.js';
import { signInKey, type OperatorsRepository } from '../db/operatorsRepository.js';
import type { Operator } from '../domain/types.js';
import { GatewayError, invalidArgument, isGatewayError, notFound } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import { hashPassword, UNMATCHABLE_HASH, verifyPassword } from '../lib/passwords.js';
import type { SecretBox } from '../lib/secretBox.js';
import { isRole, rolePrincipal, type Principal, type Role } from './access.js';
import { spendTotpCode } from './operatorTotp.js';
import { lockedOut } from './signInLock.js';
import { isEmailAddress, requireEmail, requireLength, unknownValue } from './validation.js';

export interface SessionPolicy {
  /** A session unused this long ends (SESSION_IDLE_MINUTES). */
  idleMs: number;
  /** A session ends this long after sign-in, used or not (SESSION_MAX_HOURS). */
  absoluteMs: number;
  /** Failed sign-ins in a row before the operator is locked out (SIGN_IN_MAX_FAILURES). */
  maxFailures: number;
  /** How long a lock-out lasts (SIGN_IN_LOCK_MINUTES). */
  lockMs: number;
  /** Admins must turn two-step verification on before doing anything else (OPERATOR_TOTP_REQUIRED_FOR_ADMINS). */
  totpRequiredForAdmins?: boolean;
}

export interface OperatorsDeps {
  db: Database;
  operators: OperatorsRepository;
  /**
   * Sign CSRF tokens, which are derived from the session token and so need no storage; the same in every process and
   * across restarts. The first signs; during a rotation of SECRETS_KEY the other key's tokens are still accepted.
   */
  csrfKeys: readonly [Buffer, ...Buffer[]];
  logger: Logger;
  /** Opens operators' sealed TOTP secrets. */
  secrets: SecretBox;
}

export const PASSWORD_MIN = 12;
const PASSWORD_MAX = 256;
const TOUCH_RESOLUTION_MS = 60_000;
/** How long an e-mail's failed sign-ins are remembered without another attempt (its lock, if any, over), and how often they are looked for. */
const FAILURES_KEPT_MS = 30 * 24 * 3_600_000;
const FORGET_EVERY_MS = 3_600_000;
export const WRONG_CREDENTIALS = 'wrong e-mail or password';
export const TOTP_REQUIRED = 'a code from the authenticator app is required';
export const WRONG_TOTP_CODE = 'wrong or already used code';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Length, and not the e-mail (the first thing a guesser tries). `field` names the request field in the error. */
function checkPassword(password: string, email: string, field = 'password'): void {
  requireLength(field, password, PASSWORD_MIN, PASSWORD_MAX, `${field} must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`);
  if (password.trim().toLowerCase() === email) throw invalidArgument(field, `${field} must not be the operator's e-mail`, 'PASSWORD_IS_EMAIL');
}

/** A password the gateway makes up (invitations and resets): 144 random bits, 24 characters of base64url. */
const madeUpPassword = () => randomBytes(18).toString('base64url');

function checkRole(role: string): Role {
  if (!isRole(role)) throw unknownValue('role', 'role must be admin, operator or viewer');
  return role;
}

export function normaliseEmail(email: string): string {
  return requireEmail('email', email.toLowerCase());
}

export interface SignedIn {
  operator: Operator;
  /** The session cookie's value; only its hash is kept. */
  sessionToken: string;
  csrfToken: string;
  expiresAt: Date;
}

/** Operators of the back-office: accounts, passwords, sign-in with lock-out, and sessions. */
export class OperatorsService {
  constructor(
    private readonly deps: OperatorsDeps,
    private readonly policy: SessionPolicy,
  ) {}

  private em() {
    return this.deps.db.em();
  }

  /** Creates an operator; without a password, with one made up and answered once (`initialPassword`). */
  async create(input: { email: string; role: string; password: string }): Promise<Operator & { initialPassword?: string }> {
    const email = normaliseEmail(input.email);
    const role = checkRole(input.role);
    const initialPassword = input.password ? undefined : madeUpPassword();
    const password = initialPassword ?? input.password;
    checkPassword(password, email);
    const taken = () =>
      new GatewayError('ALREADY_EXISTS', `an operator with e-mail ${email} already exists`, { field: 'email', reason: 'OPERATOR_EMAIL_TAKEN' });
    if (await this.deps.operators.byEmail(this.em(), email)) throw taken();
    // Another creation with this e-mail may have got in since the look-up (the password's hashing takes a while): the unique index decides.
    const created = await this.deps.operators.create(this.em(), { email, role, passwordHash: await hashPassword(password) });
    if (!created) throw taken();
    return initialPassword ? { ...created, initialPassword } : created;
  }

  /** Creates the first admin when there is no operator at all; undefined when there already is one. */
  async ensureFirstAdmin(email: string, password: string): Promise<Operator | undefined> {
    if ((await this.deps.operators.count(this.em())) > 0) return undefined;
    // Two processes starting at once on an empty database: the one that loses the race has nothing to create.
    return this.create({ email, role: 'admin', password }).catch((error: unknown) => {
      if (isGatewayError(error) && error.code === 'ALREADY_EXISTS') return undefined;
      throw error;
    });
  }

  list(): Promise<Operator[]> {
    return this.deps.operators.list(this.em());
  }

  /**
   * Changes role, disables, sets a new password (`resetPassword`: one made up, answered once as `generatedPassword`) or
   * turns two-step verification off (`resetTotp`, a lost phone); each ends the operator's sessions. The last active admin stays.
   */
  async update(
    id: string,
    patch: { role?: string; disabled?: boolean; password?: string; resetPassword?: boolean; resetTotp?: boolean },
  ): Promise<{ operator: Operator; generatedPassword?: string }> {
    const current = await this.deps.operators.get(this.em(), id);
    if (!current) throw notFound(`operator ${id} not found`);
    const role = patch.role === undefined ? undefined : checkRole(patch.role);
    if (patch.resetPassword && patch.password !== undefined)
      throw invalidArgument('reset_password', 'reset_password and password cannot both be set', 'NOT_ALLOWED');
    const generatedPassword = patch.resetPassword ? madeUpPassword() : undefined;
    const password = generatedPassword ?? patch.password;
    if (password !== undefined) checkPassword(password, current.email);
    const losesAdmin = current.role === 'admin' && !current.disabled && ((role && role !== 'admin') || patch.disabled === true);
    if (losesAdmin && (await this.deps.operators.countActiveAdmins(this.em())) <= 1)
      throw new GatewayError('FAILED_PRECONDITION', 'the last active admin cannot be disabled or given another role', { reason: 'LAST_ACTIVE_ADMIN' });
    if (patch.resetTotp) await this.deps.operators.clearTotp(this.em(), id);
    const updated = await this.deps.operators.update(this.em(), id, {
      role,
      disabled: patch.disabled,
      passwordHash: password === undefined ? undefined : await hashPassword(password),
    });
    await this.deps.operators.revokeSessionsOf(this.em(), id, new Date());
    return { operator: updated!, ...(generatedPassword ? { generatedPassword } : {}) };
  }

  /**
   * An operator's own new password, given the current one. A wrong current password counts as a failed sign-in of the
   * e-mail (a stolen session cannot guess it faster than the sign-in form could); ends every session of the operator.
   */
  async changeOwnPassword(principal: Principal, currentPassword: string, newPassword: string): Promise<void> {
    if (principal.kind !== 'operator') throw new GatewayError('FAILED_PRECONDITION', 'only an operator signed in to the back-office has a password to change');
    const found = await this.deps.operators.byEmail(this.em(), principal.name);
    if (!found || found.id !== principal.id) throw notFound(`operator ${principal.id} not found`);
    const key = signInKey(found.email);
    const now = Date.now();
    const lockedUntil = await this.deps.operators.signInLock(this.em(), key);
    if (lockedUntil && lockedUntil.getTime() > now) throw lockedOut(lockedUntil.getTime() - now);
    if (!currentPassword) throw invalidArgument('current_password', 'current_password is required', 'REQUIRED');
    if (!(await verifyPassword(currentPassword.slice(0, PASSWORD_MAX), found.passwordHash))) {
      await this.deps.operators.recordFailure(this.em(), key, this.policy.maxFailures, new Date(now + this.policy.lockMs), new Date(now));
      throw invalidArgument('current_password', "current_password is not the operator's current password", 'WRONG_PASSWORD');
    }
    checkPassword(newPassword, found.email, 'new_password');
    if (newPassword === currentPassword) throw invalidArgument('new_password', 'new_password must differ from the current password', 'SAME_PASSWORD');
    await this.deps.operators.update(this.em(), found.id, { passwordHash: await hashPassword(newPassword) });
    await this.deps.operators.revokeSessionsOf(this.em(), found.id, new Date());
  }

  /**
   * Signs in. Unknown e-mail, wrong password and disabled operator all answer the same and take as long: the same
   * look-ups, a password checked against a hash (an unknown e-mail's is one nothing matches) and the same failure
   * counted per e-mail, an operator's or not. After `maxFailures` in a row the e-mail is locked for `lockMs`, whatever
   * the password, so the lock-out does not tell which e-mails are operators either.
   */
  async signIn(email: string, password: string, source: string, totpCode = ''): Promise<SignedIn> {
    const typed = email.trim().toLowerCase();
    const key = signInKey(typed);
    const [found, lockedUntil] = await Promise.all([
      isEmailAddress(typed) ? this.deps.operators.byEmail(this.em(), typed) : undefined,
      this.deps.operators.signInLock(this.em(), key),
    ]);
    const now = Date.now();
    if (lockedUntil && lockedUntil.getTime() > now) throw lockedOut(lockedUntil.getTime() - now);
    const matches = await verifyPassword(password.slice(0, PASSWORD_MAX), found?.passwordHash ?? UNMATCHABLE_HASH);
    if (!found || !matches || found.disabled) {
      this.forgetOldFailures(now);
      throw await this.failedSignIn(key, now, source, found?.id, new GatewayError('UNAUTHENTICATED', WRONG_CREDENTIALS, { reason: 'WRONG_CREDENTIALS' }));
    }
    if (found.totpEnabled) {
      // Asked for only now that the password matched: without it, this answer says nothing more than a wrong one.
      if (!totpCode.trim()) throw new GatewayError('UNAUTHENTICATED', TOTP_REQUIRED, { reason: 'TOTP_REQUIRED' });
      if (!(await spendTotpCode(this.deps, found, totpCode, now)))
        throw await this.failedSignIn(key, now, source, found.id, new GatewayError('UNAUTHENTICATED', WRONG_TOTP_CODE, { reason: 'WRONG_TOTP_CODE' }));
    }
    await this.deps.operators.recordSuccess(this.em(), found.id, key, new Date(now));
    const sessionToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now + this.policy.absoluteMs);
    await this.deps.operators.createSession(this.em(), { tokenHash: sha256(sessionToken), operatorId: found.id, expiresAt, source });
    const { passwordHash: _hash, totpSecretSealed: _secret, totpLastStep: _step, ...operator } = found;
    return { operator: { ...operator, lastSignInAt: new Date(now) }, sessionToken, csrfToken: this.csrfToken(sessionToken), expiresAt };
  }

  /** Counts a failed sign-in of the e-mail: the lock-out's answer when this one locked it, else `failure`. */
  private async failedSignIn(key: string, now: number, source: string, operatorId: string | undefined, failure: GatewayError): Promise<GatewayError> {
    const locked = await this.deps.operators.recordFailure(this.em(), key, this.policy.maxFailures, new Date(now + this.policy.lockMs), new Date(now));
    if (!locked || locked.getTime() <= now) return failure;
    this.deps.logger.warn({ ...(operatorId ? { operatorId } : {}), source }, 'e-mail locked out after repeated failed sign-ins');
    return lockedOut(locked.getTime() - now);
  }

  private lastForgotten = 0;

  /**
   * Failures of e-mails tried and then left alone (a stranger's guesses never end in a success that clears them) are
   * forgotten after FAILURES_KEPT_MS, once the lock they earned is over: looked for at most once an hour, beside the
   * sign-in that notices it is time, which does not wait for it.
   */
  private forgetOldFailures(now: number): void {
    if (now - this.lastForgotten < FORGET_EVERY_MS) return;
    this.lastForgotten = now;
    this.deps.operators.forgetSignInFailures(this.em(), new Date(now - FAILURES_KEPT_MS)).catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'old sign-in failures could not be forgotten; tried again in an hour');
    });
  }

  /** The CSRF token that goes with a session: the back-office sends it in `x-csrf-token` with every call. */
  csrfToken(sessionToken: string): string {
    return csrfTokenUnder(this.deps.csrfKeys[0], sessionToken);
  }

  /** Whether a call's CSRF token goes with its session, under any of this process's keys (compared in constant time). */
  csrfTokenMatches(sessionToken: string, csrfToken: string): boolean {
    const given = Buffer.from(csrfToken);
    return this.deps.csrfKeys.some((key) => {
      const expected = Buffer.from(csrfTokenUnder(key, sessionToken));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }

  /** The operator behind a live session token (not signed out, not idle too long, not past its absolute expiry, not disabled). */
  async authenticate(sessionToken: string): Promise<{ principal: Principal; operator: Operator } | undefined> {
    const session = await this.deps.operators.session(this.em(), sha256(sessionToken));
    const now = Date.now();
    if (!session || session.operator.disabled || !isRole(session.operator.role)) return undefined;
    if (now >= session.expiresAt.getTime() || now - session.lastSeenAt.getTime() >= this.policy.idleMs) return undefined;
    if (now - session.lastSeenAt.getTime() >= TOUCH_RESOLUTION_MS) await this.deps.operators.touchSession(this.em(), session.id, new Date(now));
    const { operator } = session;
    const principal = rolePrincipal('operator', operator.id, operator.email, operator.role as Role);
    if (this.totpEnrollmentRequired(operator)) principal.totpEnrollmentRequired = true;
    return { principal, operator };
  }

  /** An admin without two-step verification while OPERATOR_TOTP_REQUIRED_FOR_ADMINS is on: signed in, but may only enroll. */
  totpEnrollmentRequired(operator: Operator): boolean {
    return this.policy.totpRequiredForAdmins === true && operator.role === 'admin' && !operator.totpEnabled;
  }

  signOut(sessionToken: string): Promise<void> {
    return this.deps.operators.revokeSession(this.em(), sha256(sessionToken), new Date());
  }
}

const csrfTokenUnder = (key: Buffer, sessionToken: string): string => createHmac('sha256', key).update(sessionToken).digest('base64url');
