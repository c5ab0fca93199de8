/**
 * The suite's figures as a Markdown section of docs/benchmarks.md (between two
 * markers, so a rerun replaces only it) and as a table on the console.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import type { Method } from './clients.js';
import { median, min } from './load.js';
import { START } from './processes.js';
import { OVERLOAD_DEADLINE_MS, POSTGRES_URL, type BackendResult, type RunFigures, type StatementProfile } from './scenario.js';
import type { Backend, Settings } from './settings.js';
import type { TwoProcessResult } from './twoProcesses.js';
import type { WebhooksApartResult } from './webhooksApart.js';

const START_PREFIX = '<!-- gateway-bench:start';
export const START_MARKER = `${START_PREFIX}: written by npm run bench (bench/gateway.ts); a rerun replaces everything down to the end marker -->`;
export const END_MARKER = '<!-- gateway-bench:end -->';

export interface Machine {
  date: string;
  cores: number;
  cpuModel: string;
  ramGiB: number;
  os: string;
  node: string;
  postgres: string;
  durability: string;
  commit: string;
  loadBefore: number[];
  loadAfter?: number[];
  /** The 1-minute load average every 10 s through the run. */
  loadDuring?: number[];
}

export async function describeMachine(): Promise<Machine> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  const setting = async (name: string) => ((await client.query(`show ${name}`)).rows[0] as Record<string, string>)[name];
  const settings = async () => ({
    postgres: `PostgreSQL ${await setting('server_version')}`,
    durability: `fsync ${await setting('fsync')}, synchronous_commit ${await setting('synchronous_commit')}, shared_buffers ${await setting('shared_buffers')}`,
  });
  const { postgres, durability } = await settings().finally(() => client.end());
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'server', 'shared', 'bench', 'package.json') !== '';
  let os: string = process.platform;
  try {
    os = /^PRETTY_NAME="?([^"\n]*)/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? os;
  } catch {
    // not Linux: the platform's name will do
  }
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    ramGiB: totalmem() / 2 ** 30,
    os,
    node: process.version,
    postgres,
    durability,
    commit: `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (with uncommitted changes to server/ or bench/)' : ''}`,
    loadBefore: loadavg(),
  };
}

// ---------------------------------------------------------------- formatting

export const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const grouped = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');
/** "min / median" of repeated figures (one figure alone when there was one run). */
function minMedian(values: readonly number[], format: (value: number) => string): string {
  if (values.length === 0) return '–';
  if (values.length === 1) return format(values[0]!);
  return `${format(min(values))} / ${format(median(values))}`;
}
const ms = (values: readonly number[]) => minMedian(values, (value) => fixed(value, value < 10 ? 2 : 1));
const rate = (values: readonly number[]) => minMedian(values, grouped);
const seconds = (values: readonly number[]) => minMedian(values, (value) => fixed(value / 1000, 2));
const errors = (counts: Record<string, number>) =>
  Object.keys(counts).length
    ? Object.entries(counts)
        .map(([code, count]) => `${code} ${count}`)
        .join(', ')
    : 'none';
const BACKEND_NAME: Record<Backend, string> = { postgres: 'PostgreSQL', embedded: 'embedded (PGlite)' };

// ---------------------------------------------------------------- targets

interface Verdict {
  target: string;
  figures: Partial<Record<Backend, string>>;
}

/** "met" or how far off, for a floor (at least) or a ceiling (at most). */
export function judge(value: number, bound: number, kind: 'floor' | 'ceiling', unit: string, format: (value: number) => string): string {
  if (!Number.isFinite(value)) return 'not measured';
  const shown = `${format(value)}${unit}`;
  if (kind === 'floor')
    return value >= bound ? `${shown}: **met**` : `${shown}: missed by ${format(bound - value)}${unit} (${fixed(bound / Math.max(value, 1e-9), 1)}× short)`;
  return value <= bound ? `${shown}: **met**` : `${shown}: missed by ${format(value - bound)}${unit} (${fixed(value / bound, 1)}× over)`;
}

