import { describe, expect, it } from '@jest/globals';
import {
  decideRoute,
  EXPLORATION_SHARE,
  ruleMatches,
  seededRandom,
  withDeclaredFee,
  type HealthOf,
  type Route,
  type RouteRule,
  type RoutedCharge,
  type RoutingRecord,
} from '../../server/domain/routing.js';
import { attemptKey, providerDidNotAct, seedOf } from '../../server/gateway/routedCharges.js';
import { GatewayError } from '../../server/lib/errors.js';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

const rule = (overrides: Partial<RouteRule>): RouteRule => ({
  paymentMethods: [],
  minAmount: 0,
  maxAmount: 0,
  currencies: [],
  cardBrands: [],
  binRanges: [],
  minInstallments: 0,
  maxInstallments: 0,
  strategy: 'priority',
  targets: [
    { providerAccountId: A, weight: 0, fees: [] },
    { providerAccountId: B, weight: 0, fees: [] },
  ],
  ...overrides,
});

const pix: RoutedCharge = { paymentMethod: 'PIX', amount: 10_000, currency: 'BRL', installments: 1 };
const card: RoutedCharge = { paymentMethod: 'CREDIT_CARD', amount: 50_000, currency: 'BRL', installments: 3, cardBin: '41111111', cardBrand: 'Visa' };

describe('route decisions', () => {
  it('a weighted 70/30 rule sends 70 % ± 5 of 1,000 charges to the first account', () => {
    const weighted = {
      rules: [
        rule({
          strategy: 'weighted',
          targets: [
            { providerAccountId: A, weight: 70, fees: [] },
            { providerAccountId: B, weight: 30, fees: [] },
          ],
        }),
      ],
    };
    const random = seededRandom(29);
    let first = 0;
    for (let i = 0; i < 1000; i++) if (decideRoute(weighted, pix, random)!.targets[0]!.providerAccountId === A) first++;
    expect(first).toBeGreaterThanOrEqual(650);
    expect(first).toBeLessThanOrEqual(750);
  });

  it('a weighted draw orders every target once, the drawn one first, and the same key always draws the same order', () => {
    const weighted = {
      rules: [
        rule({
          strategy: 'weighted',
          targets: [
            { providerAccountId: A, weight: 50, fees: [] },
            { providerAccountId: B, weight: 30, fees: [] },
            { providerAccountId: C, weight: 20, fees: [] },
          ],
        }),
      ],
    };
    const order = (key: string) => decideRoute(weighted, pix, seededRandom(seedOf(key)))!.targets.map((target) => target.providerAccountId);
    for (const key of ['k1', 'k2', 'k3', 'k4']) {
      expect([...order(key)].sort()).toEqual([A, B, C]);
      expect(order(key)).toEqual(order(key));
    }
  });

  it('priority keeps the listed order; lowest_cost puts the cheapest account for the method and amount first', () => {
    expect(decideRoute({ rules: [rule({})] }, pix, Math.random)!.targets.map((t) => t.providerAccountId)).toEqual([A, B]);
    const costed = rule({
      strategy: 'lowest_cost',
      paymentMethods: ['PIX', 'CREDIT_CARD'],
      targets: [
        // PIX: 100 + 1 % of 10,000 = 200; card: 100 + 1 % of 50,000 = 600.
        {
          providerAccountId: A,
          weight: 0,
          fees: [
            { paymentMethod: 'PIX', fixed: 100, percentBps: 100 },
            { paymentMethod: 'CREDIT_CARD', fixed: 100, percentBps: 100 },
          ],
        },
        // PIX: 0 + 1.5 % = 150; card: 0 + 1.5 % = 750.
        {
          providerAccountId: B,
          weight: 0,
          fees: [
            { paymentMethod: 'PIX', fixed: 0, percentBps: 150 },
            { paymentMethod: 'CREDIT_CARD', fixed: 0, percentBps: 150 },
          ],
        },
      ],
    });
    expect(decideRoute({ rules: [costed] }, pix, Math.random)!.targets.map((t) => t.providerAccountId)).toEqual([B, A]);
    expect(decideRoute({ rules: [costed] }, card, Math.random)!.targets.map((t) => t.providerAccountId)).toEqual([A, B]);
  });

  it('the first rule that matches decides; every condition a rule sets must hold', () => {
    const route = { rules: [rule({ paymentMethods: ['CREDIT_CARD'], cardBrands: ['visa'] }), rule({ paymentMethods: ['PIX'], maxAmount: 5_000 })] };
    expect(decideRoute(route, card, Math.random)?.ruleIndex).toBe(0);
    expect(decideRoute(route, { ...pix, amount: 5_000 }, Math.random)?.ruleIndex).toBe(1);
    expect(decideRoute(route, pix, Math.random)).toBeUndefined();
    expect(ruleMatches(rule({ binRanges: [{ from: '411111', to: '411199' }] }), card)).toBe(true);
    expect(ruleMatches(rule({ binRanges: [{ from: '511111', to: '559999' }] }), card)).toBe(false);
    expect(ruleMatches(rule({ binRanges: [{ from: '411111', to: '411199' }] }), pix)).toBe(false);
    expect(ruleMatches(rule({ minInstallments: 2, maxInstallments: 6 }), card)).toBe(true);
    expect(ruleMatches(rule({ minInstallments: 4 }), card)).toBe(false);
    expect(ruleMatches(rule({ currencies: ['USD'] }), pix)).toBe(false);
    expect(ruleMatches(rule({ minAmount: 10_000, maxAmount: 10_000 }), pix)).toBe(true);
  });
});

