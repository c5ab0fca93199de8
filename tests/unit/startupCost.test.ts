import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * `npm start` on the embedded database: PGlite's process starts while the gateway's modules load (about 1 s of CPU on
 * the main thread), not after them. Checked at the moment main.ts forks it: a preload replaces `fork` with a probe that
 * reports whether grpc-js (CommonJS, loaded only with the gateway's transports) is loaded yet, and ends the process there.
 */
it('main forks the embedded database before it loads the gateway', () => {
  const probe = [
    "import { createRequire, syncBuiltinESMExports } from 'node:module';",
    "const require = createRequire(process.cwd() + '/');",
    "require('node:child_process').fork = () => {",
    '  const gatewayLoaded = Object.keys(require.cache).some((path) => /@grpc[\\\\/]grpc-js[\\\\/]/.test(path));',
    '  console.log(JSON.stringify({ forked: true, gatewayLoaded }));',
    '  process.exit(0);',
    '};',
    'syncBuiltinESMExports();',
  ].join('\n');
  const dataDir = mkdtempSync(join(tmpdir(), 'startup-order-'));
  try {
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(probe)}`, 'server/main.ts', 'all'],
      {
        cwd: process.cwd(),
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      },
    );
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual({ forked: true, gatewayLoaded: false });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
