/**
 * The SANDBOX PSP alone: how many charges per second it takes with 16 in
 * flight, as its state grows (npm run bench runs it; figures in
 * docs/benchmarks.md). Each charge carries its own Idempotency-Key, as the
 * gateway's do. PSP_BENCH_SECONDS sets the length (5 s; 1 with --quick), and
 * PSP_BENCH_HISTORY=N starts from a state file already holding N PIX charges,
 * a long run's history. It keeps as many charges whole as the gateway does
 * (SANDBOX_WHOLE_RECORDS, 5,000 unless set).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_WHOLE_RECORDS } from '../server/config.js';
import { SandboxPsp } from '../server/sandbox/psp.js';

const SECONDS = Number(process.env.PSP_BENCH_SECONDS ?? (process.argv.includes('--quick') ? 1 : 5));
const HISTORY = Number(process.env.PSP_BENCH_HISTORY ?? 0);
const IN_FLIGHT = 16;
const WINDOW_SECONDS = 5;
const API_KEY = 'bench';
const WHOLE_RECORDS = Number(process.env.SANDBOX_WHOLE_RECORDS || SANDBOX_WHOLE_RECORDS);

const dir = mkdtempSync(join(tmpdir(), 'psp-bench-'));
const stateFile = join(dir, 'state.json');
try {
  if (HISTORY > 0) await writeHistory();
  const loadStarted = Date.now();
  const psp = await new SandboxPsp({ stateFile, settleDelayMs: 60_000, wholeRecords: WHOLE_RECORDS }).start();
  const loadMs = Date.now() - loadStarted;
  const body = JSON.stringify({ amount: 1990, method: 'pix', installments: 1 });
  let done = 0;
  let failed = 0;
  const latencies: number[] = [];
  const perWindow: number[] = [];
  const started = Date.now();
  const until = started + SECONDS * 1000;
  const worker = async (worker: number) => {
    for (let n = 0; Date.now() < until; n += 1) {
      const sent = performance.now();
      const response = await fetch(`${psp.url}/v1/charges`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `bench-${worker}-${n}` },
        body,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      // A charge that ends after the run's last second counts in its last window.
      const window = Math.min(Math.floor((Date.now() - started) / (WINDOW_SECONDS * 1000)), Math.ceil(SECONDS / WINDOW_SECONDS) - 1);
      perWindow[window] = (perWindow[window] ?? 0) + 1;
      if (response.ok) done += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, n) => worker(n)));
  const stopping = Date.now();
  await psp.stop();
  const stopMs = Date.now() - stopping;

  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(0) ?? '-';
  const windows = SECONDS > WINDOW_SECONDS ? `; per ${WINDOW_SECONDS} s: ${perWindow.map((n) => `${Math.round(n / WINDOW_SECONDS)}/s`).join(', ')}` : '';
  const size = (file: string) => (existsSync(file) ? `${(statSync(file).size / 1e6).toFixed(1)} MB` : 'none');
  console.log(
    `sandbox PSP, ${IN_FLIGHT} in flight for ${SECONDS}s${HISTORY ? ` after ${HISTORY} charges of history` : ''}, ${WHOLE_RECORDS} kept whole: ${done} charges (${Math.round(done / SECONDS)}/s), ${failed} failed${windows}`,
  );
  console.log(
    `  latency p50 ${percentile(50)} ms, p99 ${percentile(99)} ms, max ${percentile(100)} ms; start ${loadMs} ms, stop ${stopMs} ms; on disk: state file ${size(stateFile)}, journal ${size(`${stateFile}.journal`)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** A state file in the format every version reads (the snapshot's), holding HISTORY PIX charges like the ones the run makes. */
async function writeHistory(): Promise<void> {
  const scratch = await new SandboxPsp().start();
  const response = await fetch(`${scratch.url}/v1/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1990, method: 'pix', installments: 1 }),
  });
  const charge = (await response.json()) as { id: string };
  await scratch.stop();
  const apiKey = createHash('sha256').update(API_KEY).digest('hex');
  const charges: Record<string, unknown> = {};
  for (let n = 0; n < HISTORY; n += 1) {
    const id = `${charge.id}${n}`;
    charges[id] = { ...charge, id, apiKey, idempotencyKey: `history-${n}` };
  }
  writeFileSync(stateFile, JSON.stringify({ charges, withdrawals: {}, recipients: {} }));
}
