import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const MAIN = 'dist/server/main.js';
/** Each start script's Node flags: what stands between `node` and the gateway's entry point. */
const startFlags = Object.entries(scripts)
  .filter(([name]) => name === 'start' || name.startsWith('start:'))
  .map(([name, command]) => {
    const words = command.split(/\s+/);
    return { name, flags: words.slice(words.indexOf('node') + 1, words.indexOf(MAIN)) };
  });

/**
 * The gateway's V8 settings are memory decisions (docs/decisions.md): a small young generation, a slowly growing old
 * one, and hot functions optimised on the main thread: with the optimising compilers' jobs on helper threads (V8's
 * concurrent recompilation) the embedded gateway grew 60–70 MB under the memory bench's load instead of about 35. Every
 * role starts with the same flags, and this Node accepts them (a misspelt flag stops `node`).
 */
it('every start script runs the gateway with the same V8 flags, hot functions optimised on the main thread', () => {
  expect(startFlags.map(({ name }) => name)).toEqual(expect.arrayContaining(['start', 'start:grpc', 'start:connect', 'start:webhooks', 'start:sandbox']));
  const [first] = startFlags;
  for (const { flags } of startFlags) expect(flags).toEqual(first!.flags);
  expect(first!.flags).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--heap-growing-percent=25', '--no-concurrent-recompilation']));
  expect(execFileSync(process.execPath, [...first!.flags, '-e', 'console.log("accepted")'], { encoding: 'utf8' }).trim()).toBe('accepted');
});
