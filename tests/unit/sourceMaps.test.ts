import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { buildServer, npmStartArgs } from '../../scripts/serverBuild.js';

/**
 * Stack traces mapped to the sources for the gateway's own files only (server/sourceMaps.ts, preloaded by the start
 * scripts): node_modules' maps, which `--enable-source-maps` loaded and kept, cost the gateway 12-15 MB idle.
 */
it("npm start's flags map the gateway's own traces (its entry point, what it imports, its threads'), not node_modules'", async () => {
  const root = mkdtempSync(join(tmpdir(), 'source-maps-'));
  try {
    mkdirSync(join(root, 'server/lib'), { recursive: true });
    copyFileSync('server/sourceMaps.ts', join(root, 'server/sourceMaps.ts'));
    copyFileSync('server/lib/qrSymbol.ts', join(root, 'server/lib/qrSymbol.ts'));
    // An entry point with a frame of its own, a module it imports statically, and a worker thread, each on a line
    // of its source that the compiled file moves (the types are stripped).
    writeFileSync(
      join(root, 'server/main.ts'),
      [
        "import { getSourceMapsSupport } from 'node:module';",
        "import { Worker } from 'node:worker_threads';",
        "import { qrSymbol } from './lib/qrSymbol.js';",
        'type Frame = string;',
        "const frame = (error: Error): Frame => error.stack!.split('\\n')[1]!;",
        "console.log(frame(new Error('entry')));",
        'try {',
        "  qrSymbol('x'.repeat(2332));",
        '} catch (error) {',
        '  console.log(frame(error as Error));',
        '}',
        'console.log(JSON.stringify(getSourceMapsSupport()));',
        "new Worker(new URL('./thread.js', import.meta.url));",
      ].join('\n'),
    );
    writeFileSync(join(root, 'server/thread.ts'), "type Line = string;\nconst line: Line = new Error('thread').stack!.split('\\n')[1]!;\nconsole.log(line);\n");
    await buildServer(root);
    const flags = npmStartArgs(process.cwd()).filter((arg) => arg !== 'all');
    const run = spawnSync(process.execPath, flags, { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const [entry, imported, support, thread] = run.stdout.trim().split('\n');
    expect(entry).toContain(`${join(root, 'server/main.ts')}:6:`);
    expect(imported).toContain(`${join(root, 'server/lib/qrSymbol.ts')}:`);
    expect(JSON.parse(support!)).toEqual({ enabled: true, nodeModules: false, generatedCode: false });
    expect(thread).toContain(`${join(root, 'server/thread.ts')}:2:`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
