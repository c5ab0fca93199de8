import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { prepareTemplate, templateStaleBecause, npmStartArgs } from '../../scripts/serverBuild.js';
import { removeDir, TEST_TOKEN } from '../support/gateway.js';
import { pgControl } from '../support/pgControl.js';
import { childPids, isRunning, portFor, spawnGateway, type GatewayProcess } from '../support/process.js';

/**
 * A gateway on the embedded database stopped at any moment leaves its data folder closed cleanly, and a restart
 * never opens the folder while another process still has it: PGlite does not lock its folder, and two engines on
 * one folder ruin it.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-embedded-stop-'));
const gateways: GatewayProcess[] = [];
beforeAll(async () => {
  if (templateStaleBecause(process.cwd())) await prepareTemplate(process.cwd());
}, 120_000);
afterAll(() => {
  for (const gateway of gateways) gateway.child.kill('SIGKILL');
  removeDir(dataDir);
});

const env = () => ({
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  API_TOKENS: TEST_TOKEN,
  GRPC_PORT: portFor(21),
  HTTP_PORT: portFor(22),
  WEBHOOK_PORT: portFor(23),
  SANDBOX_PORT: portFor(24),
  METRICS_PORT: '0',
  S3_PORT: '0',
  LOG_LEVEL: 'warn',
});

it('a SIGTERM as soon as the health check answers, before the banner, still stops it cleanly: exit 0, database process gone, folder closed', async () => {
  // Not spawnGateway: it waits for the banner, and the signal must come before it.
  const child = spawn(process.execPath, npmStartArgs(process.cwd()), { env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() > deadline) throw new Error(`not healthy within 60 s:\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${portFor(22)}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
  }
  const database = childPids(child.pid!);
  child.kill('SIGTERM');
  expect(await exited).toEqual({ code: 0, signal: null });
  for (const pid of database) expect(isRunning(pid)).toBe(false);
  expect(pgControl(join(dataDir, 'pgdata')).shutDownCleanly).toBe(true);
}, 120_000);

it('waits for the process still holding the folder before opening it, then starts', async () => {
  // A process of the embedded database's name that ends in 3 s stands for one still closing the folder.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 3000)', 'embeddedServer'], { stdio: 'ignore' });
  const holderEnded = new Promise<number>((resolve) => holder.once('exit', () => resolve(Date.now())));
  writeFileSync(join(dataDir, 'pgdata.lock'), `${holder.pid}\n`);
  const gateway = await spawnGateway(env());
  gateways.push(gateway);
  const banner = Date.now();
  expect(banner).toBeGreaterThanOrEqual(await holderEnded);
  expect(readFileSync(join(dataDir, 'pgdata.lock'), 'utf8').trim()).not.toBe(String(holder.pid));
  gateway.child.kill('SIGTERM');
  expect(await gateway.exited).toBe(0);
}, 120_000);

it('takes over a lock whose process has ended', async () => {
  const ended = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => ended.once('exit', resolve));
  writeFileSync(join(dataDir, 'pgdata.lock'), `${ended.pid}\n`);
  const since = Date.now();
  const gateway = await spawnGateway(env());
  gateways.push(gateway);
  expect(Date.now() - since).toBeLessThan(30_000);
  gateway.child.kill('SIGTERM');
  expect(await gateway.exited).toBe(0);
}, 120_000);
