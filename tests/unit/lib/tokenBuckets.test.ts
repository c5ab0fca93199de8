import { expect, it } from '@jest/globals';
import { TokenBuckets } from '../../../server/lib/tokenBuckets.js';

it('allows a burst, then refills at the rate, per key, and says when to come back', () => {
  let now = 0;
  const buckets = new TokenBuckets({ perSecond: 2, burst: 3 }, () => now);
  expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([0, 0, 0]);
  expect(buckets.take('a')).toBe(1);
  expect(buckets.take('b')).toBe(0);
  now = 500;
  expect(buckets.take('a')).toBe(0);
  expect(buckets.take('a')).toBe(1);
});

it('keeps at most maxKeys buckets: the oldest is forgotten and starts again full', () => {
  const buckets = new TokenBuckets({ perSecond: 0.001, burst: 1, maxKeys: 2 }, () => 0);
  expect(buckets.take('a')).toBe(0);
  expect(buckets.take('a')).toBeGreaterThan(0);
  buckets.take('b');
  buckets.take('c');
  expect(buckets.take('a')).toBe(0);
});

it('says whether a key has a token without taking it', () => {
  let now = 0;
  const buckets = new TokenBuckets({ perSecond: 1, burst: 1 }, () => now);
  expect(buckets.peek('a')).toBe(0);
  expect(buckets.peek('a')).toBe(0);
  expect(buckets.take('a')).toBe(0);
  expect(buckets.peek('a')).toBe(1);
  now = 1000;
  expect(buckets.peek('a')).toBe(0);
});
