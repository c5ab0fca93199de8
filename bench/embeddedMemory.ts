/**
 * The embedded default's memory under load (issue 31, point 6: peak ≤ 400 MB): the gateway as `npm start` runs it
 * with no DATABASE_URL (PGlite in its child process, the SANDBOX PSP in its thread), 4 callers creating SANDBOX
 * charges (PIX with the QR image answered and boletos, in turn) for MEMORY_BENCH_SECONDS (20). Resident memory of the
 * gateway's process and of the database's is read from /proc every 250 ms; printed per run: the peak of their sum,
 * each one's peak, each one's high-water mark (VmHWM, start-up included) and the charges made.
 * Variants (other Node flags for the gateway, other settings as environment variables) are run in interleaved
 * rounds, so that the shared machine's load falls on each alike:
 *   npx tsx bench/embeddedMemory.ts [--rounds N] [--variant 'label' '{"node":[...],"env":{...}}' ...]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaymentMethod } from '../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver } from '../tests/support/clients.js';
import { childPids } from '../tests/support/process.js';
import { classify } from './gateway/clients.js';
import { closedLoop } from './gateway/load.js';
import { sandboxCharger } from './gateway/sandboxAccount.js';
import { BENCH_TOKEN, buildGateway, procRssMb, startGatewayProcess } from './gateway/processes.js';

interface Variant {
  label: string;
  node?: string[];
  env?: Record<string, string>;
}

const argv = process.argv.slice(2);
const SECONDS = Number(process.env.MEMORY_BENCH_SECONDS ?? 20);
const ROUNDS = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 2;
const IN_FLIGHT = 4;
const variants: Variant[] = [];
argv.forEach((arg, index) => {
  if (arg === '--variant') variants.push({ label: argv[index + 1]!, ...(JSON.parse(argv[index + 2] ?? '{}') as Omit<Variant, 'label'>) });
});
if (variants.length === 0) variants.push({ label: 'as npm start' });

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function run(variant: Variant) {
  const dataDir = mkdtempSync(join(tmpdir(), 'memory-bench-'));
  const load = loadAverage();
  const gateway = await startGatewayProcess({ dataDir, nodeOptions: variant.node, env: variant.env });
  const database = childPids(gateway.pid)[0];
  if (database === undefined) throw new Error('the gateway has no child process: is DATABASE_URL set?');
  const driver = grpcDriver(gateway.grpcAddress, BENCH_TOKEN);
  const peaks = { sum: 0, gateway: 0, database: 0 };
  const sample = () => {
    const own = procRssMb(gateway.pid).rss;
    const child = procRssMb(database).rss;
    peaks.sum = Math.max(peaks.sum, own + child);
    peaks.gateway = Math.max(peaks.gateway, own);
    peaks.database = Math.max(peaks.database, child);
  };
  sample();
  const idle = { ...peaks };
  const sampler = setInterval(sample, 250);
  try {
    const charge = await sandboxCharger(driver, 'memory-bench');
    let sequence = 0;
    const result = await closedLoop(
      IN_FLIGHT,
      SECONDS,
      // PIX (its QR image drawn and answered) and boletos in turn.
      () => charge(sequence++ % 2 === 0 ? PaymentMethod.PAYMENT_METHOD_PIX : PaymentMethod.PAYMENT_METHOD_BILLET),
      classify,
    );
    sample();
    const highWater = { gateway: procRssMb(gateway.pid).peak, database: procRssMb(database).peak };
    return { variant: variant.label, load, idle, peaks, highWater, charges: result.ok, errors: result.errors };
  } finally {
    clearInterval(sampler);
    driver.close();
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await buildGateway((line) => console.log(line));
console.log(`embedded gateway, ${IN_FLIGHT} callers, ${SECONDS} s of SANDBOX charges (PIX and boletos in turn), ${ROUNDS} interleaved rounds`);
console.log(
  '| variant | load before | idle MB (gateway + database) | peak MB, sum | peak MB, gateway | peak MB, database | high-water MB, gateway / database | charges | errors |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const mb = (value: number) => value.toFixed(0);
for (let round = 0; round < ROUNDS; round += 1)
  for (const variant of variants) {
    const row = await run(variant);
    console.log(
      `| ${row.variant} | ${row.load} | ${mb(row.idle.gateway)} + ${mb(row.idle.database)} | ${mb(row.peaks.sum)} | ${mb(row.peaks.gateway)} | ${mb(row.peaks.database)} | ${mb(row.highWater.gateway)} / ${mb(row.highWater.database)} | ${row.charges} | ${JSON.stringify(row.errors)} |`,
    );
  }
