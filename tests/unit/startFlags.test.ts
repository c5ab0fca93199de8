import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';
import { npmStartArgs } from '../../scripts/serverBuild.js';

const scripts = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts);
/** A start script's Node flags: what stands between `node` and the gateway's entry point. */
const flagsOf = (name: string) => {
  const args = npmStartArgs(process.cwd(), name);
  return args.slice(0, args.indexOf('dist/server/main.js'));
};

/**
 * The gateway's V8 settings are memory and latency decisions (docs/decisions.md): a small young generation, a slowly
 * growing old one, hot functions optimised on the main thread (with the optimising compilers' jobs on helper threads,
 * V8's concurrent recompilation, the embedded gateway grew 60–70 MB under the memory bench's load instead of about 35),
 * and the old generation marked by one helper thread (with V8's default of up to seven, a full collection's marking took
 * both cores from the event loop and PostgreSQL: the p99 at 200 charges a second about doubled). Every role starts
 * with the same flags, and this Node accepts them (a misspelt flag stops `node`).
 */
it('every start script runs the gateway with the same V8 flags: hot functions optimised on the main thread, one marking helper', () => {
  const roles = scripts.filter((name) => name.startsWith('start:'));
  expect(roles).toEqual(expect.arrayContaining(['start:grpc', 'start:connect', 'start:webhooks', 'start:sandbox']));
  const flags = flagsOf('start');
  for (const role of roles) expect(flagsOf(role)).toEqual(flags);
  expect(flags).toEqual(
    expect.arrayContaining(['--max-semi-space-size=8', '--heap-growing-percent=25', '--no-concurrent-recompilation', '--concurrent-marking-max-worker-num=1']),
  );
  // It would map node_modules' traces too, and keep their maps: a preload maps the gateway's own (server/sourceMaps.ts,
  // compiled beside main.js; tests/unit/sourceMaps.test.ts runs it).
  expect(flags).not.toContain('--enable-source-maps');
  expect(flags.slice(0, 2)).toEqual(['--import', './dist/server/sourceMaps.js']);
  expect(existsSync('server/sourceMaps.ts')).toBe(true);
  const v8Flags = flags.slice(2);
  expect(execFileSync(process.execPath, [...v8Flags, '-e', 'console.log("accepted")'], { encoding: 'utf8' }).trim()).toBe('accepted');
});
