/**
 * CPU per PIX charge of this tree's gateway against another tree's (issue 31), the two interleaved round by round so
 * that they share the machine's state: on a machine other jobs load, rates are noise and only CPU per charge read
 * from /proc, compared within a round, says whether a change paid.
 *
 * Each gateway runs compiled, as `npm start` runs it (with load shedding off, so every call counts), on a fresh
 * PostgreSQL database of its own, against the one zero-latency fake provider; 8 callers (below) of CreateTransaction (PIX,
 * `omit_pix_qr_image` unless CPU_AB_IMAGE=1 asks for the image, an idempotency key each). The order alternates from
 * round to round. Printed: each round's CPU ms per charge, each side's median, and the paired ratios this tree / other
 * tree with their median; the same for PostgreSQL's CPU per charge (every server process of the machine's cluster, so
 * nothing else should use the cluster meanwhile), which a change of the schema or of the statements moves while the
 * gateway's own figure stays put. The fake answers every charge with one PIX code, so with the image the gateway's cache
 * serves it after the first: the image's drawing is measured through SANDBOX (bench/sandboxCharges.ts), not here.
 *
 * The other tree is a worktree with its server compiled (`git worktree add --detach /tmp/base main`, link its
 * node_modules, then `npx tsx scripts/serverBuild.ts --force` in it). Run with
 * `npx tsx bench/cpuAB.ts /tmp/base`; CPU_AB_ROUNDS (8) rounds of CPU_AB_SECONDS (5) each, CPU_AB_CALLERS (8) callers
 * (32 reads a change's cost at saturation). Run it against a copy of this very tree first: that A/A run shows how far
 * two identical builds drift apart on the machine as it is.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { CreateTransactionRequest } from '../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../gen/ts-proto/gateway/v1/types.js';
import { createTestDatabase } from '../tests/support/postgres.js';
import { classify, GatewayClient } from './gateway/clients.js';
import { closedLoop, median } from './gateway/load.js';
import * as here from './gateway/processes.js';

const otherRoot = process.argv[2];
if (!otherRoot) throw new Error('usage: npx tsx bench/cpuAB.ts <the other tree, its server compiled>');
const ROUNDS = Number(process.env.CPU_AB_ROUNDS ?? 8);
/** CPU_AB_IMAGE=1: the charges ask for the PIX QR image too. */
const IMAGE = process.env.CPU_AB_IMAGE === '1';
const SECONDS = Number(process.env.CPU_AB_SECONDS ?? 5);
const CALLERS = Number(process.env.CPU_AB_CALLERS ?? 8);

// The other tree's own bench code starts its own build (its dist/ and its probe), as this tree's does for this one.
const other = (await import(pathToFileURL(join(resolve(otherRoot), 'bench/gateway/processes.ts')).href)) as typeof here;

interface Side {
  name: string;
  pid: number;
  charge: () => Promise<unknown>;
  cpuMs: number[];
  /** PostgreSQL's CPU ms per charge, each round. */
  postgresMs: number[];
  stop: () => Promise<void>;
}

const fake = await here.startFakeProvider();
const sides: Side[] = [];
try {
  for (const [name, processes] of [
    [`other (${otherRoot})`, other],
    ['this tree', here],
  ] as const) {
    await processes.buildGateway((line) => console.log(`${name}: ${line}`));
    const database = await createTestDatabase(undefined, 'gw_cpu_ab');
    const dataDir = mkdtempSync(join(tmpdir(), 'cpu-ab-'));
    const gateway = await processes.startGatewayProcess({ databaseUrl: database.url, dataDir, env: { SHED_EVENT_LOOP_DELAY_MS: '0', SHED_POOL_WAIT_MS: '0' } });
    const client = new GatewayClient(gateway.grpcAddress);
    const accountId = await client.createAccount(fake.url);
    const run = randomUUID().slice(0, 8);
    let sequence = 0;
    sides.push({
      name,
      pid: gateway.pid,
      cpuMs: [],
      postgresMs: [],
      charge: () =>
        client.driver.call(
          'gateway',
          'createTransaction',
          CreateTransactionRequest.fromPartial({
            providerAccountId: accountId,
            idempotencyKey: `cpu-ab-${run}-${sequence++}`,
            omitPixQrImage: !IMAGE,
            transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: { name: 'Ana Souza', document: '12345678909' } },
          }),
        ),
      stop: async () => {
        client.driver.close();
        await gateway.stop();
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    });
  }
  for (const side of sides) await closedLoop(CALLERS, 3, side.charge, classify);
  for (let round = 0; round < ROUNDS; round += 1)
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const before = here.procCpuMs(side.pid);
      const postgresSince = here.postgresCpuSince();
      const result = await closedLoop(CALLERS, SECONDS, side.charge, classify);
      side.cpuMs.push((here.procCpuMs(side.pid) - before) / Math.max(1, result.ok));
      side.postgresMs.push(postgresSince() / Math.max(1, result.ok));
      const errors = Object.values(result.errors).reduce((sum, n) => sum + n, 0);
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      console.log(
        `round ${round + 1}, ${side.name}: ${side.cpuMs.at(-1)!.toFixed(3)} ms of CPU a charge, PostgreSQL ${side.postgresMs.at(-1)!.toFixed(3)} ms, ${(result.ok / result.seconds).toFixed(0)}/s, load ${load}${errors ? `, errors ${JSON.stringify(result.errors)}` : ''}`,
      );
    }
  const pairs = (of: (side: Side) => number[]) => {
    const [base, mine] = sides.map(of) as [number[], number[]];
    const ratios = base.map((ms, round) => mine[round]! / ms);
    return `${ratios.map((ratio) => ratio.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)}`;
  };
  for (const side of sides)
    console.log(
      `${side.name}: ${side.cpuMs.map((ms) => ms.toFixed(3)).join(', ')}; median ${median(side.cpuMs).toFixed(3)} ms; PostgreSQL ${side.postgresMs.map((ms) => ms.toFixed(3)).join(', ')}; median ${median(side.postgresMs).toFixed(3)} ms`,
    );
  console.log(`this tree / other, round by round: ${pairs((side) => side.cpuMs)}`);
  console.log(`PostgreSQL, this tree / other, round by round: ${pairs((side) => side.postgresMs)}`);
} finally {
  for (const side of sides) await side.stop();
  await fake.stop();
}
