import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../domain/types.js';
import {
  DEFAULT_MAX_ATTEMPTS,
  decideRoute,
  MAX_ATTEMPTS_LIMIT,
  ROUTING_STRATEGIES,
  seededRandom,
  type Route,
  type OrderedTarget,
  type RouteDecision,
  type RoutedCharge,
  type RouteInput,
  type RouteRule,
  type RouteTarget,
  type RoutingStrategy,
} from '../domain/routing.js';
import { groupOutcomes, type RouteOutcome } from '../domain/routeOutcomes.js';
import type { RoutesRepository } from '../db/routesRepository.js';
import type { GatewayDeps } from './context.js';
import { limitedText, outOfRange, requirePositiveCents, requireText } from './validation.js';
import { checkedSoftDeclineCodes } from './softDeclines.js';
import { healthForDecision, RoutingHealth, type AccountHealth } from './routingHealth.js';
import { seedOf } from './routedCharges.js';

const OUTCOMES_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A route's decision for one charge, with the targets whose accounts were deleted since the route was saved left out. */
export interface ChargeDecision {
  /** Undefined: no rule matches. */
  decision?: RouteDecision;
  /** Every target of the matching rule in the order decided, the deleted ones included. */
  ordered: OrderedTarget[];
  /** The accounts left out of `decision` because they were deleted. */
  deleted: string[];
}

export interface PreviewTarget {
  providerAccountId: string;
  provider: string;
  reason: string;
  tried: boolean;
  skippedBecause: string;
}

export interface RoutePreview {
  matched: boolean;
  ruleIndex: number;
  strategy?: RoutingStrategy;
  targets: PreviewTarget[];
  maxAttempts: number;
}

/** A route's target whose account no charge of its rule could use (deleted, or its provider does not take the rule's charges). */
const unusableTarget = (field: string, message: string): GatewayError =>
  new GatewayError('FAILED_PRECONDITION', message, { field, reason: 'ROUTE_TARGET_UNUSABLE' });

const isCount = (value: number): boolean => Number.isSafeInteger(value) && value >= 0;

function checkBounds(field: string, min: number, max: number): void {
  if (!isCount(min)) throw invalidArgument(`${field}.min`, `${field}: the minimum must be a whole number, 0 or more`, 'INVALID_VALUE');
  if (!isCount(max)) throw invalidArgument(`${field}.max`, `${field}: the maximum must be a whole number, 0 or more`, 'INVALID_VALUE');
  if (min && max && min > max) throw invalidArgument(field, `${field}: the minimum ${min} is above the maximum ${max}`, 'RANGE_REVERSED');
}

/** The rule's own shape (no account looked up); returns it normalised (currencies upper-cased). */
function checkRuleShape(rule: RouteRule, at: string): RouteRule {
  if (!ROUTING_STRATEGIES.includes(rule.strategy))
    throw invalidArgument(`${at}.strategy`, `${at}.strategy must be one of ${ROUTING_STRATEGIES.join(', ')}`, 'UNKNOWN_VALUE');
  for (const method of rule.paymentMethods)
    if (!PAYMENT_METHODS.includes(method))
      throw invalidArgument(`${at}.payment_methods`, `${at}.payment_methods: unknown payment method ${String(method)}`, 'UNKNOWN_VALUE');
  checkBounds(`${at}.amount`, rule.minAmount, rule.maxAmount);
  checkBounds(`${at}.installments`, rule.minInstallments, rule.maxInstallments);
  const currencies = rule.currencies.map((currency) => currency.trim().toUpperCase());
  for (const currency of currencies)
    if (!/^[A-Z]{3}$/.test(currency)) throw invalidArgument(`${at}.currencies`, `${at}.currencies: ${currency} is not an ISO 4217 code`, 'INVALID_VALUE');
  rule.binRanges.forEach((range, index) => {
    if (!/^\d{6}$/.test(range.from) || !/^\d{6}$/.test(range.to) || range.from > range.to)
      throw invalidArgument(`${at}.bin_ranges[${index}]`, `${at}.bin_ranges[${index}] must be two 6-digit BINs, from ≤ to`, 'INVALID_VALUE');
  });
  if (!rule.targets.length) throw invalidArgument(`${at}.targets`, `${at}.targets: a rule names at least one provider account`, 'REQUIRED');
  const seen = new Set<string>();
  rule.targets.forEach((target, index) => checkTargetShape(rule, target, `${at}.targets[${index}]`, seen));
  if (rule.strategy === 'weighted') {
    const total = rule.targets.reduce((sum, target) => sum + target.weight, 0);
    if (total !== 100)
      throw invalidArgument(`${at}.targets`, `${at}.targets: weights add up to ${total}, not 100`, 'WEIGHTS_NOT_100', { total: String(total) });
  }
  if (rule.strategy === 'lowest_cost' && !rule.paymentMethods.length)
    throw invalidArgument(`${at}.payment_methods`, `${at}.payment_methods: a lowest_cost rule names the methods its fees are for`, 'REQUIRED');
  return { ...rule, currencies, cardBrands: rule.cardBrands.map((brand) => brand.trim()).filter(Boolean) };
}

