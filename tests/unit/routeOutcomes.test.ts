import { describe, expect, it } from '@jest/globals';
import { groupOutcomes, type RouteOutcomeRow } from '../../server/domain/routeOutcomes.js';

const counts = (charges: number, approved = 0, declined = 0, fallbacks = 0) => ({ charges, approved, declined, fallbacks });
const row = (routeId: string, routeName: string, providerAccountId: string | undefined, c: ReturnType<typeof counts>): RouteOutcomeRow => ({
  routeId,
  routeName,
  providerAccountId,
  provider: providerAccountId ? 'SANDBOX' : '',
  ...c,
});

describe('route outcomes', () => {
  it("groups each route's accounts under it, routes and accounts with most charges first", () => {
    const grouped = groupOutcomes([
      row('r1', 'cards', 'a-down', counts(0, 0, 0, 4)),
      row('r2', 'pix', undefined, counts(9, 9)),
      row('r1', 'cards', undefined, counts(4, 3, 1, 4)),
      row('r1', 'cards', 'b-up', counts(4, 3, 1)),
      row('r2', 'pix', 'c-pix', counts(9, 9)),
    ]);
    expect(grouped).toEqual([
      { routeId: 'r2', routeName: 'pix', counts: counts(9, 9), accounts: [{ providerAccountId: 'c-pix', provider: 'SANDBOX', counts: counts(9, 9) }] },
      {
        routeId: 'r1',
        routeName: 'cards',
        counts: counts(4, 3, 1, 4),
        accounts: [
          { providerAccountId: 'b-up', provider: 'SANDBOX', counts: counts(4, 3, 1) },
          { providerAccountId: 'a-down', provider: 'SANDBOX', counts: counts(0, 0, 0, 4) },
        ],
      },
    ]);
  });

  it('orders ties by name, then id, and accounts that took nothing by their fallbacks', () => {
    const grouped = groupOutcomes([
      row('r2', 'b', undefined, counts(1)),
      row('r1', 'a', undefined, counts(1)),
      row('r1', 'a', 'x', counts(0, 0, 0, 1)),
      row('r1', 'a', 'y', counts(0, 0, 0, 2)),
    ]);
    expect(grouped.map((route) => route.routeName)).toEqual(['a', 'b']);
    expect(grouped[0]!.accounts.map((account) => account.providerAccountId)).toEqual(['y', 'x']);
  });
});
