import { GatewayError } from '../errors.js';
import { resolveKey, type HttpAccount, type KeyRef } from './account.js';

/** OAuth2 client credentials: a token from the provider, cached per account. */
export interface OAuth2Auth {
  type: 'oauth2';
  /** Token endpoint: a path on the client's base URL, or an absolute URL. */
  tokenPath: string;
  /** How the token request body is encoded. Default 'form' (RFC 6749). */
  body?: 'form' | 'json';
  /** Where the client credentials go: in the body (default) or as HTTP Basic. */
  clientAuth?: 'body' | 'basic';
  /** Default publicKey. */
  clientId?: KeyRef;
  /** Default secretKey. */
  clientSecret?: KeyRef;
  scope?: string;
  /** More fields for the token request body. */
  extraFields?: Record<string, string>;
  /** A token is renewed this long before its expiry. Default 60 s. */
  expiryMarginMs?: number;
}

/** How an adapter authenticates, declared as data. */
export type AuthStyle =
  | { type: 'none' }
  /** Authorization: Bearer <token>; token defaults to the secret key. */
  | { type: 'bearer'; token?: KeyRef }
  /** Authorization: Basic base64(username:password); defaults public:secret. `password: 'empty'` sends none (the user carries the key, as at Pagar.me). */
  | { type: 'basic'; username?: KeyRef; password?: KeyRef | 'empty' }
  /** <header>: <prefix><value>; value defaults to the secret key. */
  | { type: 'apiKey'; header: string; value?: KeyRef; prefix?: string }
  | OAuth2Auth;

function required(value: string, what: string): string {
  if (!value) throw new GatewayError('FAILED_PRECONDITION', `${what} is required`, { reason: 'CREDENTIALS_MISSING' });
  return value;
}

const keyName = (ref: KeyRef | undefined, fallback: string): string => (typeof ref === 'string' ? ref : ref ? 'credential' : fallback);

export const basicCredentials = (username: string, password: string): string => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** The headers of the static styles (everything but OAuth2, whose token is fetched). */
export function staticAuthHeaders(auth: AuthStyle, account: HttpAccount): Record<string, string> {
  switch (auth.type) {
    case 'none':
    case 'oauth2':
      return {};
    case 'bearer':
      return { authorization: `Bearer ${required(resolveKey(auth.token ?? 'secretKey', account), keyName(auth.token, 'secretKey'))}` };
    case 'basic': {
      const username = required(resolveKey(auth.username ?? 'publicKey', account), keyName(auth.username, 'publicKey'));
      const password = auth.password === 'empty' ? '' : required(resolveKey(auth.password ?? 'secretKey', account), keyName(auth.password, 'secretKey'));
      return { authorization: basicCredentials(username, password) };
    }
    case 'apiKey':
      return {
        [auth.header.toLowerCase()]: `${auth.prefix ?? ''}${required(resolveKey(auth.value ?? 'secretKey', account), keyName(auth.value, 'secretKey'))}`,
      };
  }
}

/** Header names that carry credentials under this style, beyond the usual ones, for log redaction. */
export const credentialHeaderNames = (auth: AuthStyle): string[] => (auth.type === 'apiKey' ? [auth.header] : []);
