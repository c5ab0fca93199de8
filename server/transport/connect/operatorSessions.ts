import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../../gateway/access.js';
import type { AccessService } from '../../gateway/accessControl.js';
import type { OperatorsService } from '../../gateway/operators.js';
import { GatewayError, isGatewayError } from '../../lib/errors.js';
import type { Logger } from '../../lib/logger.js';
import { isCrossOrigin } from './webSecurity.js';
import { BodyTooLarge, readLimitedBody } from '../../lib/httpServer.js';
import type { TokenBuckets } from '../../lib/tokenBuckets.js';

/**
 * Operators' sign-in on the Connect port, for the back-office served there:
 *
 * - POST /auth/sign-in {email, password, totpCode?}: sets the session cookie (HttpOnly,
 *   SameSite=Strict, Secure over TLS or with SESSION_COOKIE_SECURE) and answers
 *   the operator and the CSRF token;
 * - GET /auth/session: the signed-in operator and the CSRF token again (a
 *   reloaded page keeps neither);
 * - POST /auth/sign-out: ends the session and clears the cookie.
 *
 * RPCs made with the cookie must carry the CSRF token in `x-csrf-token` and
 * come from this origin; bearer tokens need neither.
 */
export const SESSION_COOKIE = 'gw_session';
export const CSRF_HEADER = 'x-csrf-token';
const MAX_SIGN_IN_BYTES = 8 * 1024;

export interface SessionOptions {
  operators: OperatorsService;
  access: AccessService;
  logger: Logger;
  secureCookie: boolean;
  /** Sign-in attempts per caller address, so that guessing across many operators' passwords from one place is slow too. */
  signInsByAddress: TokenBuckets;
}

