import type { AccountBalance } from '../domain/types.js';
import type { StatementDay, StatementRepository } from '../db/statementRepository.js';
import { cancellableRead } from '../lib/callScope.js';
import { dayStartIn, daysBetween, isCalendarDay, nextDay } from '../lib/calendarDay.js';
import { invalidArgument } from '../lib/errors.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { requireOrderedRange } from './validation.js';

/** The statement's days are São Paulo's (issue 33 §4): Brazilian merchants reconcile by their own calendar. */
export const STATEMENT_TIME_ZONE = 'America/Sao_Paulo';
/** A year and a day: a whole year of statement, leap or not, in one request. */
export const MAX_STATEMENT_DAYS = 366;

export interface AccountStatement {
  days: StatementDay[];
  total: StatementDay;
  currency: 'BRL';
}

const ZERO_DAY: StatementDay = {
  day: '',
  chargesCount: 0,
  chargesAmount: 0,
  refundsCount: 0,
  refundsAmount: 0,
  chargebacksCount: 0,
  chargebacksAmount: 0,
  payoutsCount: 0,
  payoutsAmount: 0,
  feesAmount: 0,
  feesReportedCount: 0,
  feesDeclaredCount: 0,
  netAmount: 0,
};

function added(total: StatementDay, day: StatementDay): StatementDay {
  const sum = { ...total };
  for (const key of Object.keys(ZERO_DAY) as (keyof StatementDay)[]) if (key !== 'day') sum[key] = total[key] + day[key];
  return sum;
}

function checkedDay(field: string, value: string | undefined): string {
  if (!value) throw invalidArgument(field, `${field} is required: a São Paulo calendar day, YYYY-MM-DD`, 'REQUIRED');
  if (!isCalendarDay(value))
    throw invalidArgument(field, `${field} must be a calendar day written YYYY-MM-DD, got ${JSON.stringify(value.slice(0, 32))}`, 'INVALID_VALUE');
  return value;
}

/** A provider account's balance, read at its provider, and the gateway's own statement of what it recorded. */
export class BalancesService {
  constructor(private readonly deps: GatewayDeps & { statements: StatementRepository }) {}

  /** UNIMPLEMENTED (the adapter's not-offered text) where the provider has no balance read; a provider outage stays UNAVAILABLE. */
  async balance(providerAccountId: string): Promise<AccountBalance & { readAt: Date }> {
    const { adapter, ctx } = await resolveAccount(this.deps, providerAccountId);
    if (!adapter.supports('getAccountBalance')) throw adapter.notOffered('getAccountBalance');
    const balance = await adapter.getAccountBalance(ctx);
    return { ...balance, readAt: new Date() };
  }

  async statement(query: { providerAccountId?: string; fromDay?: string; toDay?: string }): Promise<AccountStatement> {
    const from = checkedDay('from_day', query.fromDay);
    const to = checkedDay('to_day', query.toDay);
    const span = daysBetween(from, to);
    requireOrderedRange('to_day', 0, span, 'to_day must not be before from_day', true);
    if (span >= MAX_STATEMENT_DAYS)
      throw invalidArgument('to_day', `the statement covers at most ${MAX_STATEMENT_DAYS} days: shorten the range`, 'INVALID_VALUE');
    const days = await cancellableRead(() =>
      this.deps.statements.statement(this.deps.db.em(), {
        from: dayStartIn(from, STATEMENT_TIME_ZONE),
        to: dayStartIn(nextDay(to), STATEMENT_TIME_ZONE),
        timeZone: STATEMENT_TIME_ZONE,
        providerAccountId: query.providerAccountId || undefined,
      }),
    );
    return { days, total: days.reduce(added, ZERO_DAY), currency: 'BRL' };
  }
}
