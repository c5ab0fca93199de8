/**
 * Builds the back-office (web/dist) only when it is missing or older than
 * what it is built from, so that `npm start` and `npm test` do not spend
 * seconds rebuilding an app that has not changed. `--force` always builds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What web/dist is built from, relative to the project's root. */
export const WEB_INPUTS = [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/precompress.ts',
  'web/package.json',
  'web/package-lock.json',
  'gen/es',
  'shared',
];

/** The newest modification time under `path` (0 when it does not exist); shared with scripts/serverBuild.ts. */
export function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // Folders count too: a deleted file changes only its folder's time.
  return readdirSync(path, { recursive: true, withFileTypes: true }).reduce(
    (newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs),
    stat.mtimeMs,
  );
}

/** Why the build is needed, or undefined when web/dist is newer than every input. */
export function staleBecause(root: string): string | undefined {
  const built = join(root, 'web/dist/index.html');
  if (!existsSync(built)) return 'web/dist is not built';
  const builtAt = statSync(built).mtimeMs;
  const changed = WEB_INPUTS.find((input) => newestChange(join(root, input)) > builtAt);
  return changed && `${changed} changed since the last build`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const reason = process.argv.includes('--force') ? 'asked with --force' : staleBecause(process.cwd());
  if (reason) {
    console.log(`building the back-office: ${reason}`);
    execFileSync('npm', ['--prefix', 'web', 'run', 'build', '--silent'], { stdio: 'inherit' });
  }
}
