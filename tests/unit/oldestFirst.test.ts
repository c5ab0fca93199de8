import { expect, it } from '@jest/globals';
import { OldestFirst } from '../../server/lib/oldestFirst.js';

it('takes ids in the order they were pushed, across the cuts of its array', () => {
  const queue = new OldestFirst();
  for (let i = 0; i < 10; i++) queue.push(`id-${i}`);
  const taken = [queue.shift(), queue.shift(), queue.shift(), queue.shift(), queue.shift(), queue.shift()];
  expect(taken).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4', 'id-5']);
  queue.push('id-10');
  expect([queue.size, queue.peek()]).toEqual([5, 'id-6']);
  const rest: Array<string | undefined> = [];
  while (queue.size > 0) rest.push(queue.shift());
  expect(rest).toEqual(['id-6', 'id-7', 'id-8', 'id-9', 'id-10']);
  expect([queue.size, queue.peek(), queue.shift(), queue.size]).toEqual([0, undefined, undefined, 0]);
});