export function sessionCookie(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

export type SessionCheck = { principal: Principal } | { refused: GatewayError } | undefined;

/** The operator behind a cookie-authenticated call, refused without the CSRF token or from another origin; undefined without a live session. */
export async function operatorOfCall(req: IncomingMessage, options: SessionOptions): Promise<SessionCheck> {
  const token = sessionCookie(req);
  if (!token) return undefined;
  const found = await options.operators.authenticate(token);
  if (!found) return undefined;
  const csrf = req.headers[CSRF_HEADER];
  if (isCrossOrigin(req) || typeof csrf !== 'string' || !options.operators.csrfTokenMatches(token, csrf))
    return {
      refused: new GatewayError('PERMISSION_DENIED', `a call with the session cookie needs the ${CSRF_HEADER} header from this origin`, { reason: 'CSRF' }),
    };
  return { principal: found.principal };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw: Buffer;
  try {
    raw = await readLimitedBody(req, MAX_SIGN_IN_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new GatewayError('INVALID_ARGUMENT', `the body must be at most ${MAX_SIGN_IN_BYTES} bytes`);
    throw error;
  }
  try {
    const body = JSON.parse(raw.toString('utf8'));
    if (body && typeof body === 'object' && !Array.isArray(body)) return body;
  } catch {
    // answered below
  }
  throw new GatewayError('INVALID_ARGUMENT', 'the body must be a JSON object {"email": …, "password": …}');
}

const STATUS: Partial<Record<string, number>> = { INVALID_ARGUMENT: 400, UNAUTHENTICATED: 401, PERMISSION_DENIED: 403, RESOURCE_EXHAUSTED: 429 };

function cookie(value: string, maxAgeSeconds: number, req: IncomingMessage, secureSetting: boolean): string {
  const secure = secureSetting || (req.socket as { encrypted?: boolean }).encrypted === true;
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

const operatorView = (operator: { id: string; email: string; role: string; totpEnabled: boolean }) => ({
  id: operator.id,
  email: operator.email,
  role: operator.role,
  totpEnabled: operator.totpEnabled,
});

/** Answers /auth/… requests; false when the path is not one of them. */
export function handleSessionRoute(req: IncomingMessage, res: ServerResponse, path: string, options: SessionOptions): boolean {
  if (!path.startsWith('/auth/')) return false;
  const source = req.socket.remoteAddress ?? '';
  const audit = (action: string, actor: { id: string; name: string }, outcome: string, detail = '') =>
    options.access.record({ actorKind: 'operator', actorId: actor.id, actorName: actor.name, action, resource: actor.id, source, outcome, detail });
  const fail = (error: unknown) => {
    if (!isGatewayError(error) || !STATUS[error.code]) {
      options.logger.error({ err: error, path }, 'operator session request failed');
      return json(res, 500, { code: 'internal', message: 'internal error' });
    }
    const retry: Record<string, string> =
      error.details.retryAfterMs === undefined ? {} : { 'retry-after': String(Math.ceil(error.details.retryAfterMs / 1000)) };
    const reason = error.details.reason ? { reason: error.details.reason } : {};
    json(res, STATUS[error.code]!, { code: error.code.toLowerCase(), message: error.message, ...reason }, retry);
  };

  const route = `${req.method} ${path}`;
  const run = async () => {
    switch (route) {
      case 'POST /auth/sign-in': {
        if (isCrossOrigin(req)) throw new GatewayError('PERMISSION_DENIED', 'sign in from the back-office of this address');
        const wait = options.signInsByAddress.take(source);
        if (wait > 0)
          throw new GatewayError('RESOURCE_EXHAUSTED', `too many sign-in attempts from this address: try again in ${wait} s`, {
            reason: 'RATE_LIMITED',
            retryAfterMs: wait * 1000,
          });
        const body = await readJson(req);
        const email = typeof body.email === 'string' ? body.email : '';
        const password = typeof body.password === 'string' ? body.password : '';
        const totpCode = typeof body.totpCode === 'string' ? body.totpCode : '';
        try {
          const signedIn = await options.operators.signIn(email, password, source, totpCode);
          await audit('auth/SignIn', { id: signedIn.operator.id, name: signedIn.operator.email }, 'OK');
          const maxAge = Math.floor((signedIn.expiresAt.getTime() - Date.now()) / 1000);
          return json(
            res,
            200,
            {
              operator: operatorView(signedIn.operator),
              csrfToken: signedIn.csrfToken,
              totpEnrollmentRequired: options.operators.totpEnrollmentRequired(signedIn.operator),
            },
            { 'set-cookie': cookie(signedIn.sessionToken, maxAge, req, options.secureCookie) },
          );
        } catch (error) {
          await audit(
            'auth/SignIn',
            { id: '', name: email.trim().toLowerCase().slice(0, 254) },
            isGatewayError(error) ? error.code : 'INTERNAL',
            isGatewayError(error) ? error.message : '',
          );
          throw error;
        }
      }
      case 'GET /auth/session': {
        const token = sessionCookie(req);
        const found = token ? await options.operators.authenticate(token) : undefined;
        if (!token || !found) throw new GatewayError('UNAUTHENTICATED', 'not signed in');
        return json(res, 200, {
          operator: operatorView(found.operator),
          csrfToken: options.operators.csrfToken(token),
          totpEnrollmentRequired: found.principal.totpEnrollmentRequired === true,
        });
      }
      case 'POST /auth/sign-out': {
        const check = await operatorOfCall(req, options);
        if (!check) throw new GatewayError('UNAUTHENTICATED', 'not signed in');
        if ('refused' in check) throw check.refused;
        await options.operators.signOut(sessionCookie(req)!);
        await audit('auth/SignOut', { id: check.principal.id, name: check.principal.name }, 'OK');
        res.writeHead(204, { 'set-cookie': cookie('', 0, req, options.secureCookie), 'cache-control': 'no-store' }).end();
        return;
      }
      default:
        return json(res, 404, { code: 'not_found', message: 'not found: POST /auth/sign-in, GET /auth/session, POST /auth/sign-out' });
    }
  };
  run().catch(fail);
  return true;
}