describe("the declared fee a routed charge keeps (the statement's fees)", () => {
  const fees = [{ paymentMethod: 'PIX' as const, fixed: 99, percentBps: 199 }];
  const route: Route = {
    id: 'r',
    name: 'fees',
    maxAttempts: 0,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    rules: [
      rule({ paymentMethods: ['CREDIT_CARD'] }),
      rule({
        strategy: 'lowest_cost',
        targets: [
          { providerAccountId: A, weight: 0, fees },
          { providerAccountId: B, weight: 0, fees: [{ paymentMethod: 'PIX', fixed: 0, percentBps: 0 }] },
        ],
      }),
    ],
  };
  const record = (ruleIndex: number): RoutingRecord => ({ routeId: 'r', routeName: 'fees', ruleIndex, strategy: 'lowest_cost', attempts: [] });

  it("is the charging target's fee for the method in the rule that matched, rounded to the cent; a declared 0 is kept", () => {
    // 10,000 cents at 0.99 R$ + 1.99 %: 99 + 199; 3,333 cents: 99 + 66.3, rounded to 165.
    expect(withDeclaredFee(record(1), route, A, pix).declaredFee).toBe(298);
    expect(withDeclaredFee(record(1), route, A, { paymentMethod: 'PIX', amount: 3_333 }).declaredFee).toBe(165);
    expect(withDeclaredFee(record(1), route, B, pix).declaredFee).toBe(0);
  });

  it('is absent where the target declares none for the method, or the rule that matched has no fees for it', () => {
    expect(withDeclaredFee(record(1), route, A, card)).not.toHaveProperty('declaredFee');
    expect(withDeclaredFee(record(0), route, A, card)).not.toHaveProperty('declaredFee');
    expect(withDeclaredFee(record(1), route, C, pix)).not.toHaveProperty('declaredFee');
  });
});

