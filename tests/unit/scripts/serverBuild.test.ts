import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { buildServer, prepareTemplate, serverStaleBecause, templateStaleBecause } from '../../../scripts/serverBuild.js';
import { pgControl } from '../../support/pgControl.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes a file dated `secondsAgo`, its new folders dated with it. */
function touch(path: string, secondsAgo: number, content = 'export {};\n'): void {
  const at = new Date(Date.now() - secondsAgo * 1000);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  for (let target = path; target.startsWith(root) && target !== root; target = join(target, '..')) utimesSync(target, at, at);
}

it('compiles server/ and gen/ to runnable JavaScript in dist/, and again only when a source changed or went away', async () => {
  root = mkdtempSync(join(tmpdir(), 'server-build-'));
  touch(join(root, 'gen/ts-proto/gateway/v1/types.ts'), 60, 'export const STATUS: string = "APPROVED";\n');
  touch(
    join(root, 'server/main.ts'),
    60,
    "import { STATUS } from '../gen/ts-proto/gateway/v1/types.js';\nconst amount: number = 1990;\nconsole.log(`${STATUS} ${amount}`);\n",
  );
  touch(join(root, 'server/lib/old.ts'), 60);
  expect(serverStaleBecause(root)).toBe('dist/ is not built');

  await buildServer(root);
  expect(serverStaleBecause(root)).toBeUndefined();
  expect(execFileSync(process.execPath, [join(root, 'dist/server/main.js')], { encoding: 'utf8' })).toBe('APPROVED 1990\n');
  expect(existsSync(join(root, 'dist/server/lib/old.js'))).toBe(true);

  touch(join(root, 'gen/ts-proto/gateway/v1/more.ts'), -5);
  expect(serverStaleBecause(root)).toBe('a source changed since dist/ was built');
  await buildServer(root);
  rmSync(join(root, 'server/lib/old.ts'));
  utimesSync(join(root, 'server/lib'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));
  expect(serverStaleBecause(root)).toBe('a source changed since dist/ was built');
  // Rebuilt from scratch: what no longer has a source is gone; the embedded database's template stays.
  touch(join(root, 'dist/embedded-template/pgdata/PG_VERSION'), 60, '17\n');
  await buildServer(root);
  expect(existsSync(join(root, 'dist/server/lib/old.js'))).toBe(false);
  expect(existsSync(join(root, 'dist/embedded-template/pgdata/PG_VERSION'))).toBe(true);
});

it("maps the compiled server's stack traces to the sources without a copy of them in the maps (memory)", async () => {
  root = mkdtempSync(join(tmpdir(), 'server-build-'));
  touch(join(root, 'server/main.ts'), 60, 'const amount: number = 1990;\nthrow new Error(`bad amount ${amount}`);\n');
  await buildServer(root);
  const map = JSON.parse(readFileSync(join(root, 'dist/server/main.js.map'), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
  expect(map.sources).toEqual(['../../server/main.ts']);
  // Node keeps every source map it loads: a copy of each source inside would be held for the life of the process.
  expect(map.sourcesContent).toBeUndefined();
  const run = spawnSync(process.execPath, ['--enable-source-maps', join(root, 'dist/server/main.js')], { encoding: 'utf8' });
  expect(run.stderr).toContain(`${join(root, 'server/main.ts')}:2:7`);
});

it("prepares the embedded database's template once per PGlite version: a data folder initdb made, shut down cleanly", async () => {
  root = mkdtempSync(join(tmpdir(), 'server-build-'));
  expect(templateStaleBecause(root)).toBe('there is none');
  await prepareTemplate(root);
  expect(templateStaleBecause(root)).toBeUndefined();
  expect(readFileSync(join(root, 'dist/embedded-template/pgdata/PG_VERSION'), 'utf8')).toMatch(/^\d+\n$/);
  expect(pgControl(join(root, 'dist/embedded-template/pgdata')).shutDownCleanly).toBe(true);

  writeFileSync(join(root, 'dist/embedded-template/pglite-version'), '0.1.0\n');
  expect(templateStaleBecause(root)).toBe('it was made by PGlite 0.1.0');
}, 120_000);
