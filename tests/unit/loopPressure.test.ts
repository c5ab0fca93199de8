import { afterEach, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoopPressure } from '../../server/transport/loopPressure.js';
import { saturate } from '../support/eventLoop.js';

const refusal = (pressure: LoopPressure) => {
  try {
    pressure.admit();
    return undefined;
  } catch (error) {
    return error as { code: string; message: string; details: { reason?: string; retryAfterMs?: number } };
  }
};

let pressure: LoopPressure | undefined;
afterEach(() => pressure?.close());

it('is off at 0', () => {
  expect(LoopPressure.of(0)).toBeUndefined();
});

it('admits on a calm loop, refuses while the loop stays behind, and admits again once a window is calm', async () => {
  pressure = LoopPressure.of(50)!;
  await sleep(600);
  expect(refusal(pressure)).toBeUndefined();
  await saturate(1_000, 120);
  expect(pressure.currentDelayMs).toBeGreaterThan(50);
  expect(refusal(pressure)).toMatchObject({ code: 'RESOURCE_EXHAUSTED', details: { reason: 'OVERLOADED', retryAfterMs: 200 } });
  await sleep(700);
  expect(refusal(pressure)).toBeUndefined();
});

it('one pause shorter than the window (a garbage collection) is not overload', async () => {
  pressure = LoopPressure.of(50)!;
  await sleep(300);
  const refused: unknown[] = [];
  const watch = setInterval(() => {
    const error = refusal(pressure!);
    if (error) refused.push(error);
  }, 5);
  await sleep(100);
  const end = Date.now() + 100;
  while (Date.now() < end) {
    // one 100 ms pause
  }
  await sleep(800);
  clearInterval(watch);
  expect(refused).toEqual([]);
});

it('refuses new calls while more queries than the limit wait for a database connection, and admits again once they drain', async () => {
  let waiting = 0;
  pressure = LoopPressure.of(0, { limit: 20, waiting: async () => waiting })!;
  expect(pressure).toBeDefined();
  await sleep(300);
  expect(refusal(pressure)).toBeUndefined();
  waiting = 21;
  await sleep(300);
  expect(refusal(pressure)).toMatchObject({
    code: 'RESOURCE_EXHAUSTED',
    message: "the gateway's database is busy (21 queries wait for a connection); try again shortly",
    details: { reason: 'OVERLOADED', retryAfterMs: 200 },
  });
  waiting = 20;
  await sleep(300);
  expect(refusal(pressure)).toBeUndefined();
  // A count that cannot be read (the database closing) is not overload.
  waiting = 50;
  await sleep(300);
  pressure.close();
  pressure = LoopPressure.of(0, {
    limit: 20,
    waiting: () => Promise.reject(new Error('closed')),
  })!;
  await sleep(300);
  expect(refusal(pressure)).toBeUndefined();
});

it('is off when both limits are 0', () => {
  expect(LoopPressure.of(0, { limit: 0, waiting: async () => 100 })).toBeUndefined();
});