describe('best_approval', () => {
  const three = {
    rules: [
      rule({
        strategy: 'best_approval',
        targets: [A, B, C].map((providerAccountId) => ({ providerAccountId, weight: 0, fees: [] })),
      }),
    ],
  };
  const rates =
    (of: Record<string, number | undefined>, open: string[] = []): HealthOf =>
    (id) => ({ approvalRate: of[id], circuitOpen: open.includes(id) });
  const firsts = (healthOf: HealthOf) => {
    const random = seededRandom(4);
    const counts: Record<string, number> = { [A]: 0, [B]: 0, [C]: 0 };
    for (let i = 0; i < 2000; i++) counts[decideRoute(three, pix, random, healthOf)!.targets[0]!.providerAccountId]! += 1;
    return counts;
  };

  it('puts the highest approval rate first, ties in the listed order, unknown rates counting as 1, open circuits last', () => {
    const order = (healthOf: HealthOf) => decideRoute(three, pix, () => 0.99, healthOf)!.targets.map((t) => t.providerAccountId);
    expect(order(rates({ [A]: 0.5, [B]: 0.9, [C]: 0.7 }))).toEqual([B, C, A]);
    expect(order(rates({ [A]: 0.9, [B]: 0.9, [C]: 0.95 }))).toEqual([C, A, B]);
    expect(order(rates({ [A]: 0.9, [B]: undefined, [C]: 0.95 }))).toEqual([B, C, A]);
    expect(order(rates({ [A]: 0.9, [B]: 0.5, [C]: 0.95 }, [C]))).toEqual([A, B, C]);
    const decision = decideRoute(three, pix, () => 0.99, rates({ [A]: 0.9, [B]: undefined, [C]: 0.95 }, [A]))!;
    expect(decision.targets.map((t) => t.reason)).toEqual([
      'best approval: no approval rate yet',
      'best approval: approval rate 95 %',
      'best approval: circuit open, tried last',
    ]);
  });

  it('sends about EXPLORATION_SHARE of the charges first to the others, open circuits included, so that they are tried again', () => {
    const counts = firsts(rates({ [A]: 0.2, [B]: 0.95, [C]: 0.5 }, [C]));
    const explored = (counts[A]! + counts[C]!) / 2000;
    expect(explored).toBeGreaterThan(EXPLORATION_SHARE / 2);
    expect(explored).toBeLessThan(EXPLORATION_SHARE * 2);
    expect(counts[A]).toBeGreaterThan(0);
    expect(counts[C]).toBeGreaterThan(0);
    // An explored target says so.
    const random = seededRandom(4);
    const reasons = Array.from({ length: 200 }, () => decideRoute(three, pix, random, rates({ [A]: 0.2, [B]: 0.95 }))!.targets[0]!.reason);
    expect(reasons.filter((reason) => reason.endsWith('; exploring')).length).toBeGreaterThan(0);
  });

  it('the same key explores or not the same way every time', () => {
    const healthOf = rates({ [A]: 0.2, [B]: 0.95, [C]: 0.5 });
    for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) {
      const order = () => decideRoute(three, pix, seededRandom(seedOf(key)), healthOf)!.targets.map((target) => target.providerAccountId);
      expect(order()).toEqual(order());
    }
  });
});

describe('fallback', () => {
  it('goes on only when the provider certainly did not act: UNAVAILABLE with the outcome failed', () => {
    expect(providerDidNotAct(new GatewayError('UNAVAILABLE', 'connection refused', { outcome: 'failed' }))).toBe(true);
    expect(providerDidNotAct(new GatewayError('UNAVAILABLE', 'timeout', { outcome: 'unknown' }))).toBe(false);
    expect(providerDidNotAct(new GatewayError('UNAVAILABLE', 'still being confirmed'))).toBe(false);
    expect(providerDidNotAct(new GatewayError('INVALID_ARGUMENT', 'refused', { outcome: 'failed' }))).toBe(false);
    expect(providerDidNotAct(new Error('bug'))).toBe(false);
  });

  it("each attempt has its own key, derived from the caller's and the attempt's number", () => {
    expect(attemptKey('order-1', 1)).not.toBe(attemptKey('order-1', 2));
    expect(attemptKey('order-1', 2)).toBe(attemptKey('order-1', 2));
    expect(attemptKey('x'.repeat(255), 1).length).toBeLessThanOrEqual(255);
  });
});
