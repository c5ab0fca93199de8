/**
 * Whether the builds `npm start` and `npm test` run on are up to date, checked by file times alone, and the prestart
 * step itself: `node scripts/buildState.ts web server` (plain Node, which strips the types; no tsx, no esbuild) answers
 * at once when nothing changed, and only otherwise starts the build that is stale (scripts/webBuild.ts,
 * scripts/serverBuild.ts, under tsx). Before, the prestart ran both builds' scripts under tsx every time: 2.5–4.5 s
 * before the gateway's own start, with nothing to do.
 *
 * This file imports Node's modules only, so that plain Node can run it: the builds import their checks from here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** What dist/ is built from, relative to the project's root. */
export const SERVER_INPUTS = ['server', 'shared', 'gen/ts-proto', 'gen/es', 'package.json'];
/** Written by the server's build when it is done; its time is the build's. */
export const SERVER_MARKER = 'dist/.built';
/** The embedded database's template folder in dist/ (server/db/embedded.ts's TEMPLATE_FOLDER is `<this>/pgdata`). */
export const TEMPLATE_DIR = 'embedded-template';
/** Where the template's PGlite version is written, beside its data folder. */
export const TEMPLATE_VERSION = join(TEMPLATE_DIR, 'pglite-version');

/** The newest modification time under `path` (0 when it does not exist). */
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

/** Why the back-office must be built, or undefined when web/dist is newer than every input. */
export function webStaleBecause(root: string): string | undefined {
  const built = join(root, 'web/dist/index.html');
  if (!existsSync(built)) return 'web/dist is not built';
  const builtAt = statSync(built).mtimeMs;
  const changed = WEB_INPUTS.find((input) => newestChange(join(root, input)) > builtAt);
  return changed && `${changed} changed since the last build`;
}

/** Why the server must be compiled, or undefined when dist/ is newer than every input. */
export function serverStaleBecause(root: string): string | undefined {
  const marker = join(root, SERVER_MARKER);
  if (!existsSync(marker)) return 'dist/ is not built';
  const newest = Math.max(...SERVER_INPUTS.map((input) => newestChange(join(root, input))));
  return newest > statSync(marker).mtimeMs ? 'a source changed since dist/ was built' : undefined;
}

/** The installed PGlite's version (this project's, whatever root is checked). */
export function pgliteVersion(): string {
  const manifest = new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Why the embedded database's template must be prepared, or undefined when dist/ has one from this PGlite. */
export function templateStaleBecause(root: string): string | undefined {
  const version = join(root, 'dist', TEMPLATE_VERSION);
  if (!existsSync(version)) return 'there is none';
  const made = readFileSync(version, 'utf8').trim();
  return made === pgliteVersion() ? undefined : `it was made by PGlite ${made}`;
}

/** The build scripts a prestart must run (`web`, `server`), none when everything asked for is up to date. */
export function buildsNeeded(root: string, asked: readonly string[]): string[] {
  const needed: string[] = [];
  if (asked.includes('web') && webStaleBecause(root)) needed.push('scripts/webBuild.ts');
  if (asked.includes('server') && (serverStaleBecause(root) || templateStaleBecause(root))) needed.push('scripts/serverBuild.ts');
  return needed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  for (const script of buildsNeeded(root, process.argv.slice(2))) {
    const tsx = join(root, 'node_modules/.bin/tsx');
    const { status, error } = spawnSync(tsx, [script], { cwd: root, stdio: 'inherit' });
    if (error) throw error;
    if (status !== 0) process.exit(status ?? 1);
  }
}
