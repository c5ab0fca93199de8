/**
 * Who may do what. A caller is a principal: a service (a token with scopes)
 * or an operator (a person with a role). Both end up as a set of permissions;
 * each RPC names the one permission it needs (server/transport/permissions.ts).
 */

export const PERMISSIONS = [
  'payments:read',
  'payments:write',
  'refunds:write',
  'payouts:read',
  'payouts:write',
  'receivers:read',
  'receivers:write',
  'notifications:read',
  'notifications:write',
  'reconciliation:write',
  'events:read',
  'accounts:read',
  'accounts:admin',
  'sandbox:write',
  'audit:read',
  'tokens:admin',
  'operators:admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['admin', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const READS = PERMISSIONS.filter((permission) => permission.endsWith(':read'));

/** What each operator role holds. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  operator: [
    ...READS,
    'refunds:write',
    'payouts:write',
    'receivers:write',
    'notifications:write',
    'reconciliation:write',
    'sandbox:write',
  ] satisfies Permission[],
  viewer: READS.filter((permission) => permission !== 'audit:read'),
};

export interface Principal {
  kind: 'service' | 'operator' | 'bootstrap';
  /** The token's or operator's id; for API_TOKENS, `api-token:<n>`. */
  id: string;
  /** What the audit trail shows: the token's name or the operator's e-mail. */
  name: string;
  role?: Role;
  permissions: ReadonlySet<Permission>;
  /** When set, the only provider accounts this caller may touch. */
  providerAccountIds?: readonly string[];
}

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);
export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** A scope that writes or administers a resource also reads it: `payouts:write` implies `payouts:read`. */
export function expandScopes(scopes: readonly Permission[]): Set<Permission> {
  const granted = new Set<Permission>(scopes);
  for (const scope of scopes) {
    const read = `${scope.split(':')[0]}:read`;
    if (isPermission(read)) granted.add(read);
  }
  return granted;
}

export function rolePrincipal(kind: Principal['kind'], id: string, name: string, role: Role): Principal {
  return { kind, id, name, role, permissions: new Set(ROLE_PERMISSIONS[role]) };
}

export const mayTouchAccount = (principal: Principal, providerAccountId: string): boolean =>
  !principal.providerAccountIds || principal.providerAccountIds.includes(providerAccountId);
