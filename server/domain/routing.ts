import type { PaymentMethod } from './types.js';

/**
 * Routes as data, and the decision for one charge: which rule matches it and in what order its targets are tried.
 * Pure: no I/O, the random draw is given, so a decision is tested with a seeded one and costs only arithmetic.
 */

export const ROUTING_STRATEGIES = ['priority', 'weighted', 'lowest_cost', 'best_approval'] as const;
export type RoutingStrategy = (typeof ROUTING_STRATEGIES)[number];

/** Fixed cents plus basis points of the amount, for one payment method at one target. */
export interface TargetFee {
  paymentMethod: PaymentMethod;
  fixed: number;
  percentBps: number;
}

export interface RouteTarget {
  providerAccountId: string;
  /** For `weighted`: 1 to 100, the rule's adding up to 100. */
  weight: number;
  /** For `lowest_cost`. */
  fees: TargetFee[];
}

export interface BinRange {
  from: string;
  to: string;
}

/** Every condition set must hold; an empty list or a 0 bound matches anything. */
export interface RouteRule {
  paymentMethods: PaymentMethod[];
  minAmount: number;
  maxAmount: number;
  currencies: string[];
  cardBrands: string[];
  binRanges: BinRange[];
  minInstallments: number;
  maxInstallments: number;
  strategy: RoutingStrategy;
  targets: RouteTarget[];
}

export interface RouteInput {
  name: string;
  rules: RouteRule[];
  /** 0: DEFAULT_MAX_ATTEMPTS. */
  maxAttempts: number;
  /** The card decline reasons retried at the next target; empty or absent: DEFAULT_SOFT_DECLINE_CODES. */
  softDeclineCodes?: string[];
}

