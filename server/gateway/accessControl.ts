import { hash as oneShotHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/orm.js';
import type { AccountsRepository } from '../db/accountsRepository.js';
import type { AuditFilter, AuditRepository, ServiceTokensRepository } from '../db/accessRepository.js';
import type { AuditEvent, ServiceToken } from '../domain/types.js';
import { invalidArgument, notFound, permissionDenied } from '../lib/errors.js';
import { GroupedWrites } from '../lib/groupedWrites.js';
import { isUuid } from '../lib/ids.js';
import type { Logger } from '../lib/logger.js';
import { expandScopes, isPermission, rolePrincipal, type Permission, type Principal } from './access.js';

export interface AccessDeps {
  db: Database;
  tokens: ServiceTokensRepository;
  audit: AuditRepository;
  accounts: AccountsRepository;
  /** API_TOKENS: bootstrap credentials with the admin role. */
  apiTokens: readonly string[];
  logger: Logger;
}

/** Service tokens start with this, so that a leaked one is recognisable (secret scanners, logs). */
export const SERVICE_TOKEN_PREFIX = 'gwt_';
/** A publishable key's prefix: public by design, but recognisable as the gateway's all the same. */
export const PUBLISHABLE_KEY_PREFIX = 'gwpk_';
const ORIGINS_MAX = 20;
const LAST_USE_RESOLUTION_MS = 60_000;
const NAME_MAX = 100;

/** Every call's bearer token is hashed: one-shot, without a Hash object (issue 31). */
const sha256 = (value: string) => oneShotHash('sha256', value, 'buffer');

export interface NewServiceToken {
  name: string;
  scopes: string[];
  providerAccountIds: string[];
  /** When set, a publishable key for pages of these origins. */
  allowedOrigins?: string[];
}

/** A page's origin as browsers send it in Origin: scheme://host[:port], http or https, nothing after. */
function checkedOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value)
    throw invalidArgument(
      'allowed_origins',
      `allowed_origins: ${JSON.stringify(value)} is not an origin; write scheme://host[:port] without a path or a trailing slash, e.g. https://shop.example`,
      'INVALID_URL',
    );
  return value;
}

/** A publishable key's origins, scope and account, checked; empty origins for a service token. */
function publishableShape(input: NewServiceToken, scopes: readonly Permission[], providerAccountIds: readonly string[]): string[] {
  const origins = [...new Set((input.allowedOrigins ?? []).map(checkedOrigin))];
  if (!origins.length) return origins;
  if (origins.length > ORIGINS_MAX)
    throw invalidArgument('allowed_origins', `allowed_origins: at most ${ORIGINS_MAX} origins per publishable key`, 'INVALID_VALUE');
  if (scopes.length !== 1 || scopes[0] !== 'cards:tokenize')
    throw invalidArgument(
      'scopes',
      'a publishable key (allowed_origins set) holds cards:tokenize and nothing else: set scopes to ["cards:tokenize"]',
      'INVALID_VALUE',
    );
  if (providerAccountIds.length !== 1)
    throw invalidArgument(
      'provider_account_ids',
      'a publishable key (allowed_origins set) names exactly one provider account in provider_account_ids',
      'INVALID_VALUE',
    );
  return origins;
}

/** Authentication of bearer tokens, service tokens' lifecycle, and the audit trail. */
export class AccessService {
  /** When each token's last use was written, so that a busy token is not a write per call. */
  private readonly lastTouched = new Map<string, number>();
  /** API_TOKENS' digests, computed once rather than on every call. */
  private readonly apiTokenDigests: Buffer[];
  /** Audit rows of calls finishing together go in one INSERT (group commit); each call still waits for its own row. */
  private readonly auditWrites = new GroupedWrites<Omit<AuditEvent, 'id'>>((events) => this.deps.audit.appendMany(this.deps.db.em(), events));

  constructor(private readonly deps: AccessDeps) {
    this.apiTokenDigests = deps.apiTokens.map(sha256);
  }

