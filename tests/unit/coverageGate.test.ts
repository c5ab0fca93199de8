import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';

/**
 * Issue "the codebase guards its design" §1: a coverage floor that can only rise. CI runs `npm run test:coverage`
 * before the README's test command, and jest fails it below the floors of jest.config.js.
 */
it('CI measures the unit suites against floors set in the jest config', async () => {
  const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
  const coverageStep = ci.indexOf('npm run test:coverage');
  expect(coverageStep).toBeGreaterThan(-1);
  expect(coverageStep).toBeLessThan(ci.lastIndexOf('npm test'));
  const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts['test:coverage']).toMatch(/jest\.js tests\/unit --coverage\b/);
  const { default: config } = (await import(new URL('../../jest.config.js', import.meta.url).href)) as {
    default: { coverageThreshold?: { global?: Record<string, number> }; collectCoverageFrom?: string[]; coverageProvider?: string };
  };
  const { coverageThreshold, collectCoverageFrom, coverageProvider } = config;
  expect(coverageProvider).toBe('v8');
  expect(collectCoverageFrom).toEqual(['server/**/*.ts', 'shared/**/*.ts']);
  // Today's floors; a change may raise them, never lower them below these.
  const floors = coverageThreshold?.global ?? {};
  expect(floors.lines).toBeGreaterThanOrEqual(57);
  expect(floors.statements).toBeGreaterThanOrEqual(57);
  expect(floors.branches).toBeGreaterThanOrEqual(84);
  expect(floors.functions).toBeGreaterThanOrEqual(30);
});
