import { expect, it } from '@jest/globals';
import { describePageSizes, overBudget, PAGE_BUDGET_BYTES, pageSizes, type ChunkFacts } from '../../../web/pageSizes.js';

const chunk = (file: string, gzipBytes: number, facts: Partial<ChunkFacts> = {}): [string, ChunkFacts] => [
  file,
  { file, name: file.replace(/\.js$/, ''), gzipBytes, isEntry: false, imports: [], dynamicImports: [], ...facts },
];

// An entry with a shared vendor chunk; a lazy page sharing it and importing a chunk of its own; a chart chunk that page loads lazily.
const build = new Map([
  chunk('index.js', 100_000, { isEntry: true, imports: ['vendor.js'], dynamicImports: ['Dashboard.js', 'Audit.js'] }),
  chunk('vendor.js', 50_000),
  chunk('Dashboard.js', 10_000, { imports: ['vendor.js', 'ui.js'], dynamicImports: ['Charts.js'] }),
  chunk('Audit.js', 5_000, { imports: ['ui.js'] }),
  chunk('ui.js', 20_000),
  chunk('Charts.js', 60_000, { imports: ['ui.js'] }),
]);

it('the first page is the entry with its static imports; each lazy page adds what it imports that is not loaded yet, after the pages that lead to it', () => {
  const sizes = pageSizes(build);
  expect(sizes.first).toEqual({ page: 'index', addedBytes: 150_000, totalBytes: 150_000 });
  expect(sizes.pages).toEqual([
    { page: 'Dashboard', addedBytes: 30_000, totalBytes: 180_000 },
    { page: 'Audit', addedBytes: 25_000, totalBytes: 175_000 },
    // The charts come on top of the dashboard that loads them, whose ui chunk they share.
    { page: 'Charts', addedBytes: 60_000, totalBytes: 240_000 },
  ]);
  expect(overBudget(sizes)).toEqual([]);
  expect(describePageSizes(sizes)).toMatch(
    /^gzipped JavaScript each page loads:\n {2}first page +146\.5 kB .*\n {2}Dashboard +\+29\.3 kB {3}\(175\.8 kB in all\)/,
  );
});

it('a page whose total is over the budget is named, even when the first page is within it', () => {
  const heavy = new Map(build);
  heavy.set('Charts.js', { ...heavy.get('Charts.js')!, gzipBytes: PAGE_BUDGET_BYTES });
  expect(overBudget(pageSizes(heavy)).map((page) => page.page)).toEqual(['Charts']);
});

it('a build without an entry is refused rather than reported as empty', () => {
  expect(() => pageSizes(new Map([chunk('Audit.js', 1, {})]))).toThrow('the build has no entry chunk');
});
