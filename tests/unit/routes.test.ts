import { describe, expect, it, jest } from '@jest/globals';
import { isSoftDecline, type Route, type RouteInput, type RouteRule } from '../../server/domain/routing.js';
import { checkedSoftDeclineCodes } from '../../server/gateway/softDeclines.js';
import type { Transaction } from '../../server/domain/types.js';
import type { GatewayDeps } from '../../server/gateway/context.js';
import type { RoutesRepository } from '../../server/db/routesRepository.js';
import { RoutesService } from '../../server/gateway/routes.js';
import { RoutingHealth } from '../../server/gateway/routingHealth.js';
import { attemptKey, runRoutedCharge, type RoutedChargeCall } from '../../server/gateway/routedCharges.js';
import { GatewayError } from '../../server/lib/errors.js';

// The route's checks when saved and the fallback's decisions, without a database: the integration suite
// (tests/integration/routing.test.ts) runs them against real providers and PostgreSQL.

const PIX_ONLY = '00000000-0000-4000-8000-00000000000a';
const ANY = '00000000-0000-4000-8000-00000000000b';
const GONE = '00000000-0000-4000-8000-00000000000c';

const accounts: Record<string, { provider: string; deleted: boolean }> = {
  [PIX_ONLY]: { provider: 'PIXONLY', deleted: false },
  [ANY]: { provider: 'ANY', deleted: false },
  [GONE]: { provider: 'ANY', deleted: true },
};
const adapters: Record<string, { methods: string[] }> = { PIXONLY: { methods: ['PIX'] }, ANY: { methods: ['PIX', 'CREDIT_CARD', 'BILLET'] } };

const deps = {
  db: { em: () => ({}), rootEm: () => ({}) },
  accounts: {
    getWithSecrets: async (_em: unknown, id: string, options: { includeDeleted?: boolean } = {}) => {
      const account = accounts[id];
      return account && (options.includeDeleted || !account.deleted) ? { id, provider: account.provider } : null;
    },
  },
  registry: {
    find: (provider: string) => adapters[provider] && { supports: () => true, capabilities: { paymentMethods: adapters[provider]!.methods } },
  },
} as unknown as GatewayDeps;

function memoryRepository(): RoutesRepository {
  const routes = new Map<string, Route>();
  let next = 0;
  return {
    create: async (_em: unknown, input: RouteInput) => {
      if ([...routes.values()].some((route) => route.name === input.name)) return undefined;
      const route = { ...input, id: `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`, createdAt: new Date(), updatedAt: new Date() };
      routes.set(route.id, route);
      return route;
    },
    find: async (_em: unknown, idOrName: string) => routes.get(idOrName) ?? [...routes.values()].find((route) => route.name === idOrName),
    list: async () => [...routes.values()],
    update: async (_em: unknown, id: string, input: RouteInput) => {
      const route = routes.get(id);
      if (!route) return 'missing' as const;
      const updated = { ...route, ...input };
      routes.set(id, updated);
      return updated;
    },
    delete: async (_em: unknown, id: string) => routes.delete(id),
  } as unknown as RoutesRepository;
}

const rule = (overrides: Partial<RouteRule> = {}): RouteRule => ({
  paymentMethods: ['PIX'],
  minAmount: 0,
  maxAmount: 0,
  currencies: [],
  cardBrands: [],
  binRanges: [],
  minInstallments: 0,
  maxInstallments: 0,
  strategy: 'priority',
  targets: [{ providerAccountId: ANY, weight: 0, fees: [] }],
  ...overrides,
});

