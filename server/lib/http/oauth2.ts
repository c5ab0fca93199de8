import { createHash } from 'node:crypto';
import type { AxiosRequestConfig, AxiosResponse } from 'axios';
import { resolveKey, type HttpAccount } from './account.js';
import { basicCredentials, type OAuth2Auth } from './auth.js';
import { ProviderCallError } from './providerCallError.js';

const DEFAULT_EXPIRY_MARGIN_MS = 60_000;
/** Lifetime assumed when the token answer carries no expires_in. */
const DEFAULT_LIFETIME_S = 300;

interface CachedToken {
  accessToken: string;
  /** Epoch ms after which the token is no longer used (expiry minus the margin). */
  renewAt: number;
}

/** Tokens by account and credentials: a rotated secret gets a new token at once. */
const tokens = new Map<string, CachedToken>();
/** One token request at a time per account: concurrent calls share it. */
const inFlight = new Map<string, Promise<CachedToken>>();

export type SendRequest = (config: AxiosRequestConfig) => Promise<AxiosResponse>;

interface TokenAnswer {
  access_token?: string;
  accessToken?: string;
  token?: string;
  expires_in?: number | string;
  expiresIn?: number | string;
}

/** Cached tokens of one account for one OAuth2 declaration. */
export class OAuth2Tokens {
  private readonly key: string;
  private readonly clientId: string;
  private readonly clientSecret: string;

  constructor(
    private readonly auth: OAuth2Auth,
    account: HttpAccount,
    private readonly send: SendRequest,
    private readonly now: () => number = Date.now,
  ) {
    this.clientId = resolveKey(auth.clientId ?? 'publicKey', account);
    this.clientSecret = resolveKey(auth.clientSecret ?? 'secretKey', account);
    this.key = createHash('sha256').update([account.accountId, account.baseUrl, auth.tokenPath, this.clientId, this.clientSecret].join('\0')).digest('hex');
  }

  /** A valid access token: the cached one, or a new one from the token endpoint. */
  async get(): Promise<string> {
    const cached = tokens.get(this.key);
    if (cached && this.now() < cached.renewAt) return cached.accessToken;
    let pending = inFlight.get(this.key);
    if (!pending) {
      pending = this.fetch().finally(() => inFlight.delete(this.key));
      inFlight.set(this.key, pending);
    }
    return (await pending).accessToken;
  }

  /** Drops the token the provider refused (unless another call already replaced it). */
  invalidate(accessToken: string): void {
    if (tokens.get(this.key)?.accessToken === accessToken) tokens.delete(this.key);
  }

  private async fetch(): Promise<CachedToken> {
    const { auth } = this;
    const fields: Record<string, string> = { grant_type: 'client_credentials', ...(auth.scope ? { scope: auth.scope } : {}), ...auth.extraFields };
    const headers: Record<string, string> = {};
    if (auth.clientAuth === 'basic') headers.authorization = basicCredentials(this.clientId, this.clientSecret);
    else Object.assign(fields, { client_id: this.clientId, client_secret: this.clientSecret });
    const data = auth.body === 'json' ? fields : new URLSearchParams(fields);
    const requestedAt = this.now();
    const response = await this.send({ method: 'POST', url: auth.tokenPath, data, headers });
    const answer = (response.data ?? {}) as TokenAnswer;
    const accessToken = answer.access_token ?? answer.accessToken ?? answer.token;
    if (typeof accessToken !== 'string' || !accessToken) {
      throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_TOKEN_RESPONSE', 'the OAuth token endpoint answered without an access_token');
    }
    const lifetimeS = Number(answer.expires_in ?? answer.expiresIn ?? DEFAULT_LIFETIME_S) || DEFAULT_LIFETIME_S;
    // A margin larger than the lifetime would make every call fetch a token; keep half the lifetime at least.
    const marginMs = Math.min(auth.expiryMarginMs ?? DEFAULT_EXPIRY_MARGIN_MS, (lifetimeS * 1000) / 2);
    const token = { accessToken, renewAt: requestedAt + lifetimeS * 1000 - marginMs };
    tokens.set(this.key, token);
    return token;
  }
}

/** Forgets every cached token (tests). */
export function clearOAuth2Tokens(): void {
  tokens.clear();
  inFlight.clear();
}
