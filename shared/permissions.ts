/**
 * The permissions and the operator roles that hold them: plain data shared by
 * the gateway (server/gateway/access.ts builds principals from it) and the
 * back-office, which shows each operator only what their role may do. It lives
 * in shared/, the one folder both sides may import, and imports nothing.
 */

export const PERMISSIONS = [
  'payments:read',
  'payments:write',
  // Only CreateCardToken: what a publishable key (a web page's credential) holds; payments:write implies it.
  'cards:tokenize',
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
  'routes:read',
  'routes:admin',
  'disputes:read',
  'disputes:write',
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
    'disputes:write',
  ] satisfies Permission[],
  viewer: READS.filter((permission) => permission !== 'audit:read'),
};

/**
 * The permission an upload needs (UploadService.CreateUploadLink), by what the file is for (its purpose): that of
 * the call which names the file, so that an upload link is no wider than the form it serves.
 */
export const UPLOAD_PERMISSIONS = {
  RECEIVER_DOCUMENT: 'receivers:write',
  DISPUTE_EVIDENCE: 'disputes:write',
  CERTIFICATE: 'accounts:admin',
} as const satisfies Record<string, Permission>;

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);
export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
