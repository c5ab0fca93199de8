import { describe, expect, it } from '@jest/globals';
import { eventWindows, missingFrom, repeated, windowsOverGoal, type FailedAttempt } from '../../../scripts/fleet/windows.js';

const failure = (at: number, code = 'UNAVAILABLE', held = false): FailedAttempt => ({ at, operation: 'charge-grpc', code, retried: true, held });

describe("the chaos report's error windows", () => {
  it('gives each event the failures until the next one, timed from the event to the last of them', () => {
    const windows = eventWindows(
      [
        { name: 'switchover', at: 10_000 },
        { name: 'kill -9 api1', at: 2_000 },
      ],
      [failure(2_500), failure(3_900, 'HTTP_502'), failure(11_000), failure(14_200)],
      0,
    );
    expect(windows.map((w) => [w.event.name, w.failures, w.windowMs])).toEqual([
      ['before events', 0, 0],
      ['kill -9 api1', 2, 1_900],
      ['switchover', 2, 4_200],
    ]);
    expect(windows[1]!.codes).toEqual({ 'charge-grpc UNAVAILABLE': 1, 'charge-grpc HTTP_502': 1 });
    expect(windows[1]!.lastMsByCode).toEqual({ 'charge-grpc UNAVAILABLE': 500, 'charge-grpc HTTP_502': 1_900 });
  });

  it("finds the failovers whose window went past Patroni's time + 2 s, and only those with a goal", () => {
    const windows = eventWindows(
      [
        { name: 'kill -9 api1', at: 1_000 },
        { name: 'switchover', at: 10_000, goalMs: 5_200 },
        { name: 'kill -9 postmaster', at: 20_000, goalMs: 8_200 },
      ],
      [failure(9_000), failure(15_100), failure(28_300)],
      0,
    );
    expect(windowsOverGoal(windows).map((w) => w.event.name)).toEqual(['kill -9 postmaster']);
  });

  it('measures the goal on unavailability: load shedding after it lengthens the window, not the goal', () => {
    const windows = eventWindows(
      [{ name: 'switchover', at: 10_000, goalMs: 5_200 }],
      [failure(12_000), failure(15_000, 'HTTP_503'), failure(21_000, 'RESOURCE_EXHAUSTED')],
      0,
    );
    expect(windows[1]).toMatchObject({ windowMs: 11_000, unavailableWindowMs: 5_000 });
    expect(windowsOverGoal(windows)).toEqual([]);
  });

  it('counts answers about held keys apart, outside the window', () => {
    const [, w] = eventWindows([{ name: 'kill -9 api1', at: 1_000 }], [failure(1_200), failure(60_000, 'UNAVAILABLE', true)], 0);
    expect(w).toMatchObject({ failures: 1, windowMs: 200, held: 1 });
  });

  it('finds what one side lacks and what repeats', () => {
    expect(missingFrom(['a', 'b', 'c'], new Set(['a', 'c']))).toEqual(['b']);
    expect([...repeated(['k1', 'k2', 'k1'])]).toEqual([['k1', 2]]);
  });
});
