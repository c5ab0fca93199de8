/**
 * Charges through the built-in SANDBOX PSP: the path `npm start` gives a newcomer (issue 31, points 1 and 8). The
 * gateway runs as `npm start` runs it, SANDBOX PSP included, on PostgreSQL and on the embedded database; 16 callers
 * create PIX charges (with the QR image answered, and without: `omit_pix_qr_image`), then boletos, each for
 * SANDBOX_BENCH_SECONDS (10; 3 with --quick), after a warm-up of every row and of each again before it is measured.
 * Printed per row: charges per second, the median and p99 latency, and
 * the CPU per charge of the gateway's process less the PSP's thread, of the PSP's own thread (its worker thread, read
 * by name from /proc; 0 where it runs on the gateway's loop, SANDBOX_THREAD=false) and of the database (PostgreSQL's
 * processes, or the embedded database's child process), so the two cores' budget is visible. Run alone with
 * `npx tsx bench/sandboxCharges.ts [--quick] [--backend postgres|embedded]`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaymentMethod } from '../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver } from '../tests/support/clients.js';
import { createTestDatabase } from '../tests/support/postgres.js';
import { classify } from './gateway/clients.js';
import { closedLoop } from './gateway/load.js';
import { sandboxCharger } from './gateway/sandboxAccount.js';
import { SANDBOX_THREAD_NAME } from '../server/sandbox/pspThread.js';
import { noteFigure } from './issue31.js';
import { BENCH_TOKEN, buildGateway, postgresCpuSince, procCpuMs, startGatewayProcess, threadCpuMs } from './gateway/processes.js';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const SECONDS = Number(process.env.SANDBOX_BENCH_SECONDS ?? (QUICK ? 3 : 10));
const WARMUP_SECONDS = QUICK ? 1 : 3;
const IN_FLIGHT = 16;
const backendArg = argv[argv.indexOf('--backend') + 1];
const BACKENDS = argv.includes('--backend') ? [backendArg as 'postgres' | 'embedded'] : (['postgres', 'embedded'] as const);

interface Row {
  backend: string;
  row: string;
  perSecond: number;
  p50: number;
  p99: number;
  errors: Record<string, number>;
  gatewayMs: number;
  pspMs: number;
  databaseMs: number;
}

async function runBackend(backend: 'postgres' | 'embedded'): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const database = backend === 'postgres' ? await createTestDatabase(undefined, 'gw_bench') : undefined;
  const gateway = await startGatewayProcess({ databaseUrl: database?.url, dataDir });
  const driver = grpcDriver(gateway.grpcAddress, BENCH_TOKEN);
  const rows: Row[] = [];
  try {
    const createCharge = await sandboxCharger(driver, 'sandbox-bench');
    const charge = (method: PaymentMethod, omitPixQrImage: boolean) => () => createCharge(method, omitPixQrImage);
    const cases = [
      ['PIX, image answered', charge(PaymentMethod.PAYMENT_METHOD_PIX, false)],
      ['PIX, omit_pix_qr_image', charge(PaymentMethod.PAYMENT_METHOD_PIX, true)],
      ['BILLET', charge(PaymentMethod.PAYMENT_METHOD_BILLET, false)],
    ] as const;
    // Every row's calls before any row is measured, then each row's again just before it. With only its own warm-up
    // (3 s), a row measured early cost the gateway up to 0.7 ms a charge more than the same calls measured again later
    // (a gateway's first minute: modules loaded on first use, the optimiser on its main thread).
    for (const [, call] of cases) await closedLoop(IN_FLIGHT, WARMUP_SECONDS, call, classify);
    for (const [row, call] of cases) {
      await closedLoop(IN_FLIGHT, WARMUP_SECONDS, call, classify);
      const gatewayBefore = procCpuMs(gateway.pid);
      const pspBefore = threadCpuMs(gateway.pid, SANDBOX_THREAD_NAME);
      const databaseBefore = gateway.childrenCpuMs();
      const databaseSpent = backend === 'postgres' ? postgresCpuSince() : () => gateway.childrenCpuMs() - databaseBefore;
      const result = await closedLoop(IN_FLIGHT, SECONDS, call, classify);
      const pspMs = threadCpuMs(gateway.pid, SANDBOX_THREAD_NAME) - pspBefore;
      const gatewayMs = procCpuMs(gateway.pid) - gatewayBefore - pspMs;
      const databaseMs = databaseSpent();
      rows.push({
        backend,
        row,
        perSecond: result.ok / result.seconds,
        p50: result.p50,
        p99: result.p99,
        errors: result.errors,
        gatewayMs: gatewayMs / Math.max(1, result.ok),
        pspMs: pspMs / Math.max(1, result.ok),
        databaseMs: databaseMs / Math.max(1, result.ok),
      });
    }
  } finally {
    driver.close();
    await gateway.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

await buildGateway((line) => console.log(line));
console.log(
  `charges through the SANDBOX PSP, ${IN_FLIGHT} in flight, ${SECONDS} s a row; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
console.log(
  '| database | charges | per second | p50 ms | p99 ms | gateway CPU ms/charge (PSP thread excluded) | PSP thread CPU ms/charge | database CPU ms/charge | errors |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const FIGURES = { 'PIX, image answered': 'sandboxPix', 'PIX, omit_pix_qr_image': 'sandboxPixNoImage', BILLET: 'sandboxBillet' } as const;
for (const backend of BACKENDS)
  for (const row of await runBackend(backend)) {
    if (backend === 'postgres')
      noteFigure(
        FIGURES[row.row as keyof typeof FIGURES],
        row.perSecond,
        `p99 ${row.p99.toFixed(0)} ms, gateway ${(row.gatewayMs + row.pspMs).toFixed(2)} ms of CPU a charge`,
      );
    console.log(
      `| ${row.backend} | ${row.row} | ${row.perSecond.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.gatewayMs.toFixed(2)} | ${row.pspMs.toFixed(2)} | ${row.databaseMs.toFixed(2)} | ${JSON.stringify(row.errors)} |`,
    );
  }
