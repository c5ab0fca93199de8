import type { OperatorCredentials } from '../db/operatorsRepository.js';
import { signInKey } from '../db/operatorsRepository.js';
import type { Operator } from '../domain/types.js';
import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { qrPng } from '../lib/pixQrCode.js';
import { base32Decode, base32Encode, matchTotp, newTotpSecret, otpauthUri } from '../lib/totp.js';
import type { Principal } from './access.js';
import type { OperatorsDeps, SessionPolicy } from './operators.js';
import { lockedOut } from './signInLock.js';

/** The name authenticator apps show beside the operator's e-mail. */
export const TOTP_ISSUER = 'Payment Gateway';

export interface TotpEnrollment {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

/**
 * Whether a code is right for an operator with two-step verification on, spending its step when it is: the same code
 * (or an older one) is refused from then on, even by a sign-in racing this one.
 */
export async function spendTotpCode(deps: OperatorsDeps, operator: OperatorCredentials, code: string, now: number): Promise<boolean> {
  if (!operator.totpSecretSealed) return false;
  const step = matchTotp(base32Decode(deps.secrets.open(operator.totpSecretSealed)), code, now, operator.totpLastStep ?? -1);
  return step !== undefined && deps.operators.spendTotpStep(deps.db.em(), operator.id, step);
}

/** A bad code, beside its field, with the reason the back-office has a text for. */
const wrongCode = (message: string) => new GatewayError('INVALID_ARGUMENT', message, { field: 'code', reason: 'WRONG_TOTP_CODE' });

function withoutSecrets({ passwordHash: _hash, totpSecretSealed: _secret, totpLastStep: _step, ...operator }: OperatorCredentials): Operator {
  return operator;
}

/** The signed-in operator's own two-step verification: begin, confirm with a code, disable with a code. */
export class OperatorTotpService {
  constructor(
    private readonly deps: OperatorsDeps,
    private readonly policy: SessionPolicy,
  ) {}

  private em() {
    return this.deps.db.em();
  }

  private async self(principal: Principal): Promise<OperatorCredentials> {
    if (principal.kind !== 'operator') throw new GatewayError('FAILED_PRECONDITION', 'only an operator signed in to the back-office has two-step verification');
    const found = await this.deps.operators.credentialsOf(this.em(), principal.id);
    if (!found) throw notFound(`operator ${principal.id} not found`);
    return found;
  }

  /** A new secret, kept pending (sealed) until confirmed; answered this once, with its otpauth URI and QR code. */
  async begin(principal: Principal): Promise<TotpEnrollment> {
    const operator = await this.self(principal);
    if (operator.totpEnabled)
      throw new GatewayError('FAILED_PRECONDITION', 'two-step verification is already on: disable it first', { reason: 'TOTP_ALREADY_ENABLED' });
    const secret = newTotpSecret();
    await this.deps.operators.setPendingTotp(this.em(), operator.id, this.deps.secrets.seal(base32Encode(secret)));
    const uri = otpauthUri(secret, TOTP_ISSUER, operator.email);
    return { secret: base32Encode(secret), otpauthUri: uri, qrCode: `data:image/png;base64,${qrPng(uri, 4).toString('base64')}` };
  }

  /** Turns two-step verification on with a current code of the secret begun; that code cannot sign in afterwards. */
  async confirm(principal: Principal, code: string): Promise<Operator> {
    const operator = await this.self(principal);
    if (operator.totpEnabled) throw new GatewayError('FAILED_PRECONDITION', 'two-step verification is already on', { reason: 'TOTP_ALREADY_ENABLED' });
    const pending = await this.deps.operators.pendingTotp(this.em(), operator.id);
    if (!pending) throw new GatewayError('FAILED_PRECONDITION', 'begin the enrollment first', { reason: 'TOTP_NOT_BEGUN' });
    if (!code.trim()) throw invalidArgument('code', 'code is required', 'REQUIRED');
    const step = matchTotp(base32Decode(this.deps.secrets.open(pending)), code, Date.now());
    if (step === undefined) throw wrongCode('code is not a current code of the secret begun');
    if (!(await this.deps.operators.enableTotp(this.em(), operator.id, pending, step)))
      throw new GatewayError('FAILED_PRECONDITION', 'another enrollment was begun since: confirm with its code', { reason: 'TOTP_NOT_BEGUN' });
    return { ...withoutSecrets(operator), totpEnabled: true };
  }

  /**
   * Turns the operator's own two-step verification off with a current code. A wrong code counts as a failed sign-in
   * of the e-mail, so a stolen session cannot guess codes faster than the sign-in form could.
   */
  async disable(principal: Principal, code: string): Promise<Operator> {
    const operator = await this.self(principal);
    if (!operator.totpEnabled) throw new GatewayError('FAILED_PRECONDITION', 'two-step verification is not on', { reason: 'TOTP_NOT_ENABLED' });
    const key = signInKey(operator.email);
    const now = Date.now();
    const lockedUntil = await this.deps.operators.signInLock(this.em(), key);
    if (lockedUntil && lockedUntil.getTime() > now) throw lockedOut(lockedUntil.getTime() - now);
    if (!code.trim()) throw invalidArgument('code', 'code is required', 'REQUIRED');
    if (!(await spendTotpCode(this.deps, operator, code, now))) {
      await this.deps.operators.recordFailure(this.em(), key, this.policy.maxFailures, new Date(now + this.policy.lockMs), new Date(now));
      throw wrongCode('code is wrong or was already used');
    }
    await this.deps.operators.clearTotp(this.em(), operator.id);
    return { ...withoutSecrets(operator), totpEnabled: false };
  }
}
