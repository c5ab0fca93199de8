/**
 * The one definition of when a charge's money moved, shared by the dashboard (GetTransactionStats) and the statement
 * (GetAccountStatement), so that for any range and account the two add up to the same net:
 *
 * - a paid charge (APPROVED, REFUNDED, CHARGEBACK: the last two were paid first) counts its whole amount when it was
 *   created;
 * - a refund the provider confirmed (`refunds.status = SUCCEEDED`) counts when it was asked for (its record's
 *   created_at);
 * - a charge that moved to REFUNDED counts what its confirmed refunds do not cover (refunded at the provider, outside
 *   the gateway: usually all of it) when it moved there, by its status event;
 * - a chargeback counts what the charge still held (its amount less its confirmed refunds) when the charge moved to
 *   CHARGEBACK, by its status event.
 *
 * So a charge paid, partly refunded and charged back adds up to nothing over its whole life, whichever days each step
 * fell on. Each branch reads a range of its own times through an index: transactions (created_at), refunds
 * (created_at), and partial indexes of the CHARGEBACK and REFUNDED events' occurred_at (migrations 20261202060000 and
 * 20261204030000).
 */

/** Statuses of charges that were paid (refunds and chargebacks were paid first). */
export const PAID = `('APPROVED', 'REFUNDED', 'CHARGEBACK')`;

/** Which movements: those whose own time is in [from, to), of charges in one currency, optionally one provider or account. */
export interface MovementScope {
  from: Date;
  to: Date;
  currency: string;
  provider?: string;
  providerAccountId?: string;
}

/** A piece of SQL and its parameters, in the order of its `?`. */
export interface Sql {
  sql: string;
  params: unknown[];
}

export type MovementKind = 'charge' | 'refund' | 'chargeback';

/**
 * How movements are grouped: named SQL expressions over the charge `t` and the movement's time, which is passed in
 * (e.g. the day it fell on), with the parameters they use in their order.
 */
export type MovementKeys = (at: string) => { columns: { name: string; sql: string }[]; params: unknown[] };

/**
 * What charge `t` still held beyond its confirmed refunds (a few rows per charge, by their (transaction_id, …) index).
 * The charges are joined plainly: the planner hashes the table for a long range and looks rows up for a short one; a
 * lookup per row forced behind a fence cost 2.4 times the CPU over 90 days (docs/benchmarks.md).
 */
const HELD = `greatest(t.amount - coalesce((select sum(cr.amount) from refunds cr where cr.transaction_id = t.id and cr.status = 'SUCCEEDED'), 0), 0)`;

/** The time range and the charge's filters, with their parameters. */
function scoped(time: string, scope: MovementScope): Sql {
  const sql = [`${time} >= ?`, `${time} < ?`, 't.currency = ?'];
  const params: unknown[] = [scope.from, scope.to, scope.currency];
  if (scope.provider) {
    sql.push('t.provider = ?');
    params.push(scope.provider);
  }
  if (scope.providerAccountId) {
    sql.push('t.provider_account_id = ?');
    params.push(scope.providerAccountId);
  }
  return { sql: sql.join(' and '), params };
}

/**
 * The charges created in the scope's range (charge `t`), whatever their status: the paid ones among them are the
 * `charge` movements; the dashboard also counts the others (conversion is by creation).
 */
export const chargesCreated = (scope: MovementScope): Sql => scoped('t.created_at', scope);

export interface MovementOptions {
  /** Only these kinds (all by default): a caller that reads the range's charges itself leaves `charge` out. */
  kinds?: readonly MovementKind[];
  /** Aggregates over the paid charges, for what only a sale has (the statement's fees); 0 in the other kinds' rows. */
  chargeColumns?: { name: string; sql: string }[];
}

/**
 * Every movement of the scope, grouped by `keys` within each kind: rows of the keys' columns, `kind`, `count` and
 * `amount` (cents), then the `chargeColumns`.
 */
export function moneyMovements(scope: MovementScope, keys: MovementKeys, { kinds, chargeColumns = [] }: MovementOptions = {}): Sql {
  const branches: Sql[] = [];
  const branch = (kind: MovementKind, time: string, from: string, where: string, count: string, amount: string) => {
    if (kinds && !kinds.includes(kind)) return;
    const grouping = keys(time);
    const range = scoped(time, scope);
    const columns = grouping.columns.map((column) => `${column.sql} as ${column.name}, `).join('');
    const extra = chargeColumns.map((column) => `, ${kind === 'charge' ? column.sql : '0'} as ${column.name}`).join('');
    const groupBy = grouping.columns.length ? `group by ${grouping.columns.map((_, index) => index + 1).join(', ')}` : '';
    branches.push({
      sql: `select ${columns}'${kind}' as kind, ${count} as count, coalesce(sum(${amount}), 0) as amount${extra}
              from ${from}
             where ${range.sql} and ${where}
             ${groupBy}`,
      params: [...grouping.params, ...range.params],
    });
  };
  branch('charge', 't.created_at', 'transactions t', `t.status in ${PAID}`, 'count(*)', 't.amount');
  branch('refund', 'r.created_at', 'refunds r join transactions t on t.id = r.transaction_id', `r.status = 'SUCCEEDED'`, 'count(*)', 'r.amount');
  branch(
    'refund',
    'e.occurred_at',
    'status_events e join transactions t on t.id = e.subject_id',
    `e.subject = 'TRANSACTION' and e.status = 'REFUNDED'`,
    `count(*) filter (where ${HELD} > 0)`,
    HELD,
  );
  branch(
    'chargeback',
    'e.occurred_at',
    'status_events e join transactions t on t.id = e.subject_id',
    `e.subject = 'TRANSACTION' and e.status = 'CHARGEBACK'`,
    'count(*)',
    HELD,
  );
  return { sql: branches.map((one) => one.sql).join('\n union all\n'), params: branches.flatMap((one) => one.params) };
}