export function bestCreate(result: BackendResult, method: Method) {
  const runs = result.create.filter((run) => run.method === method);
  return runs.reduce((best, run) => (median(run.rate) > median(best?.rate ?? [0]) ? run : best), runs[0]);
}

export function addedLatency(result: BackendResult, rateWanted: number, method: Method): { p50: number; p99: number; saturated: number } {
  const entry = result.latency.find((candidate) => candidate.rate === rateWanted);
  const through = entry?.grpc[method];
  if (!entry || !through) return { p50: NaN, p99: NaN, saturated: 0 };
  return { p50: median(through.p50) - median(entry.direct.p50), p99: median(through.p99) - median(entry.direct.p99), saturated: through.saturated };
}

const saturation = (saturated: number, runs: number) =>
  saturated ? ` (saturated in ${saturated} of ${runs} runs: the gateway fell a second of calls behind)` : '';

function verdicts(results: BackendResult[], settings: Settings, apart?: WebhooksApartResult): Verdict[] {
  const rows: Verdict[] = [];
  const row = (target: string, figure: (result: BackendResult) => string) =>
    rows.push({ target, figures: Object.fromEntries(results.map((result) => [result.backend, figure(result)])) });
  for (const method of settings.methods) {
    row(`CreateTransaction ≥ 1,500/s durable (${method}; best concurrency, median)`, (result) => {
      const best = bestCreate(result, method);
      return best ? `${judge(median(best.rate), 1500, 'floor', '/s', grouped)} (×${best.concurrency})` : 'not measured';
    });
  }
  for (const method of settings.methods) {
    row(`Gateway CPU ≤ 0.7 ms per charge (${method}; at the best concurrency, median)`, (result) => {
      const best = bestCreate(result, method);
      return best ? judge(median(best.cpuMsPerOp), 0.7, 'ceiling', ' ms', (value) => fixed(value, 2)) : 'not measured';
    });
  }
  for (const method of settings.methods) {
    row(`Added latency at 200/s, p50 ≤ 2 ms (${method}; median p50 through the gateway − direct)`, (result) => {
      const added = addedLatency(result, 200, method);
      return judge(added.p50, 2, 'ceiling', ' ms', (value) => fixed(value, 2)) + saturation(added.saturated, settings.latencyRepeats);
    });
    row(`Added latency at 200/s, p99 ≤ 10 ms (${method}; median p99 through the gateway − direct)`, (result) => {
      const added = addedLatency(result, 200, method);
      return judge(added.p99, 10, 'ceiling', ' ms', (value) => fixed(value, 1)) + saturation(added.saturated, settings.latencyRepeats);
    });
  }
  row('At twice the capacity, goodput stays near it (PIX, callers giving up after 1 s; ≥ 80 % of capacity, median)', (result) => {
    const overload = result.overload;
    if (!overload) return 'not measured';
    const share = median(overload.goodput) / overload.capacity;
    return `${grouped(median(overload.goodput))}/s of ${grouped(overload.capacity)}/s with ${grouped(overload.offered)}/s offered: ${fixed(share * 100, 0)} %${share >= 0.8 ? ', **met**' : `, missed by ${fixed((0.8 - share) * 100, 0)} points`}`;
  });
  row('GetTransaction ≥ 5,000/s (best concurrency, median)', (result) => {
    const best = result.get.reduce((top, run) => (median(run.rate) > median(top.rate) ? run : top), result.get[0]!);
    return `${judge(median(best.rate), 5000, 'floor', '/s', grouped)} (×${best.concurrency})`;
  });
  row(`Webhook intake ≥ 5,000 ack/s (×${settings.webhookConcurrency} senders, median)`, (result) =>
    judge(median(result.webhook.rate), 5000, 'floor', '/s', grouped),
  );
  row('Webhook acknowledgement p99 ≤ 20 ms (median)', (result) => judge(median(result.webhook.p99), 20, 'ceiling', ' ms', (value) => fixed(value, 1)));
  if (apart && results.some((result) => result.backend === 'postgres')) {
    // The README's scaled-out webhooks: a sidecar that only stores (WEBHOOK_WORKERS=0), the workers in another process.
    const apartRow = (target: string, figure: string) =>
      rows.push({
        target,
        figures: Object.fromEntries(results.map((result) => [result.backend, result.backend === 'postgres' ? figure : '(one process only)'])),
      });
    apartRow(
      `Webhook intake ≥ 5,000 ack/s, processing in another process (sidecar with WEBHOOK_WORKERS=0, ×${apart.concurrency} senders, median)`,
      judge(median(apart.intake.rate), 5000, 'floor', '/s', grouped),
    );
    apartRow(
      'Webhook acknowledgement p99 ≤ 20 ms, processing in another process (median)',
      judge(median(apart.intake.p99), 20, 'ceiling', ' ms', (value) => fixed(value, 1)),
    );
  }
  row('RSS ≤ 250 MB (peak under load)', (result) => judge(result.rss.peakUnderLoad, 250, 'ceiling', ' MB', (value) => fixed(value, 0)));
  row(`No RSS growth over the soak (${settings.soakSeconds} s; tolerance 10 MB between its second and last tenths)`, (result) => {
    const growth = result.rss.soak.rssLate - result.rss.soak.rssEarly;
    return `${judge(growth, 10, 'ceiling', ' MB', (value) => fixed(value, 1))} (${fixed(result.rss.soak.rssEarly, 0)} → ${fixed(result.rss.soak.rssLate, 0)} MB)`;
  });
  rows.push({
    target: 'Start-to-healthy ≤ 2 s on PostgreSQL, ≤ 5 s embedded (restart, median)',
    figures: Object.fromEntries(
      results.map((result) => [
        result.backend,
        judge(median(result.start.warm), result.backend === 'postgres' ? 2000 : 5000, 'ceiling', ' s', (value) => fixed(value / 1000, 2)),
      ]),
    ),
  });
  return rows;
}