describe('saving a route', () => {
  const service = () => new RoutesService(deps, memoryRepository());
  const refusal = (rules: RouteRule[], extra: Partial<RouteInput> = {}) =>
    service()
      .create({ name: 'r', rules, maxAttempts: 0, ...extra })
      .then(
        () => undefined,
        (error: GatewayError) => ({ code: error.code, field: error.details.field, reason: error.details.reason, message: error.message }),
      );

  it('refuses what no charge could use, naming the field', async () => {
    expect(await refusal([rule({ targets: [{ providerAccountId: GONE, weight: 0, fees: [] }] })])).toMatchObject({
      code: 'FAILED_PRECONDITION',
      field: 'rules[0].targets[0].provider_account_id',
      reason: 'ROUTE_TARGET_UNUSABLE',
    });
    expect(await refusal([rule({ paymentMethods: ['CREDIT_CARD'], targets: [{ providerAccountId: PIX_ONLY, weight: 0, fees: [] }] })])).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining('does not take CREDIT_CARD'),
    });
    expect(await refusal([rule({ targets: [{ providerAccountId: 'not-an-id', weight: 0, fees: [] }] })])).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(
      await refusal([
        rule({
          targets: [
            { providerAccountId: ANY, weight: 0, fees: [] },
            { providerAccountId: ANY, weight: 0, fees: [] },
          ],
        }),
      ]),
    ).toMatchObject({ field: 'rules[0].targets[1].provider_account_id' });
    expect(await refusal([rule({ strategy: 'weighted', targets: [{ providerAccountId: ANY, weight: 0, fees: [] }] })])).toMatchObject({
      field: 'rules[0].targets[0].weight',
    });
    expect(await refusal([rule({ targets: [{ providerAccountId: ANY, weight: 10, fees: [] }] })])).toMatchObject({ field: 'rules[0].targets[0].weight' });
    // Weights that do not add up to 100 name their rule and total, for the back-office's own text (issue 33 §8).
    const short = await service()
      .create({ name: 'r', rules: [rule({ strategy: 'weighted', targets: [{ providerAccountId: ANY, weight: 70, fees: [] }] })], maxAttempts: 0 })
      .catch((error: GatewayError) => error.details);
    expect(short).toMatchObject({ field: 'rules[0].targets', fieldRule: 'WEIGHTS_NOT_100', values: { total: '70' } });
    expect(await refusal([rule({ strategy: 'lowest_cost' })])).toMatchObject({ field: 'rules[0].targets[0].fees' });
    expect(await refusal([rule({ strategy: 'lowest_cost', paymentMethods: [] })])).toMatchObject({ field: 'rules[0].payment_methods' });
    expect(await refusal([rule({ minAmount: 500, maxAmount: 100 })])).toMatchObject({ field: 'rules[0].amount' });
    expect(await refusal([rule({ currencies: ['real'] })])).toMatchObject({ field: 'rules[0].currencies' });
    expect(await refusal([rule({ binRanges: [{ from: '5', to: '4' }] })])).toMatchObject({ field: 'rules[0].bin_ranges[0]' });
    expect(await refusal([rule({ targets: [] })])).toMatchObject({ field: 'rules[0].targets' });
    expect(await refusal([rule({ strategy: 'fastest' as never })])).toMatchObject({ field: 'rules[0].strategy' });
    expect(await refusal([rule()], { maxAttempts: 6 })).toMatchObject({ field: 'max_attempts' });
    expect(await refusal([rule()], { name: ' ' })).toMatchObject({ field: 'name' });
  });

  it('keeps a good route, finds it by name or id, and forgets it for charges once deleted', async () => {
    const routes = service();
    const route = await routes.create({ name: 'main', rules: [rule({ currencies: ['brl'] })], maxAttempts: 0 });
    expect(route.rules[0]!.currencies).toEqual(['BRL']);
    expect((await routes.forCharge('main')).id).toBe(route.id);
    expect((await routes.get(route.id)).name).toBe('main');
    await expect(routes.create({ name: 'main', rules: [rule()], maxAttempts: 0 })).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
    expect((await routes.update(route.id, { name: 'main', rules: [rule(), rule()], maxAttempts: 3 })).maxAttempts).toBe(3);
    await routes.delete(route.id);
    await expect(routes.forCharge('main')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'route' } });
    await expect(routes.delete(route.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('a routed charge', () => {
  const route: Route = { id: 'route-1', name: 'main', rules: [rule()], maxAttempts: 2, createdAt: new Date(), updatedAt: new Date() };
  const decision = {
    ruleIndex: 0,
    strategy: 'priority' as const,
    targets: [
      { providerAccountId: 'a', reason: 'priority 1' },
      { providerAccountId: 'b', reason: 'priority 2' },
      { providerAccountId: 'c', reason: 'priority 3' },
    ],
  };
  const notSent = new GatewayError('UNAVAILABLE', 'Erro ao criar transação: connection refused', { outcome: 'failed' });
  const unknown = new GatewayError('UNAVAILABLE', 'Erro ao criar transação: timeout', { outcome: 'unknown' });

  function setUp(claim: Record<string, unknown>, outcomes: Record<string, Error | undefined>, live: { state: string; subjectId: string | null }[] = []) {
    const idempotency = {
      claim: jest.fn(async () => claim),
      fail: jest.fn(async (..._args: unknown[]) => undefined),
      complete: jest.fn(async (..._args: unknown[]) => undefined),
      liveAmong: jest.fn(async () => live),
    };
    const sent: { account: string; key?: string }[] = [];
    const call: RoutedChargeCall = {
      route,
      decision,
      callerKey: 'order-1',
      request: {},
      charge: async (target, key, routing) => {
        sent.push({ account: target.providerAccountId, key });
        const failure = outcomes[target.providerAccountId];
        if (failure) throw failure;
        return { id: `charge-at-${target.providerAccountId}`, routing } as unknown as Transaction;
      },
      providerOf: async () => 'SANDBOX',
      replay: async (id) => ({ id }) as Transaction,
    };
    const run = () => runRoutedCharge({ db: { em: () => ({}), rootEm: () => ({}) }, idempotency, logger: { warn: () => undefined } } as never, call);
    return { idempotency, sent, run };
  }

  it('goes to the next target when the first was never sent, each with its own key, and completes the caller key', async () => {
    const { idempotency, sent, run } = setUp({ kind: 'owner', id: 'claim', fresh: true }, { a: notSent });
    const charge = await run();
    expect(charge.id).toBe('charge-at-b');
    expect(charge.routing!.attempts.map((attempt) => attempt.outcome)).toEqual(['not_sent', 'charged']);
    expect(sent).toEqual([
      { account: 'a', key: attemptKey('order-1', 1) },
      { account: 'b', key: attemptKey('order-1', 2) },
    ]);
    expect(idempotency.complete).toHaveBeenCalledWith(expect.anything(), 'claim', 'charge-at-b', null);
    expect(idempotency.liveAmong).not.toHaveBeenCalled();
  });

  it('never goes further after an unknown outcome, and stops at max_attempts', async () => {
    const held = setUp({ kind: 'owner', id: 'claim', fresh: true }, { a: unknown });
    await expect(held.run()).rejects.toBe(unknown);
    expect(held.sent.map((attempt) => attempt.account)).toEqual(['a']);
    expect(held.idempotency.fail).toHaveBeenCalled();
    const capped = setUp({ kind: 'owner', id: 'claim', fresh: true }, { a: notSent, b: notSent });
    await expect(capped.run()).rejects.toBe(notSent);
    expect(capped.sent.map((attempt) => attempt.account)).toEqual(['a', 'b']);
  });

  it('a retry answers what an earlier request did: its recorded charge, or "still being confirmed" while an attempt is unknown', async () => {
    const done = setUp({ kind: 'owner', id: 'claim', fresh: false }, {}, [{ state: 'COMPLETED', subjectId: 'earlier' }]);
    expect((await done.run()).id).toBe('earlier');
    expect(done.sent).toEqual([]);
    const pending = setUp({ kind: 'owner', id: 'claim', fresh: false }, {}, [{ state: 'UNKNOWN', subjectId: null }]);
    await expect(pending.run()).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('still being confirmed') });
    expect(pending.sent).toEqual([]);
    expect((await setUp({ kind: 'completed', subjectId: 'first', response: null }, {}).run()).id).toBe('first');
    await expect(setUp({ kind: 'mismatch' }, {}).run()).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
  });
});

