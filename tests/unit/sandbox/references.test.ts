import { expect, it } from '@jest/globals';
import { ByReference } from '../../../server/sandbox/references.js';

it("finds a merchant's records by key, oldest first, and puts a record's remainder in its place, never a stranger's", () => {
  const index = new ByReference<{ apiKey: string; idempotencyKey?: string; n: number }>();
  const first = { apiKey: 'a', idempotencyKey: 'k', n: 1 };
  const second = { apiKey: 'a', idempotencyKey: 'k', n: 2 };
  const alone = { apiKey: 'a', idempotencyKey: 'j', n: 3 };
  for (const record of [first, second, alone, { apiKey: 'b', idempotencyKey: 'k', n: 4 }, { apiKey: 'a', n: 5 }]) index.add(record);
  expect(index.find('a', 'k').map(({ n }) => n)).toEqual([1, 2]);
  expect(index.find('b', 'k').map(({ n }) => n)).toEqual([4]);
  expect(index.find('a', 'none')).toEqual([]);

  index.replace(second, { ...second, n: 20 });
  index.replace(alone, { ...alone, n: 30 });
  index.replace({ apiKey: 'a', idempotencyKey: 'k', n: 99 }, { apiKey: 'a', idempotencyKey: 'k', n: 100 });
  expect(index.find('a', 'k').map(({ n }) => n)).toEqual([1, 20]);
  // Nothing was stored for the stranger, not even beside the array's items.
  expect(Object.keys(index.find('a', 'k'))).toEqual(['0', '1']);
  expect(index.find('a', 'j').map(({ n }) => n)).toEqual([30]);
});