// ---------------------------------------------------------------- the section

function table(header: string[], body: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((cells) => `| ${cells.join(' | ')} |`)].join('\n');
}

function statementSummary(profile: StatementProfile): string {
  const kinds = Object.entries(profile.byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} ${fixed(count, count % 1 === 0 ? 0 : 2)}`)
    .join(', ');
  return `${fixed(profile.perOperation, 2)} (${kinds})`;
}

export function section(results: BackendResult[], settings: Settings, machine: Machine, two?: TwoProcessResult, apart?: WebhooksApartResult): string {
  const backends = results.map((result) => result.backend);
  const repeats = (n: number) => (n === 1 ? 'One run' : `Min / median of ${n} runs`);
  const runs = (n: number) => (n === 1 ? '1 run' : `${n} runs`);
  const lines: string[] = [START_MARKER, '## The gateway under load', ''];
  const mode = settings.quick ? '`--quick` (short runs, for development: not the figures to quote)' : 'full';
  lines.push(
    `\`npm run bench\` (bench/gateway.ts) starts the gateway itself on ${backends.map((backend) => BACKEND_NAME[backend]).join(' and on ')}, with a zero-latency fake provider, and writes this section. Figures move with the machine and its load; read them side by side, not alone.`,
    '',
    `- **Run**: ${machine.date}, ${mode}, soak ${settings.soakSeconds} s${!settings.quick && settings.soakSeconds < 300 ? ' (shortened from the default 5 minutes with `--soak-seconds`)' : ''}.`,
    `- **Machine**: ${machine.cores} cores (${machine.cpuModel}), ${fixed(machine.ramGiB, 0)} GiB RAM, ${machine.os}; ${machine.postgres} on 127.0.0.1:5432 (${machine.durability}); Node ${machine.node}.`,
    `- **Load average** (1, 5, 15 min): ${machine.loadBefore.map((value) => fixed(value, 2)).join(', ')} before the run, ${(machine.loadAfter ?? []).map((value) => fixed(value, 2)).join(', ')} after it${machine.loadDuring?.length ? `; the 1-minute figure every 10 s through the run: median ${fixed(median(machine.loadDuring), 1)}, from ${fixed(min(machine.loadDuring), 1)} to ${fixed(Math.max(...machine.loadDuring), 1)}` : ''}. The load generator, the fake provider, the gateway and PostgreSQL all share these cores, and so did whatever else ran on the machine: the load generator used ${results.map((result) => `${fixed(result.loadGeneratorCores, 2)} cores (${BACKEND_NAME[result.backend]})`).join(', ')} and the fake provider ${results.map((result) => `${fixed(result.fakeProviderCores, 2)}`).join(', ')} on average while the gateway was under load.`,
    `- **Commit**: ${machine.commit}.`,
    '',
    '**How it is measured.** The gateway runs in a process of its own, `node ' +
      START.join(' ') +
      "` (what `npm start` runs once its prestart has compiled server/ to dist/; the bench compiles it when stale, and does not build the back-office), with the defaults of `npm start` except its ports, `API_TOKENS`, `RATE_LIMIT_PER_SECOND=0` and `WEBHOOK_RATE_PER_SECOND=0` (one caller and one account carry all the load here) and `ALLOW_PRIVATE_PROVIDER_URLS=true` (the fake listens on loopback). On PostgreSQL it gets a database of its own (`gw_bench_…` on `DATABASE_URL`, default `postgresql://postgres@127.0.0.1:5432/postgres`), created and dropped by the bench; embedded, a fresh data folder. The provider is a PAGUESAFE account (the transactions API family: Basic auth, `POST /transactions`, `GET /transactions/{id}`, unsigned postbacks confirmed with a read) whose base URL is a fake in its own process that answers at once (bench/gateway/fakeProvider.ts). Calls come from the bench process: gRPC through one grpc-js channel, HTTP over keep-alive connections. The gateway's CPU time and memory are its own process's (`process.cpuUsage()` reported by a probe preloaded with `--import`, compiled beside dist/; RSS from `/proc/<pid>/status`) and, embedded, those of the database's process it starts (PGlite runs in a child process: its CPU from `/proc/<pid>/stat`, its RSS added). A charge is R$ 19,90 with a customer; **PIX** charges have their QR image rendered by the gateway from the copy-and-paste code (`withPixQrImage`), **BILLET** charges do not.",
    '',
  );

  lines.push(
    '### Targets',
    '',
    table(
      ['target', ...backends.map((backend) => BACKEND_NAME[backend])],
      verdicts(results, settings, apart).map((verdict) => [verdict.target, ...backends.map((backend) => verdict.figures[backend] ?? '')]),
    ),
    '',
  );

  lines.push(
    '### Added latency of CreateTransaction',
    '',
    `Open loop: each call is sent at its scheduled time (${settings.latencySeconds} s at each rate), whether or not earlier ones have been answered, and its latency runs from that time. A run in which more than a second's worth of calls were unanswered at once is *saturated*: its schedule stops there (the gateway cannot keep up with the rate, and its latencies are mostly queueing). *Direct* is the same charge posted straight to the fake over HTTP; *added* is the gateway's p50 (p99) minus the direct p50 (p99), medians. Milliseconds; ${repeats(settings.latencyRepeats).toLowerCase()}.`,
    '',
  );
  const latencyRows: string[][] = [];
  for (const result of results) {
    for (const entry of result.latency) {
      for (const method of settings.methods) {
        const through = entry.grpc[method];
        if (!through) continue;
        const added = addedLatency(result, entry.rate, method);
        latencyRows.push([
          BACKEND_NAME[result.backend],
          `${entry.rate}/s`,
          method,
          ms(entry.direct.p50),
          ms(entry.direct.p99),
          ms(through.p50),
          ms(through.p99),
          fixed(added.p50, 2),
          fixed(added.p99, 1),
          `${errors(entry.errors)}${through.saturated ? `; saturated in ${through.saturated} of ${through.p50.length}` : ''}`,
        ]);
      }
    }
  }
  lines.push(table(['database', 'rate', 'method', 'direct p50', 'direct p99', 'gRPC p50', 'gRPC p99', 'added p50', 'added p99', 'errors'], latencyRows), '');

  lines.push(
    '### Throughput',
    '',
    `Closed loop: N callers, each calling again as soon as it is answered, ${settings.throughputSeconds} s a run after ${settings.warmupSeconds} s of warm-up; CreateTransaction with a new idempotency key on every call (stored before and after the provider call, as always), GetTransaction of a random charge made earlier. ${repeats(settings.throughputRepeats)}. *CPU/op* is the gateway process's CPU time per answered call; *cores* is that CPU time over the run's wall time. The pool column is one scrape of /metrics half-way through the last run.`,
    '',
  );
  const throughputRow = (backend: Backend, call: string, run: RunFigures & { concurrency: number }, pool = '') => [
    BACKEND_NAME[backend],
    call,
    String(run.concurrency),
    rate(run.rate),
    ms(run.p50),
    ms(run.p99),
    ms(run.cpuMsPerOp),
    minMedian(run.gatewayCores, (value) => fixed(value, 2)),
    errors(run.errors),
    pool,
  ];
  const throughputRows = results.flatMap((result) => [
    ...result.create.map((run) => throughputRow(result.backend, `CreateTransaction ${run.method}`, run, run.pool)),
    ...result.get.map((run) => throughputRow(result.backend, 'GetTransaction', run)),
  ]);
  lines.push(table(['database', 'call', 'callers', 'calls/s', 'p50 ms', 'p99 ms', 'CPU/op ms', 'cores', 'errors', 'pool'], throughputRows), '');

  const overloaded = results.filter((result) => result.overload);
  if (overloaded.length) {
    lines.push(
      '### Overload: twice the capacity',
      '',
      `Open loop at twice the best closed-loop CreateTransaction rate above (the capacity), ${settings.throughputSeconds} s a run, each call with a gRPC deadline of ${OVERLOAD_DEADLINE_MS} ms, as a caller that gives up. *Goodput* is the calls answered OK per second; the rest ended at their deadline or were refused (\`RESOURCE_EXHAUSTED\` past \`MAX_IN_FLIGHT\`). A gateway that kept working for callers who had gone would answer ever later and its goodput would collapse. ${repeats(settings.throughputRepeats)}.`,
      '',
      table(
        ['database', 'charge', 'capacity/s', 'offered/s', 'goodput/s', 'goodput / capacity', 'p99 of the answered, ms', 'failures'],
        overloaded.map((result) => {
          const overload = result.overload!;
          return [
            BACKEND_NAME[result.backend],
            overload.method,
            grouped(overload.capacity),
            grouped(overload.offered),
            rate(overload.goodput),
            `${fixed((median(overload.goodput) / overload.capacity) * 100, 0)} %`,
            ms(overload.p99),
            errors(overload.errors),
          ];
        }),
      ),
      '',
    );
  }

  lines.push(
    '### Webhook intake',
    '',
    `${settings.webhookConcurrency} senders post PAGUESAFE postbacks (a charge paid) to the sidecar for ${settings.webhookSeconds} s, each for a pending charge made earlier while there are enough; the sidecar stores each and acknowledges, the notification worker (WEBHOOK_WORKERS=1, the default) confirms it with the fake and applies it. The backlog is read from /metrics (\`gateway_webhook_queue_depth\`, \`gateway_webhook_notifications_processed_total\`) every 100 ms until every stored notification is processed. *CPU/notification* covers intake and processing. ${repeats(settings.webhookRepeats)}.`,
    '',
    table(
      [
        'database',
        'ack/s',
        'ack p50 ms',
        'ack p99 ms',
        'notifications',
        'processed after the last ack, s',
        'first sent to all processed, s',
        'CPU/notification ms',
        'errors',
        'outcomes',
      ],
      results.map((result) => [
        BACKEND_NAME[result.backend],
        rate(result.webhook.rate),
        ms(result.webhook.p50),
        ms(result.webhook.p99),
        minMedian(result.webhook.notifications, grouped),
        seconds(result.webhook.drainMs),
        seconds(result.webhook.totalMs),
        ms(result.webhook.cpuMsPerOp),
        errors(result.webhook.errors),
        `${errors(result.webhook.outcomes)}${result.webhook.undrained ? `; ${result.webhook.undrained} not processed within ${settings.drainTimeoutSeconds} s` : ''} (${grouped(result.webhook.distinctCharges)} distinct charges)`,
      ]),
    ),
    '',
  );

  lines.push(
    '### Memory (RSS of the gateway process, with its embedded database process)',
    '',
    `*Idle*: 3 s after start and the account's creation, before any load. *Peak*: the highest of samples every 250 ms under load (the soak included); *high-water*: the kernel's VmHWM at the end (start-up included). *Soak*: ${settings.soakSeconds} s of steady load (4 callers creating PIX charges, 4 reading, 2 posting postbacks for the new charges), RSS every second (50 samples in a shorter soak), heap (\`process.memoryUsage().heapUsed\`) 20 times; early is the mean over the soak's second tenth, late over its last tenth.`,
    '',
    table(
      [
        'database',
        'idle MB',
        'peak MB',
        'high-water MB',
        'soak: RSS early → late (max) MB',
        'soak: heap early → late MB',
        '5 s after the soak MB',
        'soak calls',
        'soak errors',
      ],
      results.map((result) => {
        const soak = result.rss.soak;
        return [
          BACKEND_NAME[result.backend],
          fixed(result.rss.idle, 0),
          fixed(result.rss.peakUnderLoad, 0),
          fixed(result.rss.highWater, 0),
          `${fixed(soak.rssEarly, 0)} → ${fixed(soak.rssLate, 0)} (${fixed(soak.rssMax, 0)})`,
          `${fixed(soak.heapEarly, 0)} → ${fixed(soak.heapLate, 0)}`,
          fixed(soak.afterSoak, 0),
          Object.entries(soak.operations)
            .map(([name, count]) => `${name} ${grouped(count)}`)
            .join(', '),
          errors(soak.errors),
        ];
      }),
    ),
    '',
  );

  if (two) lines.push(...twoProcessLines(two, settings));
  if (apart) lines.push(...apartLines(apart, settings));

  lines.push(
    '### Start-to-healthy',
    '',
    `From spawning \`node ${START.join(' ')}\` (what \`npm start\` runs after its prestart builds) until the gRPC health check (\`grpc.health.v1.Health/Check\`, polled every 5 ms) answers SERVING. *First start* is on an empty database (PostgreSQL) or an empty data folder (embedded: PGlite creates its cluster), migrations included; *restart* is on the migrated one. Seconds, min / median.`,
    '',
    table(
      ['database', 'first start', 'restart'],
      results.map((result) => [
        BACKEND_NAME[result.backend],
        `${seconds(result.start.cold)} (${runs(result.start.cold.length)})`,
        `${seconds(result.start.warm)} (${runs(result.start.warm.length)})`,
      ]),
    ),
    '',
  );

  lines.push(
    '### SQL statements per operation',
    '',
    `Counted in the gateway process: a probe preloaded with \`--import\` (bench/gateway/probe.ts) wraps node-postgres' \`Client.prototype.query\`, the one door every statement of MikroORM goes through (to PostgreSQL and to the embedded PGlite alike), and counts statements by their shape (the values MikroORM writes into the text replaced by \`?\`). pg_stat_statements would need \`shared_preload_libraries\` and a restart of the machine's PostgreSQL, which the bench does not own. Each operation runs ${settings.sqlOperations} times, one at a time, on a gateway whose idle loops sleep (\`WORKER_IDLE_MS=600000\`) so that only the operation speaks; *webhook* is one postback stored, confirmed with the provider and applied (PIX, pending → APPROVED), with the statements of the /metrics scrapes that waited for it taken off. BEGIN and COMMIT count as statements.`,
    '',
    table(
      ['operation', ...backends.map((backend) => `${BACKEND_NAME[backend]}: statements (by kind)`)],
      (['createTransaction', 'getTransaction', 'webhook'] as const).map((operation) => [
        { createTransaction: 'CreateTransaction (PIX, with an idempotency key)', getTransaction: 'GetTransaction', webhook: 'webhook: intake + apply' }[
          operation
        ],
        ...results.map((result) => statementSummary(result.sql[operation])),
      ]),
    ),
    '',
  );
  for (const result of results) {
    lines.push(`<details><summary>The statements, ${BACKEND_NAME[result.backend]} (per operation; texts cut at 160 characters)</summary>`, '');
    for (const operation of ['createTransaction', 'getTransaction', 'webhook'] as const) {
      lines.push(`${operation}:`, '', '```');
      for (const statement of result.sql[operation].statements)
        lines.push(`${fixed(statement.perOperation, 2).padStart(6)}  ${statement.text.length > 160 ? `${statement.text.slice(0, 160)}…` : statement.text}`);
      lines.push('```', '');
    }
    lines.push('</details>', '');
  }
  lines.push(END_MARKER);
  return lines.join('\n');
}

