/**
 * The gateway against its bare baseline (issue 31, point 7). The baseline is bench/gateway/baselineServer.ts: the
 * key's claim, the provider call and the charge's insert, the two durable commits a charge needs, and nothing else.
 * Both run as processes of their own on one PostgreSQL (fresh databases) against the same zero-latency fake provider.
 * 32 callers each, interleaved round by round (the machine's state changes across a run; interleaving shares it):
 * the gateway as callers use it by default (QR image answered), the gateway with `omit_pix_qr_image`, and the
 * baseline. Printed: charges per second, p50, CPU per charge of the server's process and of PostgreSQL's (every
 * process of the machine's cluster, read around the same window: the statements' work, which the server's own
 * figure leaves out), and the ratio gateway / baseline of the medians. BASELINE_SECONDS per row (8; 3 with --quick),
 * BASELINE_ROUNDS rounds (3; 2 with --quick).
 * Run alone with `npx tsx bench/baseline.ts [--quick] [--profile]`.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { CreateTransactionRequest } from '../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver, type Driver } from '../tests/support/clients.js';
import { createTestDatabase } from '../tests/support/postgres.js';
import { classify, GatewayClient } from './gateway/clients.js';
import { closedLoop, median } from './gateway/load.js';
import { profileShares } from './gateway/profileShares.js';
import { noteFigure } from './issue31.js';
import { BENCH_TOKEN, buildGateway, postgresCpuSince, procCpuMs, startFakeProvider, startGatewayProcess, startListening } from './gateway/processes.js';

const QUICK = process.argv.includes('--quick');
const SECONDS = Number(process.env.BASELINE_SECONDS ?? (QUICK ? 3 : 8));
const ROUNDS = Number(process.env.BASELINE_ROUNDS ?? (QUICK ? 2 : 3));
const CALLERS = 32;
/** `--profile`: the gateway runs under `--cpu-prof`, and its busy time is printed by where it went (profileShares.ts). */
const PROFILE = process.argv.includes('--profile');

interface Sample {
  perSecond: number;
  p50: number;
  /** The server's process, in milliseconds of CPU a charge. */
  cpuMs: number;
  /** PostgreSQL's processes, the same. */
  postgresMs: number;
}

/** The gateway's profile (written as it stopped), its busy time by package and by folder of ours. */
function printShares(dir: string): void {
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) return console.log('no CPU profile was written');
  const kept = join(tmpdir(), `gateway-${Date.now()}.cpuprofile`);
  copyFileSync(join(dir, file), kept);
  console.log(`\nThe profile is kept at ${kept} (open it in Chrome's DevTools).`);
  console.log("\nThe gateway's busy CPU time over the whole run, by where it went (Node's internals and native code under their caller; idle left out):");
  for (const { bucket, share } of profileShares(join(dir, file)).slice(0, 25)) console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${bucket}`);
}

await buildGateway((line) => console.log(line));
const fake = await startFakeProvider();
const gatewayDatabase = await createTestDatabase(undefined, 'gw_bench');
const baselineDatabase = await createTestDatabase(undefined, 'gw_bench');
const dataDir = mkdtempSync(join(tmpdir(), 'baseline-bench-'));
const profileDir = join(dataDir, 'profile');
const gateway = await startGatewayProcess({
  databaseUrl: gatewayDatabase.url,
  dataDir,
  nodeOptions: PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
});
const baseline = await startListening('baselineServer.ts', { ...process.env, DATABASE_URL: baselineDatabase.url, PROVIDER_URL: fake.url });
const client = new GatewayClient(gateway.grpcAddress);
const baselineDriver: Driver = grpcDriver(baseline.url, BENCH_TOKEN);
try {
  const accountId = await client.createAccount(fake.url);
  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  const charge = (driver: Driver, omitPixQrImage: boolean) => () =>
    driver.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        idempotencyKey: `baseline-${run}-${sequence++}`,
        omitPixQrImage,
        transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: { name: 'Ana Souza', document: '12345678909' } },
      }),
    );
  const rows = [
    { name: 'gateway (QR image answered)', call: charge(client.driver, false), pid: gateway.pid },
    { name: 'gateway (omit_pix_qr_image)', call: charge(client.driver, true), pid: gateway.pid },
    { name: 'bare baseline', call: charge(baselineDriver, false), pid: baseline.pid },
  ];
  const samples = new Map<string, Sample[]>(rows.map((row) => [row.name, []]));
  for (const row of rows) await closedLoop(CALLERS, QUICK ? 1 : 2, row.call, classify);
  for (let round = 0; round < ROUNDS; round += 1)
    for (const row of rows) {
      const before = procCpuMs(row.pid);
      const postgresSpent = postgresCpuSince();
      const result = await closedLoop(CALLERS, SECONDS, row.call, classify);
      const errors = Object.values(result.errors).reduce((sum, n) => sum + n, 0);
      if (errors > 0) console.log(`  ${row.name}: ${errors} errors ${JSON.stringify(result.errors)}`);
      const charges = Math.max(1, result.ok);
      samples.get(row.name)!.push({
        perSecond: result.ok / result.seconds,
        p50: result.p50,
        cpuMs: (procCpuMs(row.pid) - before) / charges,
        postgresMs: postgresSpent() / charges,
      });
    }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`\nPIX charges, ${CALLERS} callers, ${ROUNDS} interleaved rounds of ${SECONDS} s; load average after ${load}`);
  console.log('| server | charges/s (each round) | median | p50 ms (median) | CPU ms/charge (median) | PostgreSQL CPU ms/charge (median) |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, list] of samples)
    console.log(
      `| ${name} | ${list.map((s) => s.perSecond.toFixed(0)).join(', ')} | ${median(list.map((s) => s.perSecond)).toFixed(0)} | ${median(list.map((s) => s.p50)).toFixed(1)} | ${median(list.map((s) => s.cpuMs)).toFixed(2)} | ${median(list.map((s) => s.postgresMs)).toFixed(2)} |`,
    );
  const base = median(samples.get('bare baseline')!.map((s) => s.perSecond));
  /** A row's CPU a charge, its server's and PostgreSQL's: what the two cores pay for one. */
  const cpuOf = (name: string) => {
    const list = samples.get(name)!;
    return `${median(list.map((s) => s.cpuMs)).toFixed(2)} + ${median(list.map((s) => s.postgresMs)).toFixed(2)} ms`;
  };
  for (const [name, key] of [
    ['gateway (QR image answered)', 'baselineRatio'],
    ['gateway (omit_pix_qr_image)', 'baselineRatioNoImage'],
  ] as const) {
    const gatewayRate = median(samples.get(name)!.map((s) => s.perSecond));
    console.log(`ratio ${name} / baseline: ${(gatewayRate / base).toFixed(2)}`);
    noteFigure(
      key,
      gatewayRate / base,
      `${gatewayRate.toFixed(0)}/s against ${base.toFixed(0)}/s, ${CALLERS} callers; CPU a charge, the server's + PostgreSQL's: ${cpuOf(name)} against ${cpuOf('bare baseline')}`,
    );
  }
} finally {
  client.driver.close();
  baselineDriver.close();
  await baseline.stop();
  await gateway.stop();
  if (PROFILE) printShares(profileDir);
  await fake.stop();
  await gatewayDatabase.drop();
  await baselineDatabase.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