function checkTargetShape(rule: RouteRule, target: RouteTarget, at: string, seen: Set<string>): void {
  if (!isUuid(target.providerAccountId))
    throw invalidArgument(`${at}.provider_account_id`, `${at}.provider_account_id must be a provider account's id`, 'INVALID_ID');
  if (seen.has(target.providerAccountId))
    throw invalidArgument(`${at}.provider_account_id`, `${at}.provider_account_id: the account is already a target of this rule`, 'INVALID_VALUE');
  seen.add(target.providerAccountId);
  if (rule.strategy === 'weighted' && !(Number.isInteger(target.weight) && target.weight >= 1 && target.weight <= 100))
    throw outOfRange(`${at}.weight`, `${at}.weight must be from 1 to 100 in a weighted rule`, 1, 100);
  if (rule.strategy !== 'weighted' && target.weight !== 0)
    throw invalidArgument(`${at}.weight`, `${at}.weight is only taken in a weighted rule`, 'NOT_ALLOWED');
  target.fees.forEach((fee, index) => {
    if (!isCount(fee.fixed) || !Number.isInteger(fee.percentBps) || fee.percentBps < 0 || fee.percentBps > 10_000)
      throw invalidArgument(`${at}.fees[${index}]`, `${at}.fees[${index}]: fixed is whole cents, percent_bps from 0 to 10000`, 'INVALID_VALUE');
  });
  if (rule.strategy === 'lowest_cost')
    for (const method of rule.paymentMethods)
      if (!target.fees.some((fee) => fee.paymentMethod === method))
        throw invalidArgument(`${at}.fees`, `${at}.fees: no fee is declared for ${method}`, 'REQUIRED');
}

/** A sample charge for PreviewRoute, checked as CreateTransaction checks the same fields. */
export interface SampleCharge {
  paymentMethod?: PaymentMethod;
  amount: number;
  currency: string;
  installments: number;
  cardBrand: string;
  cardBin: string;
}

function checkedSample(sample: SampleCharge): RoutedCharge {
  if (!sample.paymentMethod) throw invalidArgument('payment_method', 'payment_method is required', 'REQUIRED');
  const installments = sample.installments || 1;
  if (!Number.isInteger(installments) || installments < 1) throw invalidArgument('installments', 'installments must be a positive integer', 'INVALID_VALUE');
  if (sample.cardBin && !/^\d{6,8}$/.test(sample.cardBin))
    throw invalidArgument('card_bin', "card_bin must be the card's first 6 to 8 digits", 'INVALID_VALUE');
  return {
    paymentMethod: sample.paymentMethod,
    amount: requirePositiveCents('amount', sample.amount),
    currency: sample.currency.trim().toUpperCase() || 'BRL',
    installments,
    cardBin: sample.cardBin || undefined,
    cardBrand: sample.cardBrand.trim() || undefined,
  };
}

/**
 * Routes: saved only when every target can take what its rule matches, so that a charge is refused for a bad route
 * when the route is saved rather than at checkout. Served from memory: this process drops its copy when it changes a
 * route, other processes read routes again after ROUTE_CACHE_MS at most.
 */
export class RoutesService {
  private readonly cache = new Map<string, { route: Route; until: number }>();
  /** What charges and payouts did at each account's provider recently (GetRoutingHealth), fed where they call it. */
  readonly health = new RoutingHealth();

  constructor(
    private readonly deps: GatewayDeps,
    private readonly repository: RoutesRepository,
    private readonly cacheMs = 5_000,
  ) {}

