import { raw, type EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentMethod, Receiver, Transaction, TransactionStatus, Withdrawal } from '../domain/types.js';
import type {
  ListFilter,
  Page,
  PageCursor,
  Outcomes,
  ProviderTotals,
  ReceiverListFilter,
  StatusTotals,
  TimeBucket,
  Totals,
  TransactionListFilter,
  TransactionStats,
  TransactionStatsQuery,
  WithdrawalListFilter,
} from '../domain/lists.js';
import { searchedDocument, searchedEmail } from '../domain/searchKeys.js';
import { declineCategory, type DeclineCategory } from '../domain/declineCategories.js';
import { chargesCreated, moneyMovements, PAID, type MovementScope } from './moneyMovements.js';
import { isUuid } from '../lib/ids.js';
import { ReceiverEntity, TransactionEntity, WithdrawalEntity, type TransactionRow } from './entities.js';
import { encodePageToken } from './pageTokens.js';
import { containsPattern, idPrefixRange, MIN_PARTIAL_SEARCH, SEARCH_TEXT } from './transactionSearch.js';
import { toReceiver } from './receiversRepository.js';
import { transactionOf } from './transactionsRepository.js';
import { withdrawalOf } from './withdrawalsRepository.js';

type Condition = Record<string | symbol, unknown>;

/** The filters every list has, as ORM conditions. */
function listConditions(filter: ListFilter<string>): Condition[] {
  const conditions: (Condition | undefined)[] = [
    filter.provider ? { provider: filter.provider } : undefined,
    filter.providerAccountId ? { providerAccountId: filter.providerAccountId } : undefined,
    filter.statuses?.length ? { status: { $in: [...filter.statuses] } } : undefined,
    filter.createdFrom ? { createdAt: { $gte: filter.createdFrom } } : undefined,
    filter.createdTo ? { createdAt: { $lt: filter.createdTo } } : undefined,
  ];
  return conditions.filter((condition): condition is Condition => condition !== undefined);
}

/** A search text that is a whole e-mail address (something@domain.tld), not part of one. */
const WHOLE_EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The search: any one of these exact matches (each column has its own index, so PostgreSQL ORs index scans). */
const anyOf = (matches: (Condition | undefined)[]): Condition => ({ $or: matches.filter((match) => match !== undefined) });
const byGatewayId = (query: string): Condition | undefined => (isUuid(query) ? { id: query } : undefined);

/**
 * A transaction's list columns: what the list shows and the CSV export writes. Never the QR image (a data URL of several
 * kB per row) nor the other details (items, card, PIX payer), which GetTransaction answers. The customer tells apart the
 * many Marias a search finds; it, the description and the decline reason are short texts of the row itself (no join).
 */
const TRANSACTION_LIST_FIELDS = [
  'id',
  'providerAccountId',
  'provider',
  'providerTransactionId',
  'paymentMethod',
  'status',
  'amount',
  'currency',
  'installments',
  'pixCode',
  'billetCode',
  'billetUrl',
  'expiresAt',
  'orderId',
  'customerName',
  'customerEmail',
  'customerDocument',
  'description',
  'declineReason',
  'declineMessage',
  'webhookUrl',
  'origin',
  'refundedAmount',
  'createdAt',
  'updatedAt',
] as const;

/**
 * One page, newest first, after the cursor. The cursor is a row value
 * comparison, so PostgreSQL seeks straight to it in a (…, created_at, id)
 * index: a deep page costs what the first one does, and rows created since
 * the first page (newer than every cursor) never shift the pages after it.
 */
async function keysetPage<Row extends { id: string; createdAt: Date }>(
  em: EntityManager,
  entity: EntityName<Row>,
  conditions: Condition[],
  size: number,
  after: PageCursor | undefined,
  fields?: readonly string[],
): Promise<{ rows: Row[]; nextPageToken?: string }> {
  const qb = em.createQueryBuilder(entity, 'e', 'read');
  if (fields) qb.select(fields as never);
  qb.where({ $and: conditions } as never);
  if (after) qb.andWhere('(e.created_at, e.id) < (?, ?)', [after.at, after.id]);
  qb.orderBy([{ createdAt: 'desc' }, { id: 'desc' }] as never).limit(size + 1);
  const rows = (await qb.getResultList()) as Row[];
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { rows: page, nextPageToken: rows.length > size && last ? encodePageToken(last.createdAt, last.id) : undefined };
}

const totals = (row: { count: string | number; amount: string | number }): Totals => ({ count: Number(row.count), amount: Number(row.amount) });

