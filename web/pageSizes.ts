/**
 * What each page of the back-office makes the browser download, in gzipped JavaScript: the first page (the entry
 * and every chunk it imports statically) and, for each lazy page, what opening it adds (its own static imports,
 * and those of the lazy pages that lead to it, less what is already loaded). Pure, so that it is unit-tested;
 * vite.config.ts feeds it the built chunks and prints it with every `npm run build:web`.
 */

export interface ChunkFacts {
  /** The chunk's file name. */
  file: string;
  /** Its name before hashing (the page's module name for a lazy page). */
  name: string;
  gzipBytes: number;
  isEntry: boolean;
  /** File names of the chunks it imports statically, and lazily. */
  imports: string[];
  dynamicImports: string[];
}

export interface PageSize {
  page: string;
  /** What opening it downloads on top of what led to it. */
  addedBytes: number;
  /** Everything loaded once it is shown. */
  totalBytes: number;
}

/** No page, the first or any other once open, may make the browser hold more gzipped JavaScript than this. */
export const PAGE_BUDGET_BYTES = 300 * 1024;

function closure(start: string, chunks: ReadonlyMap<string, ChunkFacts>, into = new Set<string>()): Set<string> {
  const pending = [start];
  while (pending.length) {
    const file = pending.pop()!;
    if (into.has(file)) continue;
    into.add(file);
    pending.push(...(chunks.get(file)?.imports ?? []));
  }
  return into;
}

const bytesOf = (files: Iterable<string>, chunks: ReadonlyMap<string, ChunkFacts>) =>
  [...files].reduce((sum, file) => sum + (chunks.get(file)?.gzipBytes ?? 0), 0);

/** The first page, then every lazy page reached from it (breadth first), each with what it adds and what it totals. */
export function pageSizes(chunks: ReadonlyMap<string, ChunkFacts>): { first: PageSize; pages: PageSize[] } {
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  const loadedWith = new Map<string, Set<string>>([[entry.file, closure(entry.file, chunks)]]);
  const firstBytes = bytesOf(loadedWith.get(entry.file)!, chunks);
  const first: PageSize = { page: entry.name, addedBytes: firstBytes, totalBytes: firstBytes };
  const pages: PageSize[] = [];
  const queue = [entry.file];
  while (queue.length) {
    const from = queue.shift()!;
    const before = loadedWith.get(from)!;
    for (const file of chunks.get(from)?.dynamicImports ?? []) {
      if (loadedWith.has(file)) continue;
      const after = closure(file, chunks, new Set(before));
      loadedWith.set(file, after);
      const totalBytes = bytesOf(after, chunks);
      pages.push({ page: chunks.get(file)?.name ?? file, addedBytes: totalBytes - bytesOf(before, chunks), totalBytes });
      queue.push(file);
    }
  }
  return { first, pages };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** The pages whose JavaScript is over the budget, with what they total. */
export const overBudget = ({ first, pages }: { first: PageSize; pages: PageSize[] }): PageSize[] =>
  [first, ...pages].filter((page) => page.totalBytes > PAGE_BUDGET_BYTES);

/** The table `npm run build:web` prints. */
export function describePageSizes({ first, pages }: { first: PageSize; pages: PageSize[] }): string {
  const width = Math.max(...[first, ...pages].map((page) => page.page.length), 'first page'.length) + 2;
  return [
    'gzipped JavaScript each page loads:',
    `  ${'first page'.padEnd(width)}${kB(first.totalBytes).padStart(10)}   (sign-in, and the shell once signed in; budget of any page in all: ${kB(PAGE_BUDGET_BYTES)})`,
    ...pages.map((page) => `  ${page.page.padEnd(width)}${`+${kB(page.addedBytes)}`.padStart(10)}   (${kB(page.totalBytes)} in all)`),
  ].join('\n');
}