/** Two gateway processes on one PostgreSQL database: the combined figures and what the database holds afterwards. */
function twoProcessLines(two: TwoProcessResult, settings: Settings): string[] {
  const { checks } = two;
  const lost = checks.chargesStored - checks.chargesAnswered;
  return [
    '### Two gateway processes on one PostgreSQL database',
    '',
    `Two gateway processes (each as above, \`WEBHOOK_WORKERS=1\` each) on one fresh database; ${two.concurrency} callers, caller *i* always on process *i* mod 2, and the postbacks likewise spread over both webhook sidecars; each process processes what it leases of the one backlog. Rates and latencies are the callers', CPU per call is both processes' CPU time added up. ${repeatsNote(settings.throughputRepeats)}`,
    '',
    table(
      ['call', 'calls/s (both)', 'p50 ms', 'p99 ms', 'CPU/op ms (both)', 'answered by each process', 'errors'],
      [
        ...Object.entries(two.create).map(([method, run]) => [`CreateTransaction ${method}`, ...combinedCells(run!)]),
        ['GetTransaction', ...combinedCells(two.get)],
        [
          `webhook intake (processed by each: ${two.webhook.processedBy.join('; ')}; drained ${seconds(two.webhook.drainMs)} s after the last ack)`,
          ...combinedCells(two.webhook),
        ],
      ],
    ),
    '',
    `Afterwards, in the database: ${grouped(checks.chargesStored)} charges stored for ${grouped(checks.chargesAnswered)} answered${lost === 0 ? ' (none lost, none extra)' : ` (**${lost > 0 ? `${lost} more` : `${-lost} missing`}**)`}; ${grouped(checks.notificationsStored)} notifications stored for ${grouped(checks.notificationsAcknowledged)} acknowledged, ${grouped(checks.notificationsUnprocessed)} left unprocessed; ${grouped(checks.applied)} applied and ${grouped(checks.approvedByWebhook)} charges approved by a webhook; charges approved more than once: ${checks.approvedTwice === 0 ? 'none' : `**${checks.approvedTwice}**`}.`,
    '',
  ];
}

