/**
 * `npm start` to healthy when nothing changed (issue 31 §5): the whole command a newcomer types, npm and the
 * prestart's stale-build check included, on the embedded database's defaults (a data folder of its own, made by one
 * untimed first start), until the gRPC health check answers SERVING. The build is brought up to date first, untimed.
 * Run alone with `npx tsx bench/npmStart.ts [--quick]`; `npm run bench` runs it and notes the median for issue 31's table.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './gateway/load.js';
import { timeNpmStartToHealthy } from './gateway/processes.js';
import { noteFigure } from './issue31.js';

const RUNS = process.argv.includes('--quick') ? 1 : 3;
const root = new URL('..', import.meta.url).pathname;
execFileSync(process.execPath, ['scripts/buildState.ts', 'web', 'server'], { cwd: root, stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-bench-'));
try {
  const first = await timeNpmStartToHealthy({ dataDir });
  const restarts: number[] = [];
  for (let run = 0; run < RUNS; run += 1) restarts.push(await timeNpmStartToHealthy({ dataDir }));
  console.log(
    `npm start to healthy, build unchanged, embedded: first start ${(first / 1000).toFixed(2)} s, restarts ${restarts.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
  );
  noteFigure('npmStart', median(restarts) / 1000, `restarts ${restarts.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
