/**
 * Compiles the gateway (server/ and the generated code it imports, gen/) to JavaScript in dist/, so that `npm start`
 * runs plain Node instead of compiling TypeScript on every start (tsx). Transpile only, with esbuild, one file in,
 * one file out, with source maps: `npm run typecheck` is where types are checked. Skipped when dist/ is newer than
 * every source; `--force` always builds.
 */
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newestChange } from './webBuild.js';

/** What dist/ is built from, relative to the project's root. */
export const SERVER_INPUTS = ['server', 'gen/ts-proto', 'gen/es', 'package.json'];
const MARKER = 'dist/.built';

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Why the build is needed, or undefined when dist/ is newer than every input. */
export function serverStaleBecause(root: string): string | undefined {
  const marker = join(root, MARKER);
  if (!existsSync(marker)) return 'dist/ is not built';
  const newest = Math.max(...SERVER_INPUTS.map((input) => newestChange(join(root, input))));
  return newest > statSync(marker).mtimeMs ? 'a source changed since dist/ was built' : undefined;
}

export async function buildServer(root: string): Promise<void> {
  // Loaded here, so that the tests' staleness check does not load esbuild.
  const { build } = await import('esbuild');
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const entryPoints = ['server', 'gen/ts-proto', 'gen/es']
    .flatMap((input) => filesUnder(join(root, input)))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => relative(root, path));
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: 'dist',
    outbase: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    logLevel: 'warning',
  });
  writeFileSync(join(root, MARKER), `${new Date().toISOString()}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  const reason = process.argv.includes('--force') ? 'asked to (--force)' : serverStaleBecause(root);
  if (reason) {
    const started = Date.now();
    await buildServer(root);
    console.log(`server: compiled to dist/ in ${Date.now() - started} ms (${reason})`);
  }
}
