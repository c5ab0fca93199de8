/**
 * How fast the back-office's ListTransactions answers with 100,000 charges in
 * the table, under each single filter and the text search (the issue asks for
 * 50 ms at p99), and how long GetTransactionStats takes over large ranges.
 * It makes a database of its own on the machine's PostgreSQL (TEST_POSTGRES_URL,
 * default postgresql://postgres@127.0.0.1:5432/postgres), migrates it, bulk-inserts
 * the charges, calls the real use case (ListsService, the code behind the RPC)
 * and drops the database.
 * Usage: npm run bench [-- --rows 100000 --runs 200 --explain]   (--quick: 10,000 rows, 20 runs)
 * Alone: npx tsx bench/transactionLists.ts [--search] [--explain] [--vacuum]   (--search: the search cases only, each
 * kind the issue names, with every search kind's plan under --explain; --vacuum: vacuum the charges after the insert,
 * which empties the search index's pending list as autovacuum would). The load average is printed before and after.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../server/db/orm.js';
import { ListsRepository } from '../server/db/listsRepository.js';
import { containsPattern, idPrefixRange, SEARCH_TEXT } from '../server/db/transactionSearch.js';
import { ListsService } from '../server/gateway/lists.js';
import { SecretBox } from '../server/lib/secretBox.js';
import type { TransactionListFilter } from '../server/domain/lists.js';
import { closedPort } from '../tests/support/closedPort.js';
import { createTestDatabase } from '../tests/support/postgres.js';
import { seedAccounts, seedCharges, seededAccountId } from '../tests/support/seedCharges.js';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const quick = process.argv.includes('--quick');
const rows = arg('rows', quick ? 10_000 : 100_000);
const runs = arg('runs', quick ? 20 : 200);
const explain = process.argv.includes('--explain');
const searchOnly = process.argv.includes('--search');
const vacuum = process.argv.includes('--vacuum');
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
const DAY_MS = 86_400_000;

const database = await createTestDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
const db = await openDatabase({ databaseUrl: database.url, dataDir });
try {
  const sql = db.orm.em.getConnection('write');
  // The shared seed (tests/support/seedCharges.ts): the browser suites walk the back-office on the same charges.
  // Its accounts' secrets are sealed with a key of the bench's own: nothing here opens them.
  const started = performance.now();
  const box = SecretBox.fromEncodedKey(SecretBox.generateEncodedKey());
  await seedAccounts(database.url, (secret) => box.seal(secret), `http://127.0.0.1:${await closedPort()}`);
  await seedCharges(database.url, rows);
  // The money that went back, on days after the sale (never after now), as the gateway records it: the REFUNDED charges
  // refunded whole, half through the gateway (a refund record, then the move's event), half at the provider (the event
  // alone); a tenth of the APPROVED ones partly refunded; the CHARGEBACK ones' moves. The stats and the statement read
  // these by the day they happened (server/db/moneyMovements.ts).
  await sql.execute(
    `with moved as (select id, provider_account_id, status, amount, least(now(), created_at + random() * interval '20 days') as at, random() as r
                      from transactions where status in ('REFUNDED', 'CHARGEBACK', 'APPROVED')),
          records as (insert into refunds (id, transaction_id, amount, status, created_at, updated_at)
                      select gen_random_uuid(), id, case when status = 'REFUNDED' then amount else amount / 4 end, 'SUCCEEDED', at, at
                        from moved where (status = 'REFUNDED' and r < 0.5) or (status <> 'REFUNDED' and r < 0.1))
     insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at)
     select 'TRANSACTION', id, provider_account_id, status, 'WEBHOOK', at from moved where status in ('REFUNDED', 'CHARGEBACK')`,
  );
  await sql.execute('analyze refunds');
  await sql.execute('analyze status_events');
  // Without it the trigram index keeps the last inserts in its pending list (up to gin_pending_list_limit, 4 MB), which
  // every search reads through: the state right after a burst of charges, before autovacuum comes.
  if (vacuum) await sql.execute('vacuum transactions');
  console.log(`transaction lists: ${rows} charges inserted and analysed in ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${load()}`);

  const lists = new ListsService({ db, lists: new ListsRepository() });
  const [sample] = await sql.execute<
    { id: string; provider_transaction_id: string; order_id: string; customer_document: string; customer_email: string; customer_name: string }[]
  >(`select id, provider_transaction_id, order_id, customer_document, customer_email, customer_name from transactions order by created_at limit 1 offset ?`, [
    Math.floor(rows / 2),
  ]);
  const middle = new Date(Date.now() - 45 * DAY_MS);
  const firstPage = await lists.listTransactions({ provider: 'VOLUTI' }, { pageSize: 50 });

  // Each kind of search the issue names (33 §1), whole and by part; the text is what the back-office's box sends.
  const searches = [
    ['search: gateway id', sample!.id],
    ['search: provider id', sample!.provider_transaction_id],
    ['search: order id', sample!.order_id],
    ['search: document', sample!.customer_document],
    ['search: e-mail (any case)', sample!.customer_email.toUpperCase()],
    ['search: nothing found', 'no-such-thing'],
    // By part (pg_trgm): the back-office's "mari" (one charge in ten), and rarer parts.
    ['search by part: "mari" (10 %)', 'mari'],
    ['search by part: a full name (0.25 %)', sample!.customer_name],
    ['search by part: e-mail part', sample!.customer_email.slice(0, 12)],
    ['search by part: id prefix (8)', sample!.id.slice(0, 8)],
    ['search by part: provider id part', sample!.provider_transaction_id.slice(3, 15)],
    ['search by part: order id part', sample!.order_id.slice(0, -1)],
    ['search by part: document part', sample!.customer_document.slice(2, 9)],
  ] as const;
  const searchCases = searches.map(([name, query]): [string, () => Promise<unknown>] => [
    name,
    () => lists.listTransactions({ query } satisfies TransactionListFilter, { pageSize: 50 }),
  ]);

  const cases: [string, () => Promise<unknown>][] = searchOnly
    ? searchCases
    : [
        ['no filter', () => lists.listTransactions({}, { pageSize: 50 })],
        ['provider', () => lists.listTransactions({ provider: 'VOLUTI' }, { pageSize: 50 })],
        ['provider, next page (token)', () => lists.listTransactions({ provider: 'VOLUTI' }, { pageSize: 50, pageToken: firstPage.nextPageToken })],
        ['provider account (a small one)', () => lists.listTransactions({ providerAccountId: seededAccountId(11) }, { pageSize: 50 })],
        ['status (PENDING)', () => lists.listTransactions({ statuses: ['PENDING'] }, { pageSize: 50 })],
        ['status (CHARGEBACK, 1 %)', () => lists.listTransactions({ statuses: ['CHARGEBACK'] }, { pageSize: 50 })],
        ['statuses (REFUNDED or CHARGEBACK)', () => lists.listTransactions({ statuses: ['REFUNDED', 'CHARGEBACK'] }, { pageSize: 50 })],
        ['payment method (BILLET)', () => lists.listTransactions({ paymentMethod: 'BILLET' }, { pageSize: 50 })],
        ['created range (one day)', () => lists.listTransactions({ createdFrom: middle, createdTo: new Date(middle.getTime() + DAY_MS) }, { pageSize: 50 })],
        ...searchCases,
        ['200 a page, no filter', () => lists.listTransactions({}, { pageSize: 200 })],
        [
          'stats: 30 days by day, all',
          () =>
            lists.transactionStats({ createdFrom: new Date(Date.now() - 30 * DAY_MS), createdTo: new Date(), bucket: 'DAY', timeZone: 'America/Sao_Paulo' }),
        ],
        [
          'stats: 7 days by hour, one account',
          () =>
            lists.transactionStats({
              createdFrom: new Date(Date.now() - 7 * DAY_MS),
              createdTo: new Date(),
              bucket: 'HOUR',
              providerAccountId: seededAccountId(0),
            }),
        ],
        ['stats: 90 days by day, all', () => lists.transactionStats({ createdFrom: new Date(Date.now() - 91 * DAY_MS), createdTo: new Date(), bucket: 'DAY' })],
      ];

  /**
   * CPU milliseconds used so far by this process and by the database's backends serving this bench (Linux /proc, the
   * database on this machine; undefined elsewhere). A call's CPU is what it costs whatever else runs: on a shared
   * machine its wall time also holds the time spent waiting for a core.
   */
  const cpuMs = async (): Promise<number | undefined> => {
    const backends = await sql.execute<{ pid: number }[]>(`select pid from pg_stat_activity where datname = current_database()`);
    try {
      const ticks = backends
        .map(({ pid }) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '))
        .reduce((sum, fields) => sum + Number(fields[11]) + Number(fields[12]), 0);
      const own = process.cpuUsage();
      return ticks * 10 + (own.user + own.system) / 1000;
    } catch {
      return undefined;
    }
  };

  console.log(`  ${runs} calls each (after 20 to warm up), milliseconds; cpu: this process's and the database's CPU per call, on average:`);
  console.log(`  ${'case'.padEnd(38)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)} ${'cpu'.padStart(7)}`);
  for (const [name, call] of cases) {
    for (let i = 0; i < 20; i += 1) await call();
    const times: number[] = [];
    const cpuBefore = await cpuMs();
    for (let i = 0; i < runs; i += 1) {
      const start = performance.now();
      await call();
      times.push(performance.now() - start);
    }
    const cpuAfter = await cpuMs();
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? '—' : ((cpuAfter - cpuBefore) / runs).toFixed(1);
    times.sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(1).padStart(7);
    console.log(`  ${name.padEnd(38)} ${pct(50)} ${pct(99)} ${times.at(-1)!.toFixed(1).padStart(7)} ${cpu.padStart(7)}`);
  }

  if (explain) {
    const idRange = idPrefixRange(sample!.id.slice(0, 8))!;
    for (const [name, query, params] of [
      ['status (CHARGEBACK)', `select id from transactions where status = ? order by created_at desc, id desc limit 51`, ['CHARGEBACK']],
      [
        'search',
        `select id from transactions where id = ? or provider_transaction_id = ? or order_id = ? or customer_document = ? or customer_email = ? order by created_at desc, id desc limit 51`,
        [sample!.id, sample!.customer_document, sample!.customer_document, sample!.customer_document, sample!.customer_document],
      ],
      [
        'search by part ("mari")',
        `select id from transactions where ${SEARCH_TEXT} like ? order by created_at desc, id desc limit 51`,
        [containsPattern('mari')],
      ],
      [
        'search by part (id prefix): the text, or a range of the primary key',
        `select id from transactions where ${SEARCH_TEXT} like ? or id between ? and ? order by created_at desc, id desc limit 51`,
        [containsPattern(sample!.id.slice(0, 8)), idRange.from, idRange.to],
      ],
      ...(
        [
          ['a full name', sample!.customer_name],
          ['e-mail part', sample!.customer_email.slice(0, 12)],
          ['document', sample!.customer_document],
          ['order id', sample!.order_id],
          ['provider id', sample!.provider_transaction_id],
        ] as const
      ).map(
        ([kind, text]) =>
          [
            `search by part (${kind})`,
            `select id from transactions where ${SEARCH_TEXT} like ? order by created_at desc, id desc limit 51`,
            [containsPattern(text)],
          ] as const,
      ),
    ] as const) {
      const plan = await sql.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, timing off) ${query}`, [...params]);
      console.log(`\n  EXPLAIN ANALYZE, ${name}:\n${plan.map((line) => `    ${line['QUERY PLAN']}`).join('\n')}`);
    }
  }
  console.log(`\n  load average ${load()}`);
} finally {
  await db.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