  /** The caller a bearer token stands for, or undefined when it is no valid token. */
  async authenticate(bearer: string): Promise<Principal | undefined> {
    const given = sha256(bearer);
    const index = this.apiTokenDigests.findIndex((digest) => timingSafeEqual(digest, given));
    if (index >= 0) return rolePrincipal('bootstrap', `api-token:${index + 1}`, `API_TOKENS #${index + 1}`, 'admin');
    if (!bearer.startsWith(SERVICE_TOKEN_PREFIX) && !bearer.startsWith(PUBLISHABLE_KEY_PREFIX)) return undefined;
    const token = await this.deps.tokens.findLive(this.deps.db.em(), given.toString('hex'));
    if (!token) return undefined;
    await this.touch(token.id);
    const publishable = token.allowedOrigins.length > 0;
    return {
      kind: publishable ? 'publishable' : 'service',
      id: token.id,
      name: token.name,
      permissions: publishable ? new Set(['cards:tokenize']) : expandScopes(token.scopes.filter(isPermission)),
      ...(token.providerAccountIds.length ? { providerAccountIds: token.providerAccountIds } : {}),
      ...(publishable ? { allowedOrigins: token.allowedOrigins } : {}),
    };
  }

  private async touch(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USE_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    try {
      await this.deps.tokens.touch(this.deps.db.em(), id, new Date(now));
    } catch (error) {
      // The call goes on: last use is bookkeeping, not a reason to refuse.
      this.deps.logger.warn({ err: error, tokenId: id }, 'could not record a service token use');
    }
  }

  /**
   * Creates a token and returns its secret, which is not kept anywhere. A
   * caller cannot hand out more than it holds, nor accounts it may not touch.
   */
  async createToken(creator: Principal, input: NewServiceToken): Promise<{ token: ServiceToken; secret: string }> {
    const name = input.name.trim();
    if (!name) throw invalidArgument('name', 'name is required', 'REQUIRED');
    if (name.length > NAME_MAX || /\p{Cc}/u.test(name))
      throw invalidArgument('name', `name must be at most ${NAME_MAX} printable characters`, 'TOO_LONG', { maxLength: String(NAME_MAX) });
    if (!input.scopes.length) throw invalidArgument('scopes', 'scopes must name at least one permission, e.g. payments:write', 'REQUIRED');
    const unknown = input.scopes.filter((scope) => !isPermission(scope));
    if (unknown.length) throw invalidArgument('scopes', `unknown scope ${unknown.map((scope) => JSON.stringify(scope)).join(', ')}`, 'UNKNOWN_VALUE');
    const scopes = [...new Set(input.scopes as Permission[])];
    const beyond = [...expandScopes(scopes)].filter((scope) => !creator.permissions.has(scope));
    if (beyond.length) throw permissionDenied(beyond[0]!, `permission denied: a token cannot be given ${beyond.join(', ')}, which its creator does not hold`);
    const providerAccountIds = [...new Set(input.providerAccountIds)];
    for (const id of providerAccountIds) {
      if (!isUuid(id) || !(await this.deps.accounts.get(this.deps.db.em(), id)))
        throw invalidArgument('provider_account_ids', `provider account ${JSON.stringify(id)} does not exist`, 'INVALID_VALUE');
      if (creator.providerAccountIds && !creator.providerAccountIds.includes(id))
        throw permissionDenied('provider account', `permission denied: provider account ${id} is not yours to give`);
    }
    if (creator.providerAccountIds && !providerAccountIds.length)
      throw invalidArgument('provider_account_ids', 'a token limited to some provider accounts can only create tokens limited to them', 'NOT_ALLOWED');
    const allowedOrigins = publishableShape(input, scopes, providerAccountIds);
    const prefix = allowedOrigins.length ? PUBLISHABLE_KEY_PREFIX : SERVICE_TOKEN_PREFIX;
    const secret = `${prefix}${randomBytes(32).toString('base64url')}`;
    const token = await this.deps.tokens.create(
      this.deps.db.em(),
      { name, scopes, providerAccountIds, allowedOrigins, createdBy: creator.name },
      sha256(secret).toString('hex'),
    );
    return { token, secret };
  }

  listTokens(includeRevoked: boolean): Promise<ServiceToken[]> {
    return this.deps.tokens.list(this.deps.db.em(), includeRevoked);
  }

  async revokeToken(id: string): Promise<ServiceToken> {
    const token = await this.deps.tokens.revoke(this.deps.db.em(), id, new Date());
    if (!token) throw notFound(`service token ${id} not found`);
    return token;
  }

  /** Appends to the audit trail. A failure to write it is logged, loudly, but does not undo what was done. */
  async record(event: Omit<AuditEvent, 'id' | 'at'>): Promise<void> {
    try {
      await this.auditWrites.add({ ...event, at: new Date() });
    } catch (error) {
      this.deps.logger.error({ err: error, audit: event }, 'could not write the audit trail');
    }
  }

  listAudit(filter: AuditFilter, pageSize: number, pageToken?: string) {
    return this.deps.audit.list(this.deps.db.em(), filter, pageSize, pageToken);
  }
}