const byCountThenName =
  <T extends Totals>(key: (item: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || key(a).localeCompare(key(b));

interface StatsRow {
  set: 'total' | 'status' | 'provider' | 'method' | 'bucket' | 'bucket status' | 'bucket provider' | 'outcomes' | 'outcomes provider' | 'outcomes method';
  key: string | null;
  bucket: Date | null;
  count: string;
  amount: string;
  /** Only on the outcomes rows. */
  approved_count: string | null;
  declined_count: string | null;
  pending_count: string | null;
  canceled_count: string | null;
  approved_amount: string | null;
  refunded_amount: string | null;
  chargeback_amount: string | null;
  net_amount: string | null;
}

/**
 * The outcome columns over the range's charges pre-added by status, beside their refunds and chargebacks pre-added
 * (moneyMovements.ts: by when they happened, status null): what each grouping set came to.
 */
const OUTCOMES = `coalesce(sum(count) filter (where status in ${PAID}), 0) as approved_count,
              coalesce(sum(count) filter (where status = 'REJECTED'), 0) as declined_count,
              coalesce(sum(count) filter (where status = 'PENDING'), 0) as pending_count,
              coalesce(sum(count) filter (where status = 'CANCELED'), 0) as canceled_count,
              coalesce(sum(amount) filter (where status in ${PAID}), 0) as approved_amount,
              coalesce(sum(refunded), 0) as refunded_amount,
              coalesce(sum(charged_back), 0) as chargeback_amount,
              coalesce(sum(amount) filter (where status in ${PAID}), 0) - coalesce(sum(refunded), 0) - coalesce(sum(charged_back), 0) as net_amount`;
const NO_OUTCOMES = [
  'approved_count',
  'declined_count',
  'pending_count',
  'canceled_count',
  'approved_amount',
  'refunded_amount',
  'chargeback_amount',
  'net_amount',
]
  .map((column) => `null::numeric as ${column}`)
  .join(', ');

const ZERO_OUTCOMES: Outcomes = {
  approvedCount: 0,
  declinedCount: 0,
  pendingCount: 0,
  canceledCount: 0,
  approvedAmount: 0,
  refundedAmount: 0,
  chargebackAmount: 0,
  netAmount: 0,
};

/** A row's outcomes, added up by the database (see transactionStats). */
const outcomes = (row: StatsRow): Outcomes => ({
  approvedCount: Number(row.approved_count),
  declinedCount: Number(row.declined_count),
  pendingCount: Number(row.pending_count),
  canceledCount: Number(row.canceled_count),
  approvedAmount: Number(row.approved_amount),
  refundedAmount: Number(row.refunded_amount),
  chargebackAmount: Number(row.chargeback_amount),
  netAmount: Number(row.net_amount),
});

/** The back-office's lists and the charges' stats: read-only queries, on the replicas where there are some. */
export class ListsRepository {
  async listTransactions(em: EntityManager, filter: TransactionListFilter, size: number, after?: PageCursor): Promise<Page<Transaction>> {
    const conditions = listConditions(filter);
    if (filter.paymentMethod) conditions.push({ paymentMethod: filter.paymentMethod });
    const text = filter.query?.trim() ?? '';
    if (text.length >= MIN_PARTIAL_SEARCH && !isUuid(text) && !WHOLE_EMAIL.test(text)) {
      // By part, in the one indexed text (transactionSearch.ts); a document typed with its punctuation is searched as its
      // digits; the gateway's id by its beginning, on the primary key. A whole UUID or e-mail is taken as the value
      // itself: the exact matches below find it through their own index, where its trigrams ("example.com" is in most
      // rows) would have the trigram index read most of the table.
      const ids = idPrefixRange(text);
      const byPart = { [raw(SEARCH_TEXT)]: { $like: containsPattern(searchedDocument(text) ?? text) } };
      conditions.push(ids ? anyOf([byPart, { id: { $gte: ids.from, $lte: ids.to } }]) : byPart);
    } else if (filter.query) {
      const query = filter.query;
      const document = searchedDocument(query);
      const email = searchedEmail(query);
      conditions.push(
        anyOf([
          byGatewayId(query),
          { providerTransactionId: query },
          { orderId: query },
          document ? { customerDocument: document } : undefined,
          email ? { customerEmail: email } : undefined,
        ]),
      );
    }
    const { rows, nextPageToken } = await keysetPage<TransactionRow>(em, TransactionEntity, conditions, size, after, TRANSACTION_LIST_FIELDS);
    return { items: rows.map(transactionOf), nextPageToken };
  }

  async listWithdrawals(em: EntityManager, filter: WithdrawalListFilter, size: number, after?: PageCursor): Promise<Page<Withdrawal>> {
    const conditions = listConditions(filter);
    if (filter.paymentMethod) conditions.push({ paymentMethod: filter.paymentMethod });
    if (filter.query) conditions.push(anyOf([byGatewayId(filter.query), { providerWithdrawId: filter.query }]));
    const { rows, nextPageToken } = await keysetPage(em, WithdrawalEntity, conditions, size, after);
    return { items: rows.map(withdrawalOf), nextPageToken };
  }

  /** Receivers' e-mails are kept as their provider reports them, so they are compared lower-cased (an expression index). */
  async listReceivers(em: EntityManager, filter: ReceiverListFilter, size: number, after?: PageCursor): Promise<Page<Receiver>> {
    const conditions = listConditions(filter);
    if (filter.query) {
      const query = filter.query;
      const document = searchedDocument(query);
      const email = searchedEmail(query);
      conditions.push(
        anyOf([byGatewayId(query), { receiverId: query }, document ? { document } : undefined, email ? { [raw('lower(e.email)')]: email } : undefined]),
      );
    }
    const { rows, nextPageToken } = await keysetPage(em, ReceiverEntity, conditions, size, after);
    return { items: rows.map(toReceiver), nextPageToken };
  }

  /**
   * Every total in one pass over the range (GROUPING SETS): the whole, by
   * status, by provider, by payment method, by bucket, and by bucket and
   * status or provider (the charts over time). The range is read through the
   * created_at indexes and first added up by bucket, status, provider and
   * method (a few thousand rows, hashed), which the grouping sets then add
   * up again: over the charges themselves, the planner sorted them once per
   * (bucket, …) set and took about 1.6 times as long. Only the totals leave
   * the database.
   *
   * The outcomes (approved, declined, pending, canceled; gross, refunded,
   * charged back, net: issue 33) are a second grouping over the same range in
   * the same statement (one snapshot, so they agree with the totals), by
   * status, provider and method only: added to the first, their aggregates
   * made the planner trade its hashed pre-addition (whose group count it
   * overestimates, the buckets being expressions) for a sort on disk, about
   * 2.5 times as long over 90 days; apart, they cost a second read of the
   * range, hashed into a few dozen groups.
   *
   * The outcomes' money is counted as the statement counts it (moneyMovements.ts): the approved charges created in the
   * range, less the refunds and chargebacks that happened in it, whenever their charge was created; their reads (by
   * refunds' and status events' own times, a few rows) join the charges' pre-addition before the grouping sets. The
   * counts, and so conversion, stay those of the charges created in the range.
   */
  async transactionStats(em: EntityManager, query: TransactionStatsQuery): Promise<TransactionStats> {
    const scope: MovementScope = {
      from: query.createdFrom,
      to: query.createdTo,
      currency: query.currency,
      provider: query.provider,
      providerAccountId: query.providerAccountId,
    };
    const { sql: filters, params } = chargesCreated(scope);
    const movements = moneyMovements(
      scope,
      () => ({
        columns: [
          { name: 'provider', sql: 't.provider' },
          { name: 'payment_method', sql: 't.payment_method' },
        ],
        params: [],
      }),
      { kinds: ['refund', 'chargeback'] },
    );
    const rows = await em.getConnection('read').execute<StatsRow[]>(
      `select case when grouping(bucket) = 0 and grouping(status) = 0 then 'bucket status'
                   when grouping(bucket) = 0 and grouping(provider) = 0 then 'bucket provider'
                   when grouping(bucket) = 0 then 'bucket'
                   when grouping(status) = 0 then 'status'
                   when grouping(provider) = 0 then 'provider'
                   when grouping(payment_method) = 0 then 'method'
                   else 'total' end as set,
              coalesce(status, provider, payment_method) as key,
              bucket,
              coalesce(sum(count), 0) as count,
              coalesce(sum(amount), 0) as amount,
              ${NO_OUTCOMES}
         from (select status, provider, payment_method, date_trunc(?, created_at, ?) as bucket, count(*) as count, sum(amount) as amount
                 from transactions t
                where ${filters}
                group by status, provider, payment_method, bucket) as charges
        group by grouping sets ((), (status), (provider), (payment_method), (bucket), (bucket, status), (bucket, provider))
       union all
       select case when grouping(provider) = 0 then 'outcomes provider' when grouping(payment_method) = 0 then 'outcomes method' else 'outcomes' end,
              coalesce(provider, payment_method),
              null,
              coalesce(sum(count), 0),
              coalesce(sum(amount), 0),
              ${OUTCOMES}
         from (select status, provider, payment_method, count(*) as count, sum(amount) as amount, 0 as refunded, 0 as charged_back
                 from transactions t
                where ${filters}
                group by status, provider, payment_method
               union all
               select null, provider, payment_method, 0, 0,
                      sum(amount) filter (where kind = 'refund'), sum(amount) filter (where kind = 'chargeback')
                 from (${movements.sql}) as movements
                group by provider, payment_method) as charges
        group by grouping sets ((), (provider), (payment_method))`,
      [bucketUnit(query.bucket), query.timeZone, ...params, ...params, ...movements.params],
      'all',
    );
    // The declines by reason: a read of the range's REJECTED charges only, each distinct reason once; categories are
    // the gateway's (declineCategories.ts), so they are added up here.
    const declines = await em
      .getConnection('read')
      .execute<{ reason: string | null; count: string; amount: string }[]>(
        `select decline_reason as reason, count(*) as count, sum(amount) as amount from transactions t where ${filters} and status = 'REJECTED' group by decline_reason`,
        params,
        'all',
      );
    const byCategory = new Map<DeclineCategory | '', Totals>();
    for (const row of declines) {
      const category = declineCategory(row.reason ?? undefined) ?? '';
      const sum = byCategory.get(category) ?? { count: 0, amount: 0 };
      byCategory.set(category, { count: sum.count + Number(row.count), amount: sum.amount + Number(row.amount) });
    }
    const of = (set: StatsRow['set']) => rows.filter((row) => row.set === set);
    const byStatus = byCountThenName<StatusTotals>((item) => item.status);
    const byProvider = byCountThenName<ProviderTotals>((item) => item.provider);
    const bucketStatuses = perBucket(of('bucket status'), statusTotals);
    const bucketProviders = perBucket(of('bucket provider'), providerTotals);
    const providers = of('outcomes provider')
      .map((row) => ({ ...providerTotals(row), outcomes: outcomes(row) }))
      .sort(byProvider);
    const methods = of('outcomes method')
      .map((row) => ({ paymentMethod: row.key as PaymentMethod, ...totals(row), outcomes: outcomes(row) }))
      .sort(byCountThenName((item) => item.paymentMethod));
    const all = of('outcomes')[0];
    return {
      total: totals(of('total')[0] ?? { count: 0, amount: 0 }),
      outcomes: all ? outcomes(all) : ZERO_OUTCOMES,
      outcomesByPaymentMethod: methods.map(({ paymentMethod, outcomes }) => ({ paymentMethod, ...outcomes })),
      outcomesByProvider: providers.map(({ provider, outcomes }) => ({ provider, ...outcomes })),
      declinesByCategory: [...byCategory].map(([category, sum]) => ({ category, ...sum })).sort(byCountThenName((item) => item.category)),
      byStatus: of('status').map(statusTotals).sort(byStatus),
      byProvider: of('provider').map(providerTotals).sort(byProvider),
      byPaymentMethod: of('method')
        .map((row) => ({ paymentMethod: row.key as PaymentMethod, ...totals(row) }))
        .sort(byCountThenName((item) => item.paymentMethod)),
      buckets: of('bucket')
        .map((row) => {
          const start = bucketStart(row);
          return {
            start: new Date(start),
            ...totals(row),
            byStatus: (bucketStatuses.get(start) ?? []).sort(byStatus),
            byProvider: (bucketProviders.get(start) ?? []).sort(byProvider),
          };
        })
        .sort((a, b) => a.start.getTime() - b.start.getTime()),
    };
  }
}

const statusTotals = (row: StatsRow): StatusTotals => ({ status: row.key as TransactionStatus, ...totals(row) });
const providerTotals = (row: StatsRow): ProviderTotals => ({ provider: row.key!, ...totals(row) });

const bucketStart = (row: StatsRow): number => new Date(row.bucket!).getTime();

/** The rows of a (bucket, status) or (bucket, provider) grouping set, listed by their bucket's start. */
function perBucket<T>(rows: StatsRow[], item: (row: StatsRow) => T): Map<number, T[]> {
  const grouped = new Map<number, T[]>();
  for (const row of rows) {
    const start = bucketStart(row);
    grouped.set(start, [...(grouped.get(start) ?? []), item(row)]);
  }
  return grouped;
}

const bucketUnit = (bucket: TimeBucket): 'hour' | 'day' => (bucket === 'HOUR' ? 'hour' : 'day');
