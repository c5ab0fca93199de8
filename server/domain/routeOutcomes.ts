/**
 * What routed charges did over a window, per route and per account tried: counted by the database from each charge's
 * routing record (Transaction.routing), then grouped here. Pure: the grouping and ordering are tested without SQL.
 */

export interface OutcomeCounts {
  /** Charges stored (any status); per account: the charges it took. */
  charges: number;
  /** Approved, including refunded or charged back since. */
  approved: number;
  /** Rejected by the provider. */
  declined: number;
  /** Per route: charges taken after a target was not sent to. Per account: charges it was not sent, then passed on. */
  fallbacks: number;
}

/** One counted row: the route's totals (no providerAccountId) or one account's within the route. */
export interface RouteOutcomeRow extends OutcomeCounts {
  routeId: string;
  routeName: string;
  providerAccountId?: string;
  provider: string;
}

export interface AccountOutcome {
  providerAccountId: string;
  provider: string;
  counts: OutcomeCounts;
}

export interface RouteOutcome {
  routeId: string;
  routeName: string;
  counts: OutcomeCounts;
  accounts: AccountOutcome[];
}

const countsOf = ({ charges, approved, declined, fallbacks }: OutcomeCounts): OutcomeCounts => ({ charges, approved, declined, fallbacks });

/** Each route with its accounts, most charges first (then by name, then by id, so that the order is stable). */
export function groupOutcomes(rows: readonly RouteOutcomeRow[]): RouteOutcome[] {
  const routes = new Map<string, RouteOutcome>();
  for (const row of rows.filter((item) => item.providerAccountId === undefined))
    routes.set(row.routeId, { routeId: row.routeId, routeName: row.routeName, counts: countsOf(row), accounts: [] });
  for (const row of rows)
    if (row.providerAccountId !== undefined)
      routes.get(row.routeId)?.accounts.push({ providerAccountId: row.providerAccountId, provider: row.provider, counts: countsOf(row) });
  const byCharges = <T extends { counts: OutcomeCounts }>(a: T, b: T, tie: (x: T, y: T) => number) => b.counts.charges - a.counts.charges || tie(a, b);
  const list = [...routes.values()];
  for (const route of list)
    route.accounts.sort((a, b) => byCharges(a, b, (x, y) => y.counts.fallbacks - x.counts.fallbacks || x.providerAccountId.localeCompare(y.providerAccountId)));
  return list.sort((a, b) => byCharges(a, b, (x, y) => x.routeName.localeCompare(y.routeName) || x.routeId.localeCompare(y.routeId)));
}
