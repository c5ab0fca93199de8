import type { EntityManager } from '@mikro-orm/postgresql';
import { moneyMovements } from './moneyMovements.js';

/** What a statement covers: instants [from, to) cut into calendar days of `timeZone`, optionally one account. */
export interface StatementQuery {
  from: Date;
  to: Date;
  timeZone: string;
  providerAccountId?: string;
}

/**
 * One calendar day of the statement, in cents; net = charges − refunds − chargebacks − payouts. Fees are those of the
 * day's paid charges: the one their provider reported (`feesReportedCount` of them), else the one their route's target
 * declared (RoutingRecord.declaredFee, `feesDeclaredCount` of them); the other charges carry none.
 */
export interface StatementDay {
  day: string;
  chargesCount: number;
  chargesAmount: number;
  refundsCount: number;
  refundsAmount: number;
  chargebacksCount: number;
  chargebacksAmount: number;
  payoutsCount: number;
  payoutsAmount: number;
  feesAmount: number;
  feesReportedCount: number;
  feesDeclaredCount: number;
  netAmount: number;
}

type StatementRow = { [K in keyof StatementDay]: K extends 'day' ? string : string | number };

/**
 * The gateway's statement as one aggregate over what it recorded (BRL only; withdrawals are BRL by construction): the
 * charges' money on the days it moved, as moneyMovements.ts defines it for the dashboard too (paid charges on the day
 * they were created, confirmed refunds on the day they were asked for, what a charge refunded at the provider or
 * charged back still held on the day it moved to REFUNDED or CHARGEBACK), approved payouts on the day they were asked
 * for (the provider reserves the money then), and the charges' fees: their provider's, else their route's (kept in
 * the charge's routing record). Each branch reads a range of its own times through an index. Reads go to a replica.
 */
export class StatementRepository {
  async statement(em: EntityManager, query: StatementQuery): Promise<StatementDay[]> {
    const charges = moneyMovements(
      { from: query.from, to: query.to, currency: 'BRL', providerAccountId: query.providerAccountId },
      (at) => ({ columns: [{ name: 'day', sql: `(${at} at time zone ?)::date` }], params: [query.timeZone] }),
      {
        chargeColumns: [
          { name: 'fees_amount', sql: `coalesce(sum(coalesce(t.provider_fee, (t.routing->>'declaredFee')::bigint)), 0)` },
          { name: 'fees_reported_count', sql: 'count(t.provider_fee)' },
          { name: 'fees_declared_count', sql: `count(t.routing->>'declaredFee') filter (where t.provider_fee is null)` },
        ],
      },
    );
    const account = query.providerAccountId ? 'and w.provider_account_id = ?' : '';
    const rows = await em.getConnection('read').execute<StatementRow[]>(
      `select day::text as day,
              coalesce(sum(count) filter (where kind = 'charge'), 0) as "chargesCount",
              coalesce(sum(amount) filter (where kind = 'charge'), 0) as "chargesAmount",
              coalesce(sum(count) filter (where kind = 'refund'), 0) as "refundsCount",
              coalesce(sum(amount) filter (where kind = 'refund'), 0) as "refundsAmount",
              coalesce(sum(count) filter (where kind = 'chargeback'), 0) as "chargebacksCount",
              coalesce(sum(amount) filter (where kind = 'chargeback'), 0) as "chargebacksAmount",
              coalesce(sum(count) filter (where kind = 'payout'), 0) as "payoutsCount",
              coalesce(sum(amount) filter (where kind = 'payout'), 0) as "payoutsAmount",
              sum(fees_amount) as "feesAmount", sum(fees_reported_count) as "feesReportedCount", sum(fees_declared_count) as "feesDeclaredCount"
         from (${charges.sql}
               union all
               select (w.created_at at time zone ?)::date, 'payout', count(*), sum(w.amount), 0, 0, 0
                 from withdrawals w
                where w.created_at >= ? and w.created_at < ? ${account} and w.status = 'APPROVED'
                group by 1) as movements
        group by day
        having sum(count) > 0
        order by day`,
      [...charges.params, query.timeZone, query.from, query.to, ...(query.providerAccountId ? [query.providerAccountId] : [])],
      'all',
    );
    return rows.map(statementDay);
  }
}

function statementDay(row: StatementRow): StatementDay {
  const n = (value: string | number) => Number(value);
  const counted = {
    chargesCount: n(row.chargesCount),
    chargesAmount: n(row.chargesAmount),
    refundsCount: n(row.refundsCount),
    refundsAmount: n(row.refundsAmount),
    chargebacksCount: n(row.chargebacksCount),
    chargebacksAmount: n(row.chargebacksAmount),
    payoutsCount: n(row.payoutsCount),
    payoutsAmount: n(row.payoutsAmount),
    feesAmount: n(row.feesAmount),
    feesReportedCount: n(row.feesReportedCount),
    feesDeclaredCount: n(row.feesDeclaredCount),
  };
  return { day: row.day, ...counted, netAmount: counted.chargesAmount - counted.refundsAmount - counted.chargebacksAmount - counted.payoutsAmount };
}