describe('a routed card charge declined', () => {
  const route: Route = { id: 'route-1', name: 'main', rules: [rule()], maxAttempts: 3, createdAt: new Date(), updatedAt: new Date() };
  const decision = {
    ruleIndex: 0,
    strategy: 'priority' as const,
    targets: ['a', 'b', 'c'].map((providerAccountId, index) => ({ providerAccountId, reason: `priority ${index + 1}` })),
  };
  const notSent = new GatewayError('UNAVAILABLE', 'connection refused', { outcome: 'failed' });
  const unknown = new GatewayError('UNAVAILABLE', 'timeout', { outcome: 'unknown' });
  const refused = new GatewayError('INVALID_ARGUMENT', 'the card token is another account’s');

  function setUp(outcomes: Record<string, Error | string | undefined>, routeOf: Route = route, live: { key: string; state: string; subjectId: string }[] = []) {
    const sent: { account: string; key?: string }[] = [];
    const call: RoutedChargeCall = {
      route: routeOf,
      decision,
      callerKey: 'order-1',
      request: {},
      charge: async (target, key, routing) => {
        sent.push({ account: target.providerAccountId, key });
        const outcome = outcomes[target.providerAccountId];
        if (outcome instanceof Error) throw outcome;
        const answer = outcome ? { status: 'REJECTED', declineReason: outcome } : { status: 'APPROVED' };
        return { id: `charge-at-${target.providerAccountId}`, paymentMethod: 'CREDIT_CARD', routing, ...answer } as unknown as Transaction;
      },
      providerOf: async () => 'SANDBOX',
      replay: async (id) => ({ id }) as Transaction,
    };
    const idempotency = {
      claim: jest.fn(async () => ({ kind: 'owner', id: 'claim', fresh: !live.length })),
      fail: jest.fn(async (..._args: unknown[]) => undefined),
      complete: jest.fn(async (..._args: unknown[]) => undefined),
      liveAmong: jest.fn(async () => live),
    };
    const run = () => runRoutedCharge({ db: { em: () => ({}), rootEm: () => ({}) }, idempotency, logger: { warn: () => undefined } } as never, call);
    return { sent, run };
  }

  it('with a soft decline goes to the next target, under its own key, and the charge names both attempts', async () => {
    const { sent, run } = setUp({ a: 'do_not_honor' });
    const charge = await run();
    expect(charge).toMatchObject({ id: 'charge-at-b', status: 'APPROVED' });
    expect(charge.routing!.attempts).toEqual([
      { providerAccountId: 'a', provider: 'SANDBOX', outcome: 'soft_declined', reason: 'priority 1; declined: do_not_honor' },
      { providerAccountId: 'b', provider: 'SANDBOX', outcome: 'charged', reason: 'priority 2' },
    ]);
    expect(sent).toEqual([
      { account: 'a', key: attemptKey('order-1', 1) },
      { account: 'b', key: attemptKey('order-1', 2) },
    ]);
  });

  it('never retries a hard or fraud decline, or one not on the route’s own list', async () => {
    for (const reason of ['stolen_card', 'fraudulent', 'insufficient_funds', 'card_declined']) {
      const { sent, run } = setUp({ a: reason });
      expect((await run()).id).toBe('charge-at-a');
      expect(sent.map((attempt) => attempt.account)).toEqual(['a']);
    }
    const own = { ...route, softDeclineCodes: ['card_declined'] };
    expect((await setUp({ a: 'do_not_honor' }, own).run()).id).toBe('charge-at-a');
    expect((await setUp({ a: 'CARD_DECLINED' }, own).run()).id).toBe('charge-at-b');
  });

  it('stops at max_attempts; the last decline is the answer; a later refusal answers the decline, an unknown outcome is never hidden', async () => {
    const capped = setUp({ a: 'do_not_honor', b: 'do_not_honor' }, { ...route, maxAttempts: 2 });
    expect(await capped.run()).toMatchObject({ id: 'charge-at-b', status: 'REJECTED' });
    expect(capped.sent.map((attempt) => attempt.account)).toEqual(['a', 'b']);
    expect(await setUp({ a: 'do_not_honor', b: refused }).run()).toMatchObject({ id: 'charge-at-a', status: 'REJECTED' });
    expect(await setUp({ a: 'do_not_honor', b: notSent, c: notSent }).run()).toMatchObject({ id: 'charge-at-a' });
    expect((await setUp({ a: 'do_not_honor', b: notSent }).run()).id).toBe('charge-at-c');
    await expect(setUp({ a: 'do_not_honor', b: unknown }).run()).rejects.toBe(unknown);
  });

  it('a retry after a crash answers the latest attempt that took the charge, not the soft decline before it', async () => {
    const live = [
      { key: attemptKey('order-1', 1), state: 'COMPLETED', subjectId: 'declined-at-a' },
      { key: attemptKey('order-1', 2), state: 'COMPLETED', subjectId: 'approved-at-b' },
    ];
    const { sent, run } = setUp({}, route, live);
    expect((await run()).id).toBe('approved-at-b');
    expect(sent).toEqual([]);
  });
});

