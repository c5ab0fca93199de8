import { Code, ConnectError, type Interceptor, type Transport } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-web';

/** The signed-in operator, as GET /auth/session and POST /auth/sign-in answer. */
export interface Session {
  operator: { id: string; email: string; role: string; totpEnabled?: boolean };
  csrfToken: string;
  /** An admin who must turn two-step verification on before anything else (OPERATOR_TOTP_REQUIRED_FOR_ADMINS). */
  totpEnrollmentRequired?: boolean;
}

/** A refused sign-in, with the gateway's reason (TOTP_REQUIRED, WRONG_TOTP_CODE, …) for the catalogue's text. */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly reason: string | undefined,
    /** What the catalogue's text for the reason may quote, as ErrorInfo metadata would carry it (retryAfterMs). */
    readonly metadata: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/**
 * The Connect transport for the gateway that serves this page. The session
 * cookie (HttpOnly: this code never sees it) goes with every call by itself;
 * the CSRF token, held in memory only, goes in x-csrf-token. A call answered
 * UNAUTHENTICATED (the session ended: idle, expired, signed out elsewhere)
 * calls onUnauthenticated, which returns to the sign-in form.
 */
export function createGatewayTransport(csrfToken: string, onUnauthenticated: () => void): Transport {
  const session: Interceptor = (next) => async (req) => {
    req.header.set('x-csrf-token', csrfToken);
    try {
      return await next(req);
    } catch (err) {
      if (ConnectError.from(err).code === Code.Unauthenticated) onUnauthenticated();
      throw err;
    }
  };
  return createConnectTransport({ baseUrl: window.location.origin, interceptors: [session] });
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { message?: string; reason?: string };
  if (!response.ok) {
    // A lock-out or a rate limit says how long to wait in Retry-After (whole seconds).
    const retryAfter = Number(response.headers.get('retry-after'));
    const metadata: Record<string, string> = retryAfter > 0 ? { retryAfterMs: String(retryAfter * 1000) } : {};
    throw new SignInError(body.message ?? `HTTP ${response.status}`, body.reason, metadata);
  }
  return body as T;
}

/** The current session, or null when not signed in. */
export async function currentSession(): Promise<Session | null> {
  const response = await fetch('/auth/session', { cache: 'no-store' });
  return response.status === 401 ? null : answer<Session>(response);
}

/** `totpCode` only once the gateway asked for it (TOTP_REQUIRED). */
export async function signIn(email: string, password: string, totpCode?: string): Promise<Session> {
  const body = JSON.stringify(totpCode === undefined ? { email, password } : { email, password, totpCode });
  return answer<Session>(await fetch('/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
}

export async function signOut(csrfToken: string): Promise<void> {
  await fetch('/auth/sign-out', { method: 'POST', headers: { 'x-csrf-token': csrfToken } });
}
