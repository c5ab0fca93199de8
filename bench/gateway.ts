/**
 * The gateway under load, end to end: starts the gateway itself (in its own
 * process) on the machine's PostgreSQL and on the embedded PGlite, with a
 * zero-latency fake provider, and measures side by side the latency it adds
 * to CreateTransaction, throughput of CreateTransaction and GetTransaction
 * with the gateway's CPU per call, webhook intake and its backlog, RSS idle,
 * under load and over a soak, start-to-healthy, and SQL statements per
 * operation; then two gateway processes on one PostgreSQL database, combined,
 * and webhook intake and processing in processes of their own.
 * Prints the targets and writes its section of docs/benchmarks.md.
 *
 * Usage: npm run bench [-- --quick] [--soak-seconds N] [--backend postgres|embedded] [--write | --no-write] [--no-two-processes] [--cpu-prof DIR]
 *   [--only webhooks|overload|start|apart] [--webhook-seconds N]
 * (DATABASE_URL names the PostgreSQL server; the bench makes and drops a database of its own on it.)
 */
import { loadavg } from 'node:os';
import { POSTGRES_URL, runBackend, type BackendResult } from './gateway/scenario.js';
import { twoProcesses, type TwoProcessResult } from './gateway/twoProcesses.js';
import { webhooksApart, type WebhooksApartResult } from './gateway/webhooksApart.js';
import { buildGateway, startFakeProvider } from './gateway/processes.js';
import { median } from './gateway/load.js';
import { addedLatency, bestCreate, consoleTable, describeMachine, section, writeSection } from './gateway/report.js';
import { noteFigure } from './issue31.js';
import { readSettings } from './gateway/settings.js';

const settings = readSettings(process.argv.slice(2));
const machine = await describeMachine();
const log = (line: string) => console.log(line);
log(
  `gateway under load (${settings.quick ? 'quick' : 'full'} run, soak ${settings.soakSeconds} s) on ${settings.backends.join(' and ')}; load average ${machine.loadBefore.map((value) => value.toFixed(2)).join(' ')}`,
);
// The machine is shared: the 1-minute load average through the run says how much.
const loadSamples: number[] = [];
const loadSampler = setInterval(() => loadSamples.push(loadavg()[0]!), 10_000);
await buildGateway(log);
const fake = await startFakeProvider();
const results: BackendResult[] = [];
let two: TwoProcessResult | undefined;
let apart: WebhooksApartResult | undefined;
/** Written after each database, so that a failure later keeps what was measured. */
const write = () => {
  machine.loadAfter = loadavg();
  machine.loadDuring = loadSamples;
  writeSection(new URL('../docs/benchmarks.md', import.meta.url).pathname, section(results, settings, machine, two, apart));
  log(`docs/benchmarks.md: section "The gateway under load" written (${results.map((result) => result.backend).join(', ')})`);
};
try {
  for (const backend of settings.backends) {
    log(`${backend}:`);
    const result = await runBackend(backend, settings, fake, log);
    if (result) results.push(result);
    if (settings.write) write();
  }
  if (settings.twoProcesses) {
    two = await twoProcesses(POSTGRES_URL, settings, fake, log);
    if (settings.write) write();
  }
  if (settings.webhooksApart) {
    apart = await webhooksApart(POSTGRES_URL, settings, fake, log);
    if (settings.write) write();
  }
} finally {
  clearInterval(loadSampler);
  await fake.stop();
}
for (const result of results) {
  if (result.backend === 'embedded') noteFigure('embeddedPeakRss', result.rss.peakUnderLoad, 'peak of samples every 250 ms under load');
  if (result.backend !== 'postgres') continue;
  const best = bestCreate(result, 'PIX');
  if (best) {
    noteFigure('standInPix', median(best.rate), `×${best.concurrency}`);
    noteFigure('cpuPerPix', median(best.cpuMsPerOp), `×${best.concurrency}`);
  }
  noteFigure('p99At200', addedLatency(result, 200, 'PIX').p99);
  const kinds = result.sql.createTransaction.byKind;
  const writes = ['insert', 'update', 'delete', 'with'].reduce((sum, kind) => sum + (kinds[kind] ?? 0), 0);
  // Outside BEGIN … COMMIT every writing statement commits on its own; inside, the COMMIT does.
  const statements = Object.entries(kinds)
    .map(([kind, count]) => `${kind} ${count.toFixed(1)}`)
    .join(', ');
  noteFigure('durableCommits', (kinds.commit ?? 0) + (kinds.begin ? 0 : writes), `statements: ${statements}`);
}
log('');
// The targets' table needs every section; an --only run has printed its figures above.
if (!settings.only) log(consoleTable(results, settings, apart));
log(
  `load average after the run: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