/** Webhook intake alone in a sidecar that does not process, then the backlog processed by a worker process of its own. */
function apartLines(apart: WebhooksApartResult, settings: Settings): string[] {
  const { intake, processing } = apart;
  const outcomes = Object.entries(processing.outcomes)
    .map(([outcome, count]) => `${outcome} ${grouped(count)}`)
    .join(', ');
  return [
    '### Webhook intake and processing in processes of their own',
    '',
    `As the README scales webhooks out, on one fresh PostgreSQL database: a gateway process whose sidecar stores and acknowledges but does not process (\`WEBHOOK_WORKERS=0\`), and a gateway process whose notification worker processes the backlog (\`WEBHOOK_WORKERS=1\`). *Intake*: ${apart.concurrency} senders post PAGUESAFE postbacks to the sidecar for ${settings.webhookSeconds} s, nothing processing them (its CPU per acknowledgement is the sidecar process's); ${repeatsNote(settings.webhookRepeats).toLowerCase()} *Processing*: ${grouped(processing.notifications)} postbacks, each about a pending PIX charge of its own, stored by the sidecar, then a worker process started: the time runs from its spawn (its start, about a second, counted in) until every one is processed, and its CPU per notification leaves out what a start of the same process with nothing to process costs. The two share the machine's two cores with PostgreSQL and the load generator, one after the other here.`,
    '',
    table(
      ['part', 'rate', 'p50 ms', 'p99 ms', 'CPU ms', 'errors / outcomes'],
      [
        [
          'intake alone (sidecar, WEBHOOK_WORKERS=0)',
          `${rate(intake.rate)} ack/s`,
          ms(intake.p50),
          ms(intake.p99),
          `${ms(intake.cpuMsPerAck)} per ack`,
          errors(intake.errors),
        ],
        [
          'processing (worker process)',
          `${grouped(processing.notifications / processing.seconds)}/s (${fixed(processing.seconds, 1)} s for ${grouped(processing.notifications)})`,
          '',
          '',
          `${fixed(processing.cpuMsPerNotification, 2)} per notification`,
          `${outcomes}${processing.left ? `; **${grouped(processing.left)} left unprocessed**` : ''}`,
        ],
      ],
    ),
    '',
  ];
}

