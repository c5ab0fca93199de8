/**
 * The SANDBOX PSP alone: how many charges per second it takes with 16 in
 * flight, as its state file grows (npm run bench runs it; figures in
 * docs/benchmarks.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxPsp } from '../server/sandbox/psp.js';

const SECONDS = Number(process.env.PSP_BENCH_SECONDS ?? (process.argv.includes('--quick') ? 1 : 5));
const IN_FLIGHT = 16;

const dir = mkdtempSync(join(tmpdir(), 'psp-bench-'));
const psp = await new SandboxPsp({ stateFile: join(dir, 'state.json'), settleDelayMs: 60_000 }).start();
try {
  const body = JSON.stringify({ amount: 1990, method: 'pix', installments: 1 });
  let done = 0;
  let failed = 0;
  const until = Date.now() + SECONDS * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const response = await fetch(`${psp.url}/v1/charges`, {
        method: 'POST',
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      if (response.ok) done += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  console.log(`sandbox PSP, ${IN_FLIGHT} in flight for ${SECONDS}s: ${done} charges (${Math.round(done / SECONDS)}/s), ${failed} failed`);
} finally {
  await psp.stop();
  rmSync(dir, { recursive: true, force: true });
}
