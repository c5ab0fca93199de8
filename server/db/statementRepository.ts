import type { EntityManager } from '@mikro-orm/postgresql';
import { PAID } from './listsRepository.js';

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
 * The gateway's statement as one aggregate over what it recorded (BRL only; withdrawals are BRL by construction): paid
 * charges on the day they were created, chargebacks on the day the charge moved to CHARGEBACK (its status event; a
 * charge moved there twice by a replay is moved once: the state machine writes one event), refunds the provider
 * confirmed on the day they were asked for, approved payouts on the day they were asked for (the provider reserves
 * the money then), and the charges' fees: their provider's, else their route's (kept in the charge's routing record). Each branch reads a range of its own times through an index: transactions (created_at,
 * id) or (provider_account_id, created_at, id), refunds (created_at), chargebacks (a partial index of the CHARGEBACK
 * events' occurred_at), withdrawals likewise. Reads go to a replica.
 */
export class StatementRepository {
  async statement(em: EntityManager, query: StatementQuery): Promise<StatementDay[]> {
    const account = query.providerAccountId ? 'and provider_account_id = ?' : '';
    const range = (alias: string) => `${alias}.created_at >= ? and ${alias}.created_at < ?`;
    const day = (alias: string) => `(${alias}.${alias === 'e' ? 'occurred_at' : 'created_at'} at time zone ?)::date`;
    const branchParams = [query.timeZone, query.from, query.to, ...(query.providerAccountId ? [query.providerAccountId] : [])];
    const rows = await em.getConnection('read').execute<StatementRow[]>(
      `select day::text as day,
              sum(charges_count) as "chargesCount", sum(charges_amount) as "chargesAmount",
              sum(refunds_count) as "refundsCount", sum(refunds_amount) as "refundsAmount",
              sum(chargebacks_count) as "chargebacksCount", sum(chargebacks_amount) as "chargebacksAmount",
              sum(payouts_count) as "payoutsCount", sum(payouts_amount) as "payoutsAmount",
              sum(fees_amount) as "feesAmount", sum(fees_reported_count) as "feesReportedCount", sum(fees_declared_count) as "feesDeclaredCount"
         from (select ${day('t')} as day, count(*) as charges_count, sum(t.amount) as charges_amount, 0 as refunds_count, 0 as refunds_amount,
                      0 as chargebacks_count, 0 as chargebacks_amount, 0 as payouts_count, 0 as payouts_amount,
                      coalesce(sum(coalesce(t.provider_fee, (t.routing->>'declaredFee')::bigint)), 0) as fees_amount,
                      count(t.provider_fee) as fees_reported_count,
                      count(t.routing->>'declaredFee') filter (where t.provider_fee is null) as fees_declared_count
                 from transactions t
                where ${range('t')} ${account} and t.currency = 'BRL' and t.status in ${PAID}
                group by 1
               union all
               select ${day('r')}, 0, 0, count(*), sum(r.amount), 0, 0, 0, 0, 0, 0, 0
                 from refunds r join transactions t on t.id = r.transaction_id
                where ${range('r')} ${account.replace('provider_account_id', 't.provider_account_id')} and t.currency = 'BRL' and r.status = 'SUCCEEDED'
                group by 1
               union all
               select ${day('e')}, 0, 0, 0, 0, count(*), sum(t.amount), 0, 0, 0, 0, 0
                 from status_events e join transactions t on t.id = e.subject_id
                where e.subject = 'TRANSACTION' and e.status = 'CHARGEBACK' and e.occurred_at >= ? and e.occurred_at < ?
                      ${account.replace('provider_account_id', 'e.provider_account_id')} and t.currency = 'BRL'
                group by 1
               union all
               select ${day('w')}, 0, 0, 0, 0, 0, 0, count(*), sum(w.amount), 0, 0, 0
                 from withdrawals w
                where ${range('w')} ${account} and w.status = 'APPROVED'
                group by 1) as movements
        group by day
        order by day`,
      [...branchParams, ...branchParams, ...branchParams, ...branchParams],
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
