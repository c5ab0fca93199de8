import { execFileSync } from 'node:child_process';
import { expect, it } from '@jest/globals';

/**
 * Start-to-healthy (issue "Fast and observable": ≤ 2 s on PostgreSQL) is mostly the loading of modules. The object
 * store's packages (the embedded s3rver and the AWS SDK) took 0.18 s of it (1.11 against 0.93 s to import the gateway,
 * measured on 2026-11-28), and nothing needs them before the back-office answers /healthz: they are loaded when the
 * store starts and when the first upload link is signed.
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
