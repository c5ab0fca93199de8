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
 *
 * Then one more round of each row with V8's CPU profiler on in the server (started and stopped by the probe, so the
 * profile is that window's): a charge's CPU, the server's and PostgreSQL's, split by what it went to (authentication,
 * validation, audit, metrics, tracing, the database client, serialisation, the QR image…; profileShares.ts), for the
 * gateway and the baseline side by side, and noted for issue 31's section of docs/benchmarks.md (point 7: what the
 * gateway does beyond the baseline, with its share). The profiles are kept in the system's temporary folder.
 * Run alone with `npx tsx bench/baseline.ts [--quick]`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { CreateTransactionRequest } from '../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver, type Driver } from '../tests/support/clients.js';
import { createTestDatabase } from '../tests/support/postgres.js';
import { classify, GatewayClient } from './gateway/clients.js';
import { closedLoop, median } from './gateway/load.js';
import { activityShares, profileShares } from './gateway/profileShares.js';
import { noteFigure, noteIssue31Text } from './issue31.js';
import {
  BENCH_TOKEN,
  buildGateway,
  type CpuProfiler,
  postgresCpuSince,
  probePreload,
  procCpuMs,
  procCpuSplitMs,
  startFakeProvider,
  startGatewayProcess,
  startListening,
} from './gateway/processes.js';

const QUICK = process.argv.includes('--quick');
const SECONDS = Number(process.env.BASELINE_SECONDS ?? (QUICK ? 3 : 8));
const ROUNDS = Number(process.env.BASELINE_ROUNDS ?? (QUICK ? 2 : 3));
const CALLERS = 32;

interface Sample {
  perSecond: number;
  p50: number;
  /** The server's process, in milliseconds of CPU a charge. */
  cpuMs: number;
  /** PostgreSQL's processes, the same. */
  postgresMs: number;
}

/** A row's profiled round: its server's CPU a charge, user and system apart, PostgreSQL's, and where the user time went. */
interface Profiled {
  charges: number;
  userMs: number;
  systemMs: number;
  postgresMs: number;
  profile: string;
}

/** One round of `call` with the profiler on in `profiler`'s process (pid): what a charge cost, and where it went. */
async function profiledRound(pid: number, profiler: CpuProfiler, call: () => Promise<unknown>, profile: string): Promise<Profiled> {
  await profiler.start();
  const before = procCpuSplitMs(pid);
  const postgresSpent = postgresCpuSince();
  const result = await closedLoop(CALLERS, SECONDS, call, classify);
  const after = procCpuSplitMs(pid);
  const postgres = postgresSpent();
  await profiler.stop(profile);
  const charges = Math.max(1, result.ok);
  return { charges, userMs: (after.user - before.user) / charges, systemMs: (after.system - before.system) / charges, postgresMs: postgres / charges, profile };
}

const ms = (value: number) => value.toFixed(3);

/**
 * The profiled rounds as one table: a charge's CPU in milliseconds by what it went to, each row's user time split by
 * its profile's shares (socket writes left out: their time is the system CPU below, or a wait for a core). Its last
 * column is the row named `compared` less the row named `base`, and its activities are in `compared`'s order.
 */
