/**
 * The route decision's CPU per charge (issue 29: at most 0.05 ms), one row per strategy: what a charge that names a
 * route costs the gateway before any I/O, as payments.ts and routedCharges.ts do it: the route from the process's
 * cache (RoutesService.forCharge), the draw seeded by the idempotency key (SHA-256), the first rule that matches and its
 * targets in order (decideRoute, with the accounts' health for best_approval: the circuits read once), the attempt's
 * key, and the attempt's outcome pushed into the health window. Measured with process.cpuUsage() over DECISIONS
 * decisions after as many to warm up; the database and the provider are not involved.
 * Usage: npm run bench (or npx tsx bench/routeDecision.ts [--decisions 200000 --circuits 100]); --quick: 20,000 decisions.
 */
import { decideRoute, seededRandom, type Route, type RouteRule, type RoutingStrategy } from '../server/domain/routing.js';
import type { GatewayDeps } from '../server/gateway/context.js';
import { attemptKey, seedOf } from '../server/gateway/routedCharges.js';
import { RoutesService } from '../server/gateway/routes.js';
import { healthForDecision } from '../server/gateway/routingHealth.js';
import type { RoutesRepository } from '../server/db/routesRepository.js';
import { circuitFor } from '../server/lib/http/resilience.js';
import type { Logger } from '../server/lib/logger.js';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const DECISIONS = arg('decisions', process.argv.includes('--quick') ? 20_000 : 200_000);
const TARGET_MS = 0.05;

const account = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const fees = [
  { paymentMethod: 'PIX' as const, fixed: 0, percentBps: 99 },
  { paymentMethod: 'CREDIT_CARD' as const, fixed: 30, percentBps: 299 },
];
const rule = (strategy: RoutingStrategy, overrides: Partial<RouteRule> = {}): RouteRule => ({
  paymentMethods: ['PIX', 'CREDIT_CARD'],
  minAmount: 0,
  maxAmount: 0,
  currencies: ['BRL'],
  cardBrands: [],
  binRanges: [],
  minInstallments: 0,
  maxInstallments: 0,
  strategy,
  targets: [1, 2, 3].map((n) => ({ providerAccountId: account(n), weight: strategy === 'weighted' ? [50, 30, 20][n - 1]! : 0, fees })),
  ...overrides,
});

/** A route as a merchant writes one: three rules the charge does not match (big amounts, a BIN range, boletos), then the strategy's. */
const routeOf = (strategy: RoutingStrategy): Route => ({
  id: `route-${strategy}`,
  name: strategy,
  maxAttempts: 2,
  createdAt: new Date(),
  updatedAt: new Date(),
  rules: [
    rule('priority', { minAmount: 1_000_000 }),
    rule('priority', { binRanges: [{ from: '510000', to: '559999' }], paymentMethods: ['CREDIT_CARD'] }),
    rule('priority', { paymentMethods: ['BILLET'] }),
    rule(strategy),
  ],
});

const strategies: RoutingStrategy[] = ['priority', 'weighted', 'lowest_cost', 'best_approval'];
const routes = new Map(strategies.map((strategy) => [strategy, routeOf(strategy)]));
const repository = { find: async (_em: unknown, name: string) => routes.get(name as RoutingStrategy) } as unknown as RoutesRepository;
const service = new RoutesService({ db: { em: () => ({}) } } as unknown as GatewayDeps, repository, 60_000);
// The window full, as in steady traffic: 200 attempts at each account, a few declined.
for (const n of [1, 2, 3]) for (let i = 0; i < 200; i++) service.health.recorded(account(n), i % (10 + n) ? 'APPROVED' : 'REJECTED', 120);
// A process that has called CIRCUITS accounts (each a circuit, read once per best_approval decision).
const CIRCUITS = arg('circuits', 100);
for (let n = 1; n <= CIRCUITS; n++) circuitFor({ provider: 'SANDBOX', accountId: account(n), origin: 'https://api.example.com' }, {}, {} as Logger);
const charge = { paymentMethod: 'CREDIT_CARD' as const, amount: 19_990, currency: 'BRL', installments: 3, cardBin: '41111111', cardBrand: 'visa' };

async function decide(strategy: RoutingStrategy, n: number): Promise<string> {
  const route = await service.forCharge(strategy);
  const key = `order-${n}`;
  const decision = decideRoute(route, charge, seededRandom(seedOf(key)), healthForDecision(service.health))!;
  const target = decision.targets[0]!;
  service.health.recorded(target.providerAccountId, 'APPROVED', 120);
  return attemptKey(key, 1);
}

const rows: string[] = [];
for (const strategy of strategies) {
  for (let n = 0; n < DECISIONS; n++) await decide(strategy, n);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let n = DECISIONS; n < 2 * DECISIONS; n++) await decide(strategy, n);
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / DECISIONS;
  const wallMs = (performance.now() - wall) / DECISIONS;
  rows.push(
    `  ${strategy.padEnd(14)} ${(cpuMs * 1000).toFixed(2).padStart(6)} µs CPU (${cpuMs.toFixed(4)} ms), ${(wallMs * 1000).toFixed(2)} µs wall per decision: ${cpuMs <= TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target`,
  );
}
console.log(
  `route decision, CPU per charge over ${DECISIONS} decisions each (4 rules, 3 targets, the match the 4th rule; ${CIRCUITS} circuits in the process):`,
);
for (const row of rows) console.log(row);
