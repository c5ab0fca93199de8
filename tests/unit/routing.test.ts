import { describe, expect, it } from '@jest/globals';
import { decideRoute, ruleMatches, seededRandom, type RouteRule, type RoutedCharge } from '../../server/domain/routing.js';
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