function activityTable(rows: { name: string; profiled: Profiled }[], compared: string, base: string): string {
  const [of, less] = [compared, base].map((name) => rows.findIndex((row) => row.name === name)) as [number, number];
  const split = rows.map(({ profiled }) => {
    const { shares, socketWrites } = activityShares(profiled.profile);
    return { perActivity: new Map(shares.map(({ activity, share }) => [activity, share * profiled.userMs])), socketWrites };
  });
  const activities = [...new Set(split.flatMap(({ perActivity }) => [...perActivity.keys()]))].sort(
    (a, b) => (split[of]!.perActivity.get(b) ?? 0) - (split[of]!.perActivity.get(a) ?? 0),
  );
  const gap = (values: number[]) => ms(values[of]! - values[less]!);
  const line = (label: string, values: number[]) => `| ${label} | ${values.map(ms).join(' | ')} | ${gap(values)} |`;
  const server = rows.map(({ profiled }) => profiled.userMs + profiled.systemMs);
  return [
    `| a charge's CPU, ms | ${rows.map(({ name }) => name).join(' | ')} | ${compared} − ${base} |`,
    `|---|${rows.map(() => '---|').join('')}---|`,
    ...activities.map((activity) =>
      line(
        activity,
        split.map(({ perActivity }) => perActivity.get(activity) ?? 0),
      ),
    ),
    line(
      "the kernel for the server's process (system CPU: its sockets' reads and writes, timers)",
      rows.map(({ profiled }) => profiled.systemMs),
    ),
    line("**the server's process in all**", server),
    line(
      "PostgreSQL's processes (the statements' work)",
      rows.map(({ profiled }) => profiled.postgresMs),
    ),
    line(
      '**the two cores in all**',
      rows.map(({ profiled }, i) => server[i]! + profiled.postgresMs),
    ),
    `| *charges in the profiled round; socket writes' share of the profile's busy time* | ${rows.map(({ profiled }, i) => `${profiled.charges}; ${(split[i]!.socketWrites * 100).toFixed(0)} %`).join(' | ')} | |`,
  ].join('\n');
}

await buildGateway((line) => console.log(line));
const fake = await startFakeProvider();
const gatewayDatabase = await createTestDatabase(undefined, 'gw_bench');
const baselineDatabase = await createTestDatabase(undefined, 'gw_bench');
const dataDir = mkdtempSync(join(tmpdir(), 'baseline-bench-'));
const gateway = await startGatewayProcess({
  databaseUrl: gatewayDatabase.url,
  dataDir,
});
const baseline = await startListening('baselineServer.ts', { ...process.env, DATABASE_URL: baselineDatabase.url, PROVIDER_URL: fake.url }, [probePreload()]);
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
    { name: 'gateway (QR image answered)', call: charge(client.driver, false), pid: gateway.pid, profiler: gateway.cpuProfile },
    { name: 'gateway (omit_pix_qr_image)', call: charge(client.driver, true), pid: gateway.pid, profiler: gateway.cpuProfile },
    { name: 'bare baseline', call: charge(baselineDriver, false), pid: baseline.pid, profiler: baseline.cpuProfile },
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

  const stamp = Date.now();
  const profiled: { name: string; profiled: Profiled }[] = [];
  for (const [i, row] of rows.entries())
    profiled.push({ name: row.name, profiled: await profiledRound(row.pid, row.profiler, row.call, join(tmpdir(), `baseline-${stamp}-${i}.cpuprofile`)) });
  const table = activityTable(profiled, 'gateway (omit_pix_qr_image)', 'bare baseline');
  console.log(`\nA charge's CPU by what it went to (one more round of ${SECONDS} s each, ${CALLERS} callers, V8's CPU profiler on in the server):\n${table}`);
  console.log(`The profiles are kept: ${profiled.map(({ profiled: { profile } }) => profile).join(', ')} (open them in Chrome's DevTools).`);
  console.log("\nThe gateway's busy time (omit_pix_qr_image), by package and by folder of ours:");
  for (const { bucket, share } of profileShares(profiled[1]!.profiled.profile).slice(0, 15))
    console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${bucket}`);
  noteIssue31Text(
    [
      "### What a charge's CPU goes to, the gateway beside its bare baseline (this run)",
      '',
      `Written by \`npm run bench\` (bench/baseline.ts): after the ratio's rounds, one more round of each row (${SECONDS} s, ${CALLERS} callers) with V8's CPU profiler on in the server's process, started and stopped by the bench's probe for that window. Each row's user CPU a charge (from /proc) is split by its profile: a sample goes to the first function up its stack that lives in a file of a package or of ours, and the file names the activity (bench/gateway/profileShares.ts). Samples in a socket write are left out of the split: V8 samples wall time, and a thread in a write to a loopback socket is in the kernel, whose CPU is the system line, or waiting for a core. The profiler costs the server a little CPU of its own, so the totals run a little over the ratio's rounds.`,
      '',
      table,
    ].join('\n'),
  );
} finally {
  client.driver.close();
  baselineDriver.close();
  await baseline.stop();
  await gateway.stop();
  await fake.stop();
  await gatewayDatabase.drop();
  await baselineDatabase.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
