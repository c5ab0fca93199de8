/**
 * Who may do what. A caller is a principal: a service (a token with scopes)
 * or an operator (a person with a role). Both end up as a set of permissions;
 * each RPC names the one permission it needs (server/transport/permissions.ts).
 */

import { isPermission, ROLE_PERMISSIONS, type Permission, type Role } from '../../shared/permissions.js';

// The table itself is shared with the back-office; the gateway's callers keep importing it from here.
export { isPermission, isRole, PERMISSIONS, ROLE_PERMISSIONS, ROLES, type Permission, type Role } from '../../shared/permissions.js';

export interface Principal {
  /** `publishable`: a publishable key, a web page's credential that may only create card tokens. */
  kind: 'service' | 'operator' | 'bootstrap' | 'publishable';
  /** The token's or operator's id; for API_TOKENS, `api-token:<n>`. */
  id: string;
  /** What the audit trail shows: the token's name or the operator's e-mail. */
  name: string;
  role?: Role;
  permissions: ReadonlySet<Permission>;
  /** When set, the only provider accounts this caller may touch. */
  providerAccountIds?: readonly string[];
  /** A publishable key's: the only origins (a browser's Origin header) its calls may come from. */
  allowedOrigins?: readonly string[];
  /** An admin who must turn two-step verification on first: only the enrollment's calls are admitted. */
  totpEnrollmentRequired?: boolean;
}

/**
 * A scope that writes or administers a resource also reads it: `payouts:write` implies `payouts:read`; and
 * `payments:write` implies `cards:tokenize`, so that tokens made before that permission existed still tokenise cards.
 */
export function expandScopes(scopes: readonly Permission[]): Set<Permission> {
  const granted = new Set<Permission>(scopes);
  for (const scope of scopes) {
    const read = `${scope.split(':')[0]}:read`;
    if (isPermission(read)) granted.add(read);
    if (scope === 'payments:write') granted.add('cards:tokenize');
  }
  return granted;
}

export function rolePrincipal(kind: Principal['kind'], id: string, name: string, role: Role): Principal {
  return { kind, id, name, role, permissions: new Set(ROLE_PERMISSIONS[role]) };
}

export const mayTouchAccount = (principal: Principal, providerAccountId: string): boolean =>
  !principal.providerAccountIds || principal.providerAccountIds.includes(providerAccountId);
