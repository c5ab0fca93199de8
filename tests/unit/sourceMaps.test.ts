import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { buildServer } from '../../scripts/serverBuild.js';

/**
 * Stack traces mapped to the sources for the gateway's own files only (server/lib/sourceMaps.ts): node_modules' maps,
 * which `--enable-source-maps` loaded and kept, cost the gateway 12-15 MB idle. A module loaded before the maps are
 * turned on has none, and an ES module's static imports load before its body runs, so an entry point imports nothing
 * of ours statically but that switch.
 */

/** The modules an entry point imports statically (type-only imports, which compile to nothing, left out). */
function staticImports(path: string): string[] {
  const source = readFileSync(path, 'utf8');
  return Array.from(source.matchAll(/^import (?!type )[^;]*? from '([^']+)';$/gms), (match) => match[1]!);
}

it.each(['server/main.ts', 'server/sandbox/threadMain.ts'])('%s turns source maps on before it loads any module of ours', (entry) => {
  const ours = staticImports(entry).filter((specifier) => !specifier.startsWith('node:'));
  expect(ours).toHaveLength(1);
  expect(ours[0]).toMatch(/^(\.|\.\.)\/lib\/sourceMaps\.js$/);
  const source = readFileSync(entry, 'utf8');
  expect(source.indexOf('mapOwnStackTraces();')).toBeGreaterThan(0);
  expect(source.indexOf('mapOwnStackTraces();')).toBeLessThan(source.indexOf("import('"));
});

it("compiled, maps the gateway's own stack traces to their sources and leaves node_modules' as they are", async () => {
  const root = mkdtempSync(join(tmpdir(), 'source-maps-'));
  try {
    mkdirSync(join(root, 'server/lib'), { recursive: true });
    for (const file of ['sourceMaps.ts', 'qrSymbol.ts']) copyFileSync(join('server/lib', file), join(root, 'server/lib', file));
    writeFileSync(
      join(root, 'server/main.ts'),
      [
        "import { getSourceMapsSupport } from 'node:module';",
        "import { mapOwnStackTraces } from './lib/sourceMaps.js';",
        'mapOwnStackTraces();',
        "const { qrSymbol } = await import('./lib/qrSymbol.js');",
        'try {',
        "  qrSymbol('x'.repeat(2332));",
        '} catch (error) {',
        "  console.log((error as Error).stack!.split('\\n')[1]);",
        '}',
        'console.log(JSON.stringify(getSourceMapsSupport()));',
      ].join('\n'),
    );
    await buildServer(root);
    const run = spawnSync(process.execPath, [join(root, 'dist/server/main.js')], { encoding: 'utf8' });
    const [frame, support] = run.stdout.trim().split('\n');
    expect(frame).toContain(`${join(root, 'server/lib/qrSymbol.ts')}:`);
    expect(JSON.parse(support!)).toEqual({ enabled: true, nodeModules: false, generatedCode: false });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