  /** A target's account exists, is not deleted, and its provider charges every method its rule names. */
  private async checkTargetAccount(rule: RouteRule, target: RouteTarget, at: string): Promise<void> {
    const field = `${at}.provider_account_id`;
    const em = this.deps.db.em();
    const account = await this.deps.accounts.getWithSecrets(em, target.providerAccountId, { includeDeleted: true });
    if (!account) throw invalidArgument(field, `${field}: provider account ${target.providerAccountId} not found`, 'INVALID_VALUE');
    if (!(await this.deps.accounts.getWithSecrets(em, target.providerAccountId)))
      throw unusableTarget(field, `${field}: provider account ${target.providerAccountId} is deleted`);
    const adapter = this.deps.registry.find(account.provider);
    if (!adapter?.supports('createTransaction')) throw unusableTarget(field, `${field}: provider ${account.provider} takes no charges`);
    for (const method of rule.paymentMethods)
      if (!adapter.capabilities.paymentMethods.includes(method))
        throw unusableTarget(field, `${field}: provider ${account.provider} of account ${account.id} does not take ${method}`);
  }

  private async checked(input: RouteInput): Promise<RouteInput> {
    const name = requireText('name', input.name).trim();
    limitedText('name', name, 255);
    if (!Number.isInteger(input.maxAttempts) || input.maxAttempts < 0 || input.maxAttempts > MAX_ATTEMPTS_LIMIT)
      throw outOfRange('max_attempts', `max_attempts must be from 1 to ${MAX_ATTEMPTS_LIMIT} (0: 2)`, 1, MAX_ATTEMPTS_LIMIT);
    if (!input.rules.length) throw invalidArgument('rules', 'rules: a route has at least one rule', 'REQUIRED');
    const rules = input.rules.map((rule, index) => checkRuleShape(rule, `rules[${index}]`));
    for (const [index, rule] of rules.entries())
      for (const [position, target] of rule.targets.entries()) await this.checkTargetAccount(rule, target, `rules[${index}].targets[${position}]`);
    return { name, rules, maxAttempts: input.maxAttempts, softDeclineCodes: checkedSoftDeclineCodes(input.softDeclineCodes) };
  }

  async create(input: RouteInput): Promise<Route> {
    const route = await this.repository.create(this.deps.db.em(), await this.checked(input));
    if (!route) throw new GatewayError('ALREADY_EXISTS', `a route named ${input.name.trim()} already exists`, { field: 'name', reason: 'ALREADY_EXISTS' });
    this.cache.clear();
    return route;
  }

  async get(idOrName: string): Promise<Route> {
    requireText('id', idOrName);
    const route = await this.repository.find(this.deps.db.em(), idOrName);
    if (!route) throw notFound(`route ${idOrName} not found`);
    return route;
  }

  list(): Promise<Route[]> {
    return this.repository.list(this.deps.db.em());
  }

  async update(id: string, input: RouteInput): Promise<Route> {
    const checked = await this.checked(input);
    const updated = await this.repository.update(this.deps.db.em(), id, checked);
    if (updated === 'missing') throw notFound(`route ${id} not found`);
    if (updated === 'name_taken')
      throw new GatewayError('ALREADY_EXISTS', `a route named ${checked.name} already exists`, { field: 'name', reason: 'ALREADY_EXISTS' });
    this.cache.clear();
    return updated;
  }

