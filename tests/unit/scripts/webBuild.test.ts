import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { webStaleBecause as staleBecause } from '../../../scripts/buildState.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes a file dated `secondsAgo`, its new folders dated with it. */
function touch(path: string, secondsAgo: number): void {
  const at = new Date(Date.now() - secondsAgo * 1000);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'x');
  for (let target = path; target.startsWith(root) && target !== root; target = join(target, '..')) utimesSync(target, at, at);
}

it('builds when web/dist is missing or older than a source, and not when it is newer than all of them', () => {
  root = mkdtempSync(join(tmpdir(), 'web-build-'));
  touch(join(root, 'web/src/App.tsx'), 60);
  touch(join(root, 'gen/es/gateway/v1/types_pb.ts'), 60);
  expect(staleBecause(root)).toBe('web/dist is not built');

  touch(join(root, 'web/dist/index.html'), 30);
  expect(staleBecause(root)).toBeUndefined();

  touch(join(root, 'gen/es/gateway/v1/access_service_pb.ts'), 10);
  expect(staleBecause(root)).toBe('gen/es changed since the last build');

  touch(join(root, 'web/dist/index.html'), 5);
  rmSync(join(root, 'web/src/App.tsx'));
  expect(staleBecause(root)).toBe('web/src changed since the last build');
});
