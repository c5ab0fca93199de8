import { expect, it } from '@jest/globals';
import { GroupedWrites } from '../../../server/lib/groupedWrites.js';

/** A write the test finishes by hand, recording what each write carried. */
function manualWrites() {
  const writes: { rows: string[]; finish: (error?: Error) => void }[] = [];
  const write = (rows: string[]) => new Promise<void>((resolve, reject) => writes.push({ rows, finish: (error) => (error ? reject(error) : resolve()) }));
  return { writes, write };
}
const settled = () => new Promise((resolve) => setImmediate(resolve));

it('a row alone is written at once; rows arriving while a write is under way go together in the next one', async () => {
  const { writes, write } = manualWrites();
  const grouped = new GroupedWrites(write, { concurrency: 1 });
  const answered: string[] = [];
  const add = (row: string) => grouped.add(row).then(() => answered.push(row));

  const first = add('a');
  await settled();
  expect(writes.map((w) => w.rows)).toEqual([['a']]);
  const rest = ['b', 'c', 'd'].map(add);
  await settled();
  expect(writes).toHaveLength(1);

  // Nobody is answered before the write carrying their row has finished.
  expect(answered).toEqual([]);
  writes[0]!.finish();
  await first;
  await settled();
  expect(answered).toEqual(['a']);
  expect(writes.map((w) => w.rows)).toEqual([['a'], ['b', 'c', 'd']]);
  writes[1]!.finish();
  await Promise.all(rest);
  expect(answered).toEqual(['a', 'b', 'c', 'd']);
});

it('a write carries at most maxRows, and up to `concurrency` writes run at once', async () => {
  const { writes, write } = manualWrites();
  const grouped = new GroupedWrites(write, { concurrency: 2, maxRows: 2 });
  const all = ['a', 'b', 'c', 'd', 'e', 'f'].map((row) => grouped.add(row));
  await settled();
  expect(writes.map((w) => w.rows)).toEqual([['a'], ['b']]);
  writes[0]!.finish();
  await settled();
  expect(writes.map((w) => w.rows)).toEqual([['a'], ['b'], ['c', 'd']]);
  writes[1]!.finish();
  await settled();
  expect(writes.map((w) => w.rows)).toEqual([['a'], ['b'], ['c', 'd'], ['e', 'f']]);
  writes[2]!.finish();
  writes[3]!.finish();
  await Promise.all(all);
});

it('a failed write of several rows is tried row by row: only the bad row fails, for its own caller', async () => {
  const written: string[][] = [];
  let blocked: () => void = () => {};
  const gate = new Promise<void>((resolve) => (blocked = resolve));
  const grouped = new GroupedWrites(
    async (rows: string[]) => {
      written.push(rows);
      if (rows[0] === 'first') await gate;
      if (rows.includes('bad')) throw new Error('value too long');
    },
    { concurrency: 1 },
  );
  const first = grouped.add('first');
  const results = Promise.allSettled(['ok-1', 'bad', 'ok-2'].map((row) => grouped.add(row)));
  blocked();
  await first;
  expect((await results).map((result) => (result.status === 'fulfilled' ? 'stored' : (result.reason as Error).message))).toEqual([
    'stored',
    'value too long',
    'stored',
  ]);
  expect(written).toEqual([['first'], ['ok-1', 'bad', 'ok-2'], ['ok-1'], ['bad'], ['ok-2']]);
});

it('a row written alone that fails rejects its caller with the error', async () => {
  const grouped = new GroupedWrites(async () => {
    throw new Error('connection refused');
  });
  await expect(grouped.add('x')).rejects.toThrow('connection refused');
});
