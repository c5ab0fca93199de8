import { createHash } from 'node:crypto';
import { GatewayError } from '../../lib/errors.js';
import { ProviderCallError, type AuthStyle, type ProviderHttp, type ProviderResponse } from '../../lib/http/index.js';
import { isRecord } from '../../lib/json.js';
import { CATALOGUE, type CatalogueKey } from '../../lib/providerMessages.js';
import { textOf } from '../../lib/values.js';
import type { Operation } from '../../domain/types.js';
import type { AdapterContext } from '../adapter.js';
import type { ProviderDeclaration } from './declaration.js';
import { DeclaredAdapter } from './declaredAdapter.js';

/**
 * A session token from a provider's own login call, for providers whose auth is
 * not OAuth2 (Veltrax's POST /api/auth/login {client_id, client_secret}, Lexxen's
 * POST /auth {cnpj, public_key}, Witetec's POST /withdrawals/auth {email,
 * password}, doc 3 §7): POST the credentials with the provider's declared auth
 * (none, or Witetec's x-api-key), read the token from the answer, send it as a bearer token. Written once here
 * for every such provider.
 *
 * The token is cached per account, host, path and credentials until a JWT's
 * `exp` (one minute early), else `lifetimeSeconds` (default 10 minutes: none of
 * these providers documents a lifetime), and forgotten when the provider
 * refuses it (401/403), so the next call logs in again.
 */
export interface LoginStyle {
  /** The login call's path. */
  path: string;
  /** Its JSON body (the account's credentials). */
  body: Record<string, string>;
  /** Headers the login call alone carries (FIREBANK's `X-SSL-Client-Cert`); part of the cached session's identity. */
  headers?: Record<string, string>;
  /** The spec's text when the provider refuses the login (a 4xx answer); default: the operation's own failure. */
  refused?: CatalogueKey;
  lifetimeSeconds?: number;
}

const DEFAULT_LIFETIME_S = 600;
const MARGIN_MS = 60_000;

const sessions = new Map<string, { token: string; renewAt: number }>();

/** The token a login answer carries: `token` (F5), `access_token`, `accessToken`, or those under `data`. */
export function loginAnswerToken(answer: unknown): string | undefined {
  if (!isRecord(answer)) return undefined;
  const own = textOf(answer.token) ?? textOf(answer.access_token) ?? textOf(answer.accessToken);
  return own ?? (isRecord(answer.data) ? loginAnswerToken(answer.data) : undefined);
}

/** A JWT's expiry (ms), when the token is one. */
function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload || token.split('.').length !== 3) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

const refusedStatus = (error: unknown): number | undefined => {
  const status = (error as { response?: { status?: unknown } })?.response?.status;
  return typeof status === 'number' ? status : undefined;
};

export class LoginSession {
  private readonly key: string;

  /** `http` is the provider's client with its declared auth only (no token); `accountKey` names the account (its id and host). */
  constructor(
    private readonly http: ProviderHttp,
    accountKey: string,
    private readonly style: LoginStyle,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHash('sha256')
      .update([accountKey, style.path, JSON.stringify(style.body), JSON.stringify(style.headers ?? {})].join('\0'))
      .digest('hex');
  }

  /** The cached token, else a new login. A refused login is the spec's text (`refused`) or the provider's failure; an answer without a token is UNAVAILABLE. */
  async token(): Promise<string> {
    const cached = sessions.get(this.key);
    if (cached && this.now() < cached.renewAt) return cached.token;
    let answer: unknown;
    try {
      answer = (await this.http.post<unknown>(this.style.path, this.style.body, this.style.headers ? { headers: this.style.headers } : undefined)).data;
    } catch (error) {
      const status = refusedStatus(error);
      if (this.style.refused && status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
        const text = CATALOGUE[this.style.refused];
        throw new GatewayError(text.code, text.message, { reason: this.style.refused, outcome: 'failed' });
      }
      throw error;
    }
    const token = loginAnswerToken(answer);
    if (!token) throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_TOKEN_RESPONSE', 'the login answered without a token', 'failed');
    const lifetimeMs = (this.style.lifetimeSeconds ?? DEFAULT_LIFETIME_S) * 1000;
    const expiresAt = jwtExpiry(token) ?? this.now() + lifetimeMs;
    sessions.set(this.key, { token, renewAt: Math.max(this.now(), expiresAt - MARGIN_MS) });
    return token;
  }

  /** One call with the session's token; a 401/403 forgets the token (the provider no longer takes it). */
  async call<T>(send: (token: string) => Promise<T>): Promise<T> {
    const token = await this.token();
    try {
      return await send(token);
    } catch (error) {
      const status = refusedStatus(error);
      if (status === 401 || status === 403) this.forget(token);
      throw error;
    }
  }

  forget(token: string): void {
    if (sessions.get(this.key)?.token === token) sessions.delete(this.key);
  }
}

/** Forgets every session (tests). */
export function clearLoginSessions(): void {
  sessions.clear();
}

/**
 * One provider call with the account's login token, what an adapter's
 * operations do: `client()` is the provider's HTTP client with its declared auth
 * (for the login), `client(auth)` the same with the session's bearer token
 * instead.
 */
export function callWithLogin<T>(
  client: (auth?: { auth: AuthStyle }) => ProviderHttp,
  account: { accountId: string; baseUrl: string },
  style: LoginStyle,
  now: () => number,
  send: (http: ProviderHttp) => Promise<T>,
): Promise<T> {
  const session = new LoginSession(client(), `${account.accountId}\0${account.baseUrl}`, style, now);
  return session.call((token) => send(client({ auth: { type: 'bearer', token: () => token } })));
}

/** An adapter whose provider logs in (Veltrax, Lexxen, Witetec's payouts): it says how (`login`), and its operations call through `loginCall`. */
export abstract class LoginTokenAdapter<D extends ProviderDeclaration = ProviderDeclaration> extends DeclaredAdapter<D> {
  /** The login call's path (also shown in the provider catalogue). */
  protected abstract readonly loginPath: string;

  /** The login call for this account's credentials, at `loginPath` (asynchronous where it needs something fetched first, e.g. a certificate). */
  protected abstract login(ctx: AdapterContext): LoginStyle | Promise<LoginStyle>;

  /** The catalogue names the login beside the declared auth: the session's token is what authenticates the calls. */
  override get catalogue(): DeclaredAdapter<D>['catalogue'] & { session: string } {
    return { ...super.catalogue, session: this.loginPath };
  }

  /** One HTTP exchange of `operation` with the session's bearer token; its failure is the operation's (`failure`). */
  protected loginCall<T>(ctx: AdapterContext, operation: Operation, send: (http: ProviderHttp) => Promise<ProviderResponse<T>>): Promise<T> {
    return this.exchange(operation, this.prefixFor(operation), async () =>
      callWithLogin(
        (auth) => this.http(ctx, auth),
        ctx,
        await this.login(ctx),
        () => this.now().getTime(),
        send,
      ),
    );
  }
}
