import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { buildsNeeded, pgliteVersion, SERVER_MARKER, TEMPLATE_DIR, TEMPLATE_VERSION } from '../../../scripts/buildState.js';
import { TEMPLATE_FOLDER } from '../../../server/db/embedded.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Writes a file dated `secondsAgo`, its new folders dated with it. */
function touch(path: string, secondsAgo: number, content = 'x'): void {
  const at = new Date(Date.now() - secondsAgo * 1000);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  for (let target = path; target.startsWith(root!) && target !== root; target = dirname(target)) utimesSync(target, at, at);
}

it("names the template's folder as the embedded database looks for it", () => {
  expect(TEMPLATE_DIR).toBe(dirname(TEMPLATE_FOLDER));
});

it('asks for no build when both are newer than their sources, and for the stale one only', () => {
  root = mkdtempSync(join(tmpdir(), 'build-state-'));
  touch(join(root, 'web/src/App.tsx'), 60);
  touch(join(root, 'server/main.ts'), 60);
  expect(buildsNeeded(root, ['web', 'server'])).toEqual(['scripts/webBuild.ts', 'scripts/serverBuild.ts']);
  touch(join(root, 'web/dist/index.html'), 30);
  touch(join(root, SERVER_MARKER), 30);
  // The server's build also needs the embedded database's template, made by this PGlite.
  expect(buildsNeeded(root, ['web', 'server'])).toEqual(['scripts/serverBuild.ts']);
  touch(join(root, 'dist', TEMPLATE_VERSION), 30, `${pgliteVersion()}\n`);
  expect(buildsNeeded(root, ['web', 'server'])).toEqual([]);
  touch(join(root, 'server/main.ts'), 1);
  expect(buildsNeeded(root, ['web', 'server'])).toEqual(['scripts/serverBuild.ts']);
  expect(buildsNeeded(root, ['web'])).toEqual([]);
});

it('runs under plain Node, without tsx: the prestart step imports nothing but Node', () => {
  // No build asked for: it checks nothing and starts nothing, and fails only if Node cannot run the file.
  expect(execFileSync(process.execPath, ['scripts/buildState.ts'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })).toBe('');
});
