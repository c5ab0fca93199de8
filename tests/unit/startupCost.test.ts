import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { buildServer, serverStaleBecause } from '../../scripts/serverBuild.js';

/**
 * Start-to-healthy (issue "Fast and observable": ≤ 2 s on PostgreSQL) is mostly the loading of modules. The object
 * store's packages (the embedded s3rver and the AWS SDK) take 0.2-0.4 s of it, and nothing needs them before the
 * back-office answers /healthz: they are loaded when the store starts and when the first upload link is signed.
 * Checked in a process of its own, whose module cache holds only what loading the gateway loaded (both packages
 * are CommonJS, so they land in it).
 */
it('loading the gateway loads neither the embedded object store nor the AWS SDK', () => {
  const script = [
    "import { createRequire } from 'node:module';",
    "await import('./server/app.ts');",
    'const loaded = Object.keys(createRequire(import.meta.url).cache);',
    'console.log(JSON.stringify({ total: loaded.length, heavy: loaded.filter((path) => /@aws-sdk[\\\\/]|@20minutes[\\\\/]s3rver/.test(path)) }));',
  ].join('\n');
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
  const { total, heavy } = JSON.parse(output.trim().split('\n').at(-1)!) as { total: number; heavy: string[] };
  // The gateway's own CommonJS dependencies (grpc-js, pg, …) are there: the check looks at the right cache.
  expect(total).toBeGreaterThan(50);
  expect(heavy).toEqual([]);
});

/**
 * Node's compile cache: the compiled entry point turns it on before the gateway's modules load, in dist/.compile-cache,
 * so that a restart reads V8's code for them instead of compiling them again (about 0.14 s of a 0.94 s load here).
 * The process is asked for a component that does not exist: it loads everything, prints its usage and exits.
 */
it('the compiled entry point keeps the code it compiled in dist/.compile-cache', async () => {
  const root = process.cwd();
  // npm test builds dist/ first; a run of this file alone may find it stale.
  if (serverStaleBecause(root)) await buildServer(root);
  const cache = join(root, 'dist/.compile-cache');
  rmSync(cache, { recursive: true, force: true });
  const run = spawnSync(process.execPath, [join(root, 'dist/server/main.js'), 'no-such-component'], { cwd: root, encoding: 'utf8' });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/^usage: /);
  const entries = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  // One file per compiled module, hundreds of them.
  expect(entries.length).toBeGreaterThan(100);
});
