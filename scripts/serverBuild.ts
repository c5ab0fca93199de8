/**
 * Compiles the gateway (server/, the modules it shares with the back-office in shared/, and the generated code it
 * imports, gen/) to JavaScript in dist/, so that `npm start` runs plain Node instead of compiling TypeScript on every
 * start (tsx). Transpile only, with esbuild, one file in, one file out, with source maps: `npm run typecheck` is where
 * types are checked. Skipped when dist/ is newer than every source; `--force` always builds.
 *
 * Also prepares the embedded database's template in dist/ (a data folder initdb made, which an empty DATA_DIR starts
 * as a copy of): once per PGlite version, since initdb in WebAssembly takes 10-20 s; rebuilds keep it.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmbeddedPostgres, TEMPLATE_FOLDER } from '../server/db/embedded.js';
import { pgliteVersion, SERVER_MARKER, serverStaleBecause, templateStaleBecause } from './buildState.js';

export { serverStaleBecause, templateStaleBecause };

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * What `npm start` runs, less `node`: its flags, the compiled entry point and its component (`all`), read from
 * package.json, so that the bench and the tests' process helper run what users run. `name`: another start script
 * (`start:grpc`, …), which runs one role.
 */
export function npmStartArgs(root: string, name = 'start'): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[name] ?? '';
  const [node, ...args] = script.trim().split(/\s+/);
  if (node !== 'node' || !args.includes('dist/server/main.js')) throw new Error(`npm run ${name} is no longer "node … dist/server/main.js …": ${script}`);
  return args;
}

export async function buildServer(root: string): Promise<void> {
  // Loaded here, so that the tests' staleness check does not load esbuild.
  const { build } = await import('esbuild');
  // Everything but the template, which depends on PGlite's version alone.
  const template = dirname(TEMPLATE_FOLDER);
  for (const entry of existsSync(join(root, 'dist')) ? readdirSync(join(root, 'dist')) : []) {
    if (entry !== template) rmSync(join(root, 'dist', entry), { recursive: true, force: true });
  }
  const entryPoints = ['server', 'shared', 'gen/ts-proto', 'gen/es']
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
    // Node keeps each map it loads for the life of the process: without a copy of the sources, 5-10 MB less resident
    // memory (docs/decisions.md). Stack traces still name the .ts file and line; the sources are in the repository.
    sourcesContent: false,
    logLevel: 'warning',
  });
  writeFileSync(join(root, SERVER_MARKER), `${new Date().toISOString()}\n`);
}

/**
 * Runs initdb once, in PGlite's own process as the gateway runs it (no template: initdb), into dist/'s template folder;
 * written aside and renamed, so a half-made one never counts.
 */
export async function prepareTemplate(root: string): Promise<void> {
  const folder = join(root, 'dist', dirname(TEMPLATE_FOLDER));
  const aside = `${folder}.${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  const db = await startEmbeddedPostgres(join(aside, 'pgdata'), 0, null);
  await db.stop();
  writeFileSync(join(aside, 'pglite-version'), `${pgliteVersion()}\n`);
  if (templateStaleBecause(root)) rmSync(folder, { recursive: true, force: true });
  try {
    renameSync(aside, folder);
  } catch (error) {
    // Another build (a second test worker) put its own in place first: the same thing.
    rmSync(aside, { recursive: true, force: true });
    if (!existsSync(folder)) throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  const reason = process.argv.includes('--force') ? 'asked to (--force)' : serverStaleBecause(root);
  if (reason) {
    const started = Date.now();
    await buildServer(root);
    console.log(`server: compiled to dist/ in ${Date.now() - started} ms (${reason})`);
  }
  const templateReason = templateStaleBecause(root);
  if (templateReason) {
    const started = Date.now();
    await prepareTemplate(root);
    console.log(`server: prepared the embedded database's template in ${Date.now() - started} ms (${templateReason})`);
  }
}