export interface Route extends RouteInput {
  id: string;
  createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_MAX_ATTEMPTS = 2;
export const MAX_ATTEMPTS_LIMIT = 5;

/**
 * Card declines that say "not now, not here" rather than "never": the issuer or the acquirer did not decide on the
 * card, so another acquirer may approve it. Reasons as adapters report them (TransactionResult.declineReason), compared
 * lower-cased: Stripe-style names and the ISO 8583 response codes they stand for (05 do not honour, 19 re-enter,
 * 91 issuer unavailable, 96 system malfunction).
 */
export const DEFAULT_SOFT_DECLINE_CODES: readonly string[] = [
  'do_not_honor',
  'issuer_not_available',
  'processing_error',
  'try_again_later',
  'reenter_transaction',
  '05',
  '19',
  '91',
  '96',
];

/**
 * Declines never retried elsewhere, even when a route lists them: the card is lost, stolen or suspected of fraud, or
 * the issuer said no for good (another acquirer asks the same issuer). ISO 8583: 04, 07, 41, 43 pick up, lost,
 * stolen; 59 suspected fraud; 14 invalid card; 54 expired; 57 not permitted to the cardholder.
 */
export const NEVER_SOFT_DECLINE_CODES: ReadonlySet<string> = new Set([
  'fraudulent',
  'lost_card',
  'stolen_card',
  'pickup_card',
  'restricted_card',
  'merchant_blacklist',
  'security_violation',
  'invalid_number',
  'incorrect_number',
  'expired_card',
  'insufficient_funds',
  'card_not_supported',
  'transaction_not_allowed',
  '04',
  '07',
  '14',
  '41',
  '43',
  '51',
  '54',
  '57',
  '59',
]);

export const normalDeclineCode = (code: string): string => code.trim().toLowerCase();

/** Whether a card decline with this reason is retried at the route's next target. */
export function isSoftDecline(route: Pick<Route, 'softDeclineCodes'>, reason: string | undefined): boolean {
  if (!reason) return false;
  const code = normalDeclineCode(reason);
  if (NEVER_SOFT_DECLINE_CODES.has(code)) return false;
  return (route.softDeclineCodes?.length ? route.softDeclineCodes : DEFAULT_SOFT_DECLINE_CODES).some((listed) => normalDeclineCode(listed) === code);
}

/** What a rule is matched against. */
export interface RoutedCharge {
  paymentMethod: PaymentMethod;
  amount: number;
  currency: string;
  installments: number;
  cardBin?: string;
  cardBrand?: string;
}

/** A target in the order it will be tried, and why it has that place. */
export interface OrderedTarget {
  providerAccountId: string;
  reason: string;
}

/**
 * What `best_approval` knows of a target when deciding: its approval rate over its recent answers (undefined while it
 * has too few to tell) and whether its circuit is open (the provider is failing fast).
 */
export interface TargetHealth {
  approvalRate: number | undefined;
  circuitOpen: boolean;
}
export type HealthOf = (providerAccountId: string) => TargetHealth;

/** Share of `best_approval` charges sent first to another account than the best, so that a recovered one is noticed. */
export const EXPLORATION_SHARE = 0.05;

const UNKNOWN_HEALTH: TargetHealth = { approvalRate: undefined, circuitOpen: false };

export interface RouteDecision {
  ruleIndex: number;
  strategy: RoutingStrategy;
  targets: OrderedTarget[];
}

const within = (value: number, min: number, max: number): boolean => (!min || value >= min) && (!max || value <= max);

function binMatches(ranges: readonly BinRange[], bin: string | undefined): boolean {
  if (!ranges.length) return true;
  const six = bin?.slice(0, 6);
  return six !== undefined && six.length === 6 && ranges.some((range) => six >= range.from && six <= range.to);
}

export function ruleMatches(rule: RouteRule, charge: RoutedCharge): boolean {
  return (
    (!rule.paymentMethods.length || rule.paymentMethods.includes(charge.paymentMethod)) &&
    within(charge.amount, rule.minAmount, rule.maxAmount) &&
    (!rule.currencies.length || rule.currencies.includes(charge.currency.toUpperCase())) &&
    (!rule.cardBrands.length || (!!charge.cardBrand && rule.cardBrands.some((brand) => brand.toLowerCase() === charge.cardBrand!.toLowerCase()))) &&
    binMatches(rule.binRanges, charge.cardBin) &&
    within(charge.installments, rule.minInstallments, rule.maxInstallments)
  );
}

/** The fee in cents a target declares for this charge; undefined where it declares none for the charge's method. */
export function declaredFee(target: RouteTarget, charge: Pick<RoutedCharge, 'paymentMethod' | 'amount'>): number | undefined {
  const fee = target.fees.find((item) => item.paymentMethod === charge.paymentMethod);
  return fee ? fee.fixed + Math.round((charge.amount * fee.percentBps) / 10_000) : undefined;
}

/** The fee in cents a target charges for this charge; a target without a fee for the method costs nothing declared (0). */
export const targetCost = (target: RouteTarget, charge: Pick<RoutedCharge, 'paymentMethod' | 'amount'>): number => declaredFee(target, charge) ?? 0;

/** Draws targets one by one by weight without replacement: the first by its share of 100, the next among the rest. */
function weightedOrder(targets: readonly RouteTarget[], random: () => number): OrderedTarget[] {
  const left = [...targets];
  const ordered: OrderedTarget[] = [];
  while (left.length) {
    const total = left.reduce((sum, target) => sum + target.weight, 0);
    let draw = random() * total;
    let index = left.findIndex((target) => (draw -= target.weight) < 0);
    if (index < 0) index = left.length - 1;
    const [chosen] = left.splice(index, 1);
    ordered.push({ providerAccountId: chosen!.providerAccountId, reason: `weighted draw (weight ${chosen!.weight})` });
  }
  return ordered;
}

const percent = (rate: number): string => `${Math.round(rate * 1000) / 10} %`;

/**
 * Highest approval rate first (an account without enough answers yet counts as 1, so it is tried), ties in the listed
 * order, open circuits last. With EXPLORATION_SHARE of the draws, one of the others goes first instead: a declining
 * account's rate can climb again only if it is tried, and an open circuit moves to half-open only when a call reaches it
 * (failing fast there costs an attempt, and the next target is tried).
 */
function bestApprovalOrder(targets: readonly RouteTarget[], random: () => number, healthOf: HealthOf): OrderedTarget[] {
  const ranked = targets
    .map((target, index) => ({ id: target.providerAccountId, index, health: healthOf(target.providerAccountId) }))
    .map((entry) => ({ ...entry, rate: entry.health.approvalRate ?? 1 }))
    .sort((a, b) => Number(a.health.circuitOpen) - Number(b.health.circuitOpen) || b.rate - a.rate || a.index - b.index);
  const reasonOf = (entry: (typeof ranked)[number]): string =>
    entry.health.circuitOpen
      ? 'best approval: circuit open, tried last'
      : entry.health.approvalRate === undefined
        ? 'best approval: no approval rate yet'
        : `best approval: approval rate ${percent(entry.health.approvalRate)}`;
  const ordered = ranked.map((entry) => ({ providerAccountId: entry.id, reason: reasonOf(entry) }));
  if (ordered.length >= 2 && random() < EXPLORATION_SHARE) {
    const index = 1 + Math.min(ordered.length - 2, Math.floor(random() * (ordered.length - 1)));
    const [explored] = ordered.splice(index, 1);
    ordered.unshift({ providerAccountId: explored!.providerAccountId, reason: `${explored!.reason}; exploring` });
  }
  return ordered;
}

export function orderTargets(rule: RouteRule, charge: RoutedCharge, random: () => number, healthOf: HealthOf = () => UNKNOWN_HEALTH): OrderedTarget[] {
  switch (rule.strategy) {
    case 'priority':
      return rule.targets.map((target, index) => ({ providerAccountId: target.providerAccountId, reason: `priority ${index + 1}` }));
    case 'weighted':
      return weightedOrder(rule.targets, random);
    case 'lowest_cost':
      return rule.targets
        .map((target, index) => ({ target, index, cost: targetCost(target, charge) }))
        .sort((a, b) => a.cost - b.cost || a.index - b.index)
        .map(({ target, cost }) => ({ providerAccountId: target.providerAccountId, reason: `lowest cost (${cost} cents)` }));
    case 'best_approval':
      return bestApprovalOrder(rule.targets, random, healthOf);
  }
}

/** The first rule that matches and its targets in order, or undefined when none matches. */
export function decideRoute(route: Pick<Route, 'rules'>, charge: RoutedCharge, random: () => number, healthOf?: HealthOf): RouteDecision | undefined {
  const ruleIndex = route.rules.findIndex((rule) => ruleMatches(rule, charge));
  if (ruleIndex < 0) return undefined;
  const rule = route.rules[ruleIndex]!;
  return { ruleIndex, strategy: rule.strategy, targets: orderTargets(rule, charge, random, healthOf) };
}

/**
 * A deterministic draw in [0, 1) from a seed (mulberry32): a charge's idempotency key seeds its draw, so a retry of
 * the same charge is routed as the first attempt was.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * One target tried for a charge: `charged` took it (whatever its status), `not_sent` certainly did not act,
 * `soft_declined` declined the card with a reason the route retries elsewhere (that decline is its own charge).
 */
export interface RoutingAttempt {
  providerAccountId: string;
  provider: string;
  outcome: 'charged' | 'not_sent' | 'soft_declined';
  reason: string;
}

/** What a routed charge keeps of its route (Transaction.routing). */
export interface RoutingRecord {
  routeId: string;
  routeName: string;
  ruleIndex: number;
  strategy: RoutingStrategy;
  attempts: RoutingAttempt[];
  /**
   * For a charge: the fee in cents the rule's target that took it declares for the charge's method and amount, as the
   * route stood when it was charged (the statement's fees); absent where that target declares none.
   */
  declaredFee?: number;
}

/** The record of a routed charge with the fee its charging target declares, kept as the route stands now (routes change). */
export function withDeclaredFee(
  routing: RoutingRecord,
  route: Route,
  providerAccountId: string,
  charge: Pick<RoutedCharge, 'paymentMethod' | 'amount'>,
): RoutingRecord {
  const target = route.rules[routing.ruleIndex]?.targets.find((item) => item.providerAccountId === providerAccountId);
  const fee = target && declaredFee(target, charge);
  return fee === undefined ? routing : { ...routing, declaredFee: fee };
}
