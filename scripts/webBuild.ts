/**
 * Builds the back-office (web/dist) only when it is missing or older than
 * what it is built from (scripts/buildState.ts), so that `npm start` and
 * `npm test` do not spend seconds rebuilding an app that has not changed.
 * `--force` always builds.
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { webStaleBecause } from './buildState.js';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const reason = process.argv.includes('--force') ? 'asked with --force' : webStaleBecause(process.cwd());
  if (reason) {
    console.log(`building the back-office: ${reason}`);
    execFileSync('npm', ['--prefix', 'web', 'run', 'build', '--silent'], { stdio: 'inherit' });
  }
}
