import type { ListsRepository } from '../db/listsRepository.js';
import { readPageToken } from '../db/pageTokens.js';
import type { Receiver, Transaction, Withdrawal } from '../domain/types.js';
import type {
  ListFilter,
  Page,
  PageCursor,
  ReceiverListFilter,
  TimeBucket,
  TransactionListFilter,
  TransactionStats,
  TransactionStatsQuery,
  WithdrawalListFilter,
} from '../domain/lists.js';
import { cancellableRead } from '../lib/callScope.js';
import { invalidArgument } from '../lib/errors.js';
import type { GatewayDeps } from './context.js';
import { outOfRange, requireOrderedRange } from './validation.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
/** The most hours or days one GetTransactionStats answers: a month and more by the hour, years by the day. */
export const MAX_STATS_BUCKETS = 1000;

const BUCKET_MS: Record<TimeBucket, number> = { HOUR: 3_600_000, DAY: 86_400_000 };

/** A page request as the contract has it: a size (0: the default) and the previous page's token. */
export interface PageRequest {
  pageSize: number;
  pageToken?: string;
}

function pageSize(size: number): number {
  if (!Number.isInteger(size) || size < 0)
    throw outOfRange('page_size', `page_size must be a whole number from 0 to ${MAX_PAGE_SIZE}, got ${size}`, 0, MAX_PAGE_SIZE);
  if (size > MAX_PAGE_SIZE) throw outOfRange('page_size', `page_size must be at most ${MAX_PAGE_SIZE}, got ${size}`, 0, MAX_PAGE_SIZE);
  return size || DEFAULT_PAGE_SIZE;
}

const cursor = (token: string | undefined): PageCursor | undefined => readPageToken(token);

/** Years 1 to 9999: what PostgreSQL's timestamptz and an ISO date both hold (a Timestamp's seconds can say far more). */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

function checkInstant(field: string, at: Date | undefined): void {
  const ms = at?.getTime();
  if (ms !== undefined && !(ms >= EARLIEST && ms <= LATEST))
    throw invalidArgument(field, `${field} must be a time between the years 1 and 9999`, 'INVALID_VALUE');
}

function checkRange(from: Date | undefined, to: Date | undefined): void {
  checkInstant('created_from', from);
  checkInstant('created_to', to);
  if (from && to)
    requireOrderedRange('created_to', from.getTime(), to.getTime(), `created_to (${to.toISOString()}) must be later than created_from (${from.toISOString()})`);
}

/** What every list's filter gets: provider ids upper-case, the search text trimmed (blank: no search), a range that is not inverted. */
function normalised<F extends ListFilter<string>>(filter: F): F {
  checkRange(filter.createdFrom, filter.createdTo);
  return { ...filter, provider: filter.provider?.toUpperCase() || undefined, query: filter.query?.trim() || undefined };
}

/**
 * An IANA zone name, as PostgreSQL's date_trunc takes it. Only names: the
 * JavaScript runtime also takes offsets like "-03:00", which PostgreSQL would
 * read as a POSIX zone with the opposite sign.
 */
function timeZone(name: string | undefined): string {
  if (!name) return 'UTC';
  const refused = invalidArgument(
    'time_zone',
    `time_zone must be an IANA time zone name such as America/Sao_Paulo or UTC, got ${JSON.stringify(name.slice(0, 64))}`,
    'INVALID_VALUE',
  );
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) throw refused;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw refused;
  }
}

/** The back-office's lists (newest first, keyset pages) and the charges' stats; their statements stop with their caller. */
export class ListsService {
  constructor(private readonly deps: Pick<GatewayDeps, 'db'> & { lists: ListsRepository }) {}

  listTransactions(filter: TransactionListFilter, page: PageRequest): Promise<Page<Transaction>> {
    return cancellableRead(() => this.deps.lists.listTransactions(this.deps.db.em(), normalised(filter), pageSize(page.pageSize), cursor(page.pageToken)));
  }

  listWithdrawals(filter: WithdrawalListFilter, page: PageRequest): Promise<Page<Withdrawal>> {
    return cancellableRead(() => this.deps.lists.listWithdrawals(this.deps.db.em(), normalised(filter), pageSize(page.pageSize), cursor(page.pageToken)));
  }

  listReceivers(filter: ReceiverListFilter, page: PageRequest): Promise<Page<Receiver>> {
    return cancellableRead(() => this.deps.lists.listReceivers(this.deps.db.em(), normalised(filter), pageSize(page.pageSize), cursor(page.pageToken)));
  }

  transactionStats(query: Partial<Omit<TransactionStatsQuery, 'bucket'>> & { bucket?: TimeBucket }): Promise<TransactionStats> {
    const { createdFrom, createdTo } = query;
    if (!createdFrom)
      throw invalidArgument('created_from', 'created_from is required: the stats cover the charges created from created_from to created_to', 'REQUIRED');
    if (!createdTo)
      throw invalidArgument('created_to', 'created_to is required: the stats cover the charges created from created_from to created_to', 'REQUIRED');
    checkRange(createdFrom, createdTo);
    const bucket = query.bucket ?? 'DAY';
    const buckets = Math.ceil((createdTo.getTime() - createdFrom.getTime()) / BUCKET_MS[bucket]);
    if (buckets > MAX_STATS_BUCKETS)
      throw invalidArgument(
        'created_to',
        `the range from created_from to created_to holds ${buckets} ${bucket === 'HOUR' ? 'hours' : 'days'}; at most ${MAX_STATS_BUCKETS} buckets: shorten it${bucket === 'HOUR' ? ' or count by TIME_BUCKET_DAY' : ''}`,
        'INVALID_VALUE',
      );
    const currency = (query.currency || 'BRL').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency))
      throw invalidArgument('currency', `currency must be an ISO 4217 code such as BRL, got ${JSON.stringify(currency.slice(0, 16))}`, 'INVALID_VALUE');
    return cancellableRead(() =>
      this.deps.lists.transactionStats(this.deps.db.em(), {
        createdFrom,
        createdTo,
        provider: query.provider?.toUpperCase() || undefined,
        providerAccountId: query.providerAccountId || undefined,
        bucket,
        timeZone: timeZone(query.timeZone),
        currency,
      }),
    );
  }
}
