/**
 * The plans PostgreSQL chooses for the operations console's deliveries that gave up (ListOutboundDeliveries with state
 * GAVE_UP, a page at a time, and ResendOutboundDeliveries by filter), on a table of deliveries most of which were
 * delivered: first without the partial indexes of Migration20261204040000, then with them. It makes a database of its
 * own on the machine's PostgreSQL (TEST_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/postgres), migrates
 * it, inserts the deliveries, prints each plan (EXPLAIN ANALYZE, the statement the repository sends) and drops it.
 * Usage: npx tsx bench/gaveUpDeliveries.ts [--rows 100000] [--gave-up 10000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/orm.js';
import { listPageSql } from '../server/db/outboundRepository.js';
import { createTestDatabase } from '../tests/support/postgres.js';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const rows = arg('rows', 100_000);
const gaveUp = arg('gave-up', 10_000);
const OUTAGE_URL = 'https://loja-em-queda.example/webhooks';
const DAY_MS = 86_400_000;

const database = await createTestDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
const db = await openDatabase({ databaseUrl: database.url, dataDir });
try {
  const sql = db.orm.em.getConnection('write');
  // Over 30 days, one a few seconds apart; the last `gaveUp` gave up, four in five of those to one merchant in an
  // outage and the rest spread over 200 others, as delivered ones are.
  await sql.execute(
    `insert into outbound_deliveries (id, event_id, transaction_id, url, body, state, attempts, next_attempt_at, created_at)
     select gen_random_uuid(), n, gen_random_uuid(),
            case when n > ? and n % 5 <> 0 then ? else 'https://loja-' || (n % 200) || '.example/webhooks' end,
            '{}', case when n > ? then 'GAVE_UP' else 'DELIVERED' end, 6, now(), now() - (? - n) * (? * interval '1 millisecond')
       from generate_series(1, ?) as n`,
    [rows - gaveUp, OUTAGE_URL, rows - gaveUp, rows, Math.floor((30 * DAY_MS) / rows), rows],
  );
  await sql.execute('analyze outbound_deliveries');
  const [middle] = await sql.execute<{ created_at: Date; id: string }[]>(
    `select created_at, id from outbound_deliveries where state = 'GAVE_UP' order by created_at desc, id desc limit 1 offset ?`,
    [Math.floor(gaveUp / 2)],
  );
  const lastWeek = new Date(Date.now() - 7 * DAY_MS);
  const cases = [
    ['first page, all that gave up', listPageSql({ state: 'GAVE_UP' }, 26)],
    ['first page, one address', listPageSql({ state: 'GAVE_UP', url: 'https://loja-5.example/webhooks' }, 26)],
    ['a middle page (page token), the outage address', listPageSql({ state: 'GAVE_UP', url: OUTAGE_URL }, 26, { at: middle!.created_at, id: middle!.id })],
    ['first page, the last 7 days', listPageSql({ state: 'GAVE_UP', createdFrom: lastWeek }, 26)],
  ] as const;
  const explainAll = async (title: string) => {
    console.log(`\n## ${title}`);
    for (const [name, query] of cases) {
      const plan = await sql.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, summary on) ${query.sql}`, [...query.values]);
      console.log(`\n${name}:\n${plan.map((line) => `  ${line['QUERY PLAN']}`).join('\n')}`);
    }
  };
  await db.orm.migrator.down({ to: 'Migration20261203020000_dispute_evidence_sending' });
  await explainAll(`without the gave-up indexes (${rows} deliveries, ${gaveUp} gave up)`);
  await db.orm.migrator.up();
  await sql.execute('analyze outbound_deliveries');
  await explainAll('with them (Migration20261204040000_outbound_gave_up_index)');
} finally {
  await db.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