  /** Each account some route targets or that some process called in the window, with this process's circuit and the calls. */
  async routingHealth(): Promise<AccountHealth[]> {
    const figures = await this.health.figures();
    const targets = (await this.list()).flatMap((route) => route.rules.flatMap((rule) => rule.targets.map((target) => target.providerAccountId)));
    const ids = [...new Set([...targets, ...figures.accounts.keys()])];
    const em = this.deps.db.em();
    const accounts = await Promise.all(
      ids.map(async (id) => ({ id, provider: (await this.deps.accounts.getWithSecrets(em, id, { includeDeleted: true }))?.provider ?? '' })),
    );
    return this.health.of(accounts, figures);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.repository.delete(this.deps.db.em(), id))) throw notFound(`route ${id} not found`);
    this.cache.clear();
  }

  /**
   * The route a charge names (by name or id), from memory when read in the last ROUTE_CACHE_MS; INVALID_ARGUMENT on
   * `route` when none. Only routes found are kept, so that made-up names cannot fill the memory.
   */
  async forCharge(idOrName: string): Promise<Route> {
    const now = Date.now();
    const cached = this.cache.get(idOrName);
    if (cached && cached.until > now) return cached.route;
    const route = await this.repository.find(this.deps.db.em(), idOrName);
    if (!route) throw invalidArgument('route', `route ${idOrName} not found; ListRoutes shows the routes`, 'INVALID_VALUE');
    this.cache.set(idOrName, { route, until: now + this.cacheMs });
    return route;
  }

  /**
   * The decision CreateTransaction acts on and PreviewRoute shows: the first matching rule, its targets ordered by its
   * strategy with the draw seeded by the idempotency key, then the targets whose accounts were deleted since the route
   * was saved left out. A deleted account is never charged and is not an attempt: it neither counts against
   * max_attempts nor shows in the charge's attempts.
   */
  async decide(route: Pick<Route, 'rules'>, charge: RoutedCharge, key: string | undefined): Promise<ChargeDecision> {
    const decided = decideRoute(route, charge, key ? seededRandom(seedOf(key)) : Math.random, healthForDecision(this.health));
    if (!decided) return { ordered: [], deleted: [] };
    const em = this.deps.db.em();
    const live = await Promise.all(decided.targets.map(async (target) => Boolean(await this.deps.accounts.getWithSecrets(em, target.providerAccountId))));
    const deleted = decided.targets.filter((_, index) => !live[index]).map((target) => target.providerAccountId);
    const decision = deleted.length ? { ...decided, targets: decided.targets.filter((_, index) => live[index]) } : decided;
    return { decision, ordered: decided.targets, deleted };
  }

  /**
   * The decision a routed charge or payout is sent by, with the targets `usable` refuses left out as deleted ones are
   * (a payout's accounts whose provider pays out no PIX); FAILED_PRECONDITION on `route` when no rule matches
   * (`described` says what was matched) or no target is left.
   */
  async decisionFor(
    route: Route,
    charge: RoutedCharge,
    key: string | undefined,
    described: string,
    usable?: { why: string; test: (providerAccountId: string) => Promise<boolean> },
  ): Promise<RouteDecision> {
    const { decision } = await this.decide(route, charge, key);
    if (!decision)
      throw new GatewayError('FAILED_PRECONDITION', `route ${route.name}: no rule matches this ${described}`, {
        field: 'route',
        reason: 'NO_ROUTE_RULE_MATCHES',
      });
    if (!decision.targets.length)
      throw new GatewayError('FAILED_PRECONDITION', `route ${route.name}: every account of rules[${decision.ruleIndex}] was deleted; update the route`, {
        field: 'route',
        reason: 'ROUTE_ACCOUNTS_DELETED',
      });
    if (!usable) return decision;
    const kept = await Promise.all(decision.targets.map((target) => usable.test(target.providerAccountId)));
    const targets = decision.targets.filter((_, index) => kept[index]);
    if (!targets.length)
      throw new GatewayError('FAILED_PRECONDITION', `route ${route.name}: no account of rules[${decision.ruleIndex}] ${usable.why}`, {
        field: 'route',
        reason: 'ROUTE_NO_USABLE_ACCOUNT',
      });
    return { ...decision, targets };
  }

  /** What a charge would do on a saved route (`id`) or an unsaved one (checked as saving checks it); nothing is charged. */
  async preview(source: { id: string } | RouteInput, sample: SampleCharge, key: string | undefined): Promise<RoutePreview> {
    const charge = checkedSample(sample);
    const route = 'id' in source ? await this.get(source.id) : await this.checked(source);
    const maxAttempts = route.maxAttempts || DEFAULT_MAX_ATTEMPTS;
    const { decision, ordered, deleted } = await this.decide(route, charge, key);
    if (!decision) return { matched: false, ruleIndex: 0, targets: [], maxAttempts };
    let live = 0;
    const skips = ordered.map((target) =>
      deleted.includes(target.providerAccountId) ? 'the account is deleted' : live++ >= maxAttempts ? `beyond max_attempts (${maxAttempts})` : '',
    );
    const em = this.deps.db.em();
    const targets = await Promise.all(
      ordered.map(async (target, index) => ({
        providerAccountId: target.providerAccountId,
        provider: (await this.deps.accounts.getWithSecrets(em, target.providerAccountId, { includeDeleted: true }))?.provider ?? '',
        reason: target.reason,
        tried: !skips[index],
        skippedBecause: skips[index]!,
      })),
    );
    return { matched: true, ruleIndex: decision.ruleIndex, strategy: decision.strategy, targets, maxAttempts };
  }

  /** Routed charges of the last 24 hours per route and account, as stored (routesRepository.outcomes). */
  async outcomes(now = new Date()): Promise<{ since: Date; routes: RouteOutcome[] }> {
    const since = new Date(now.getTime() - OUTCOMES_WINDOW_MS);
    return { since, routes: groupOutcomes(await this.repository.outcomes(this.deps.db.em(), since)) };
  }
}