describe('soft-decline lists', () => {
  it('default to the "not now" reasons, match without case, and never include hard or fraud declines', () => {
    expect(isSoftDecline({}, 'do_not_honor')).toBe(true);
    expect(isSoftDecline({ softDeclineCodes: [] }, ' 91 ')).toBe(true);
    expect(isSoftDecline({}, 'insufficient_funds')).toBe(false);
    expect(isSoftDecline({}, undefined)).toBe(false);
    expect(isSoftDecline({ softDeclineCodes: ['Generic_Decline'] }, 'generic_decline')).toBe(true);
    expect(isSoftDecline({ softDeclineCodes: ['generic_decline'] }, 'do_not_honor')).toBe(false);
  });

  it('are refused when saved with a malformed code or a hard decline, naming the entry; kept lower-cased without repeats', async () => {
    const service = new RoutesService(deps, memoryRepository());
    const save = (softDeclineCodes: string[]) => service.create({ name: `s-${softDeclineCodes.join()}`, rules: [rule()], maxAttempts: 0, softDeclineCodes });
    await expect(save(['do_not_honor', 'stolen_card'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'soft_decline_codes[1]' } });
    await expect(save(['59'])).rejects.toMatchObject({ details: { field: 'soft_decline_codes[0]' } });
    await expect(save(['do not honor'])).rejects.toMatchObject({ details: { field: 'soft_decline_codes[0]' } });
    await expect(save(Array.from({ length: 51 }, (_, i) => `c${i}`))).rejects.toMatchObject({ details: { field: 'soft_decline_codes' } });
    expect((await save(['Do_Not_Honor', 'do_not_honor ', '05'])).softDeclineCodes).toEqual(['do_not_honor', '05']);
    expect(checkedSoftDeclineCodes(undefined)).toEqual([]);
  });
});

describe('routing health', () => {
  it('counts the attempts per account: rejections against answers, errors against attempts, mean time', async () => {
    const health = new RoutingHealth();
    health.recorded('a', 'APPROVED', 10);
    health.recorded('a', 'REJECTED', 20);
    health.recorded('a', 'PENDING', 30);
    health.recorded('a', 'error', 40);
    for (let i = 0; i < 250; i++) health.recorded('b', 'error', 1);
    const [a, b, c] = health.of(
      [
        { id: 'a', provider: 'X' },
        { id: 'b', provider: 'X' },
        { id: 'c', provider: 'Y' },
      ],
      await health.figures(),
    );
    expect(a).toMatchObject({ attempts: 4, circuitState: 'closed', errorRate: 0.25, meanLatencyMs: 25 });
    expect(a!.approvalRate).toBeCloseTo(2 / 3);
    expect(b).toMatchObject({ attempts: 250, errorRate: 1, approvalRate: 0 });
    expect(c).toMatchObject({ attempts: 0, errorRate: 0, approvalRate: 0, meanLatencyMs: 0 });
  });
});
