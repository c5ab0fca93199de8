import { expect, it } from '@jest/globals';
import { addCounts, countCall, emptyCounts, percentileMs, LATENCY_BUCKETS_MS } from '../../server/gateway/healthCounts.js';

const counted = (calls: [ms: number, times: number][]) => {
  const counts = emptyCounts();
  for (const [ms, times] of calls) for (let i = 0; i < times; i++) countCall(counts, 'APPROVED', ms);
  return counts;
};

it('reads p95 of two processes from their merged histograms, not from their own p95s', () => {
  // One process: 90 calls of 20 ms and 10 of 300 ms (its p95 in the 500 ms bucket); the other: 100 calls of 40 ms.
  const first = counted([
    [20, 90],
    [300, 10],
  ]);
  const second = counted([[40, 100]]);
  expect(percentileMs(first.latencyCounts, 0.95)).toBe(500);
  expect(percentileMs(second.latencyCounts, 0.95)).toBe(50);
  const merged = addCounts(addCounts(emptyCounts(), first), second);
  // Of the 200 calls, the 190th is the last of the 40 ms ones: p95 in the 50 ms bucket (the larger p95 would say 500).
  expect(merged.calls).toBe(200);
  expect(percentileMs(merged.latencyCounts, 0.95)).toBe(50);
  expect(percentileMs(merged.latencyCounts, 0.5)).toBe(50);
  expect(merged.totalMs).toBe(90 * 20 + 10 * 300 + 100 * 40);
});

it('merges a histogram counted with fewer bounds (an older process) counter by counter, and answers 0 for no calls', () => {
  const older = { ...emptyCounts(), calls: 3, answered: 3, notRejected: 3, totalMs: 30, latencyCounts: [3] };
  const merged = addCounts(counted([[30_000_000, 1]]), older);
  expect(merged.latencyCounts).toEqual([3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  expect(merged.latencyCounts).toHaveLength(LATENCY_BUCKETS_MS.length);
  expect(percentileMs(merged.latencyCounts, 0.5)).toBe(10);
  expect(percentileMs(merged.latencyCounts, 0.95)).toBe(30_000);
  expect(percentileMs(emptyCounts().latencyCounts, 0.95)).toBe(0);
});

it('counts errors apart from answers and rejections apart from the rest, and takes a call out again', () => {
  const counts = emptyCounts();
  countCall(counts, 'APPROVED', 5);
  countCall(counts, 'REJECTED', 5);
  countCall(counts, 'error', 5);
  expect(counts).toMatchObject({ calls: 3, errors: 1, answered: 2, notRejected: 1, totalMs: 15 });
  countCall(counts, 'REJECTED', 5, -1);
  expect(counts).toMatchObject({ calls: 2, errors: 1, answered: 1, notRejected: 1, totalMs: 10 });
  expect(counts.latencyCounts[0]).toBe(2);
});