const repeatsNote = (n: number) => (n === 1 ? 'One run.' : `Min / median of ${n} runs.`);

function combinedCells(run: TwoProcessResult['get']): string[] {
  return [rate(run.rate), ms(run.p50), ms(run.p99), ms(run.cpuMsPerOp), run.split.join('; '), errors(run.errors)];
}

/** Puts the section in the document: in place of the previous one, else before the first section heading. */
export interface SectionMarkers {
  /** How the section's first line begins (the rest of that line may change from run to run). */
  startPrefix: string;
  endMarker: string;
  /** Where a first run puts the section: before the first match (default: the document's first `## ` heading), else at the end. */
  insertBefore?: RegExp;
}

const GATEWAY_SECTION: SectionMarkers = { startPrefix: START_PREFIX, endMarker: END_MARKER };

export function spliceSection(document: string, generated: string, markers: SectionMarkers = GATEWAY_SECTION): string {
  const start = document.indexOf(markers.startPrefix);
  const end = document.indexOf(markers.endMarker);
  if (start >= 0 && end > start) return `${document.slice(0, start)}${generated}${document.slice(end + markers.endMarker.length)}`;
  const before = document.search(markers.insertBefore ?? /^## /m);
  if (before < 0) return `${document.trimEnd()}\n\n${generated}\n`;
  return `${document.slice(0, before)}${generated}\n\n${document.slice(before)}`;
}

export function writeSection(path: string, generated: string, markers?: SectionMarkers): void {
  writeFileSync(path, spliceSection(readFileSync(path, 'utf8'), generated, markers));
}

/** The targets and the headline figures, for the console. */
export function consoleTable(results: BackendResult[], settings: Settings, apart?: WebhooksApartResult): string {
  const backends = results.map((result) => result.backend);
  const rows = verdicts(results, settings, apart).map((verdict) => [
    verdict.target,
    ...backends.map((backend) => (verdict.figures[backend] ?? '').replaceAll('**', '')),
  ]);
  const header = ['target', ...backends.map((backend) => BACKEND_NAME[backend])];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
