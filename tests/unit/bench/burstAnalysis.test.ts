import { describe, expect, it } from '@jest/globals';
import { analyse, bursts, overlap, type Timelines } from '../../../bench/gateway/burstAnalysis.js';
import type { HostSample, PgSample } from '../../../bench/gateway/hostTimeline.js';
import type { ServerSample } from '../../../bench/gateway/timelineProbe.js';

const T0 = 1_000_000;
const server = (t: number, extra: Partial<ServerSample> = {}): ServerSample => ({
  t: T0 + t,
  loopMaxMs: 1,
  loopMeanMs: 1,
  cpuMs: 10,
  poolWaiting: 0,
  gc: [],
  ...extra,
});
const calmPg: PgSample = {
  walSyncs: 10,
  walSyncMs: 5,
  walWrites: 10,
  walWriteMs: 1,
  walBytes: 1000,
  walBuffersFull: 0,
  checkpointWriteMs: 0,
  checkpointSyncMs: 0,
  buffersCheckpoint: 0,
  buffersBackendFsync: 0,
  checkpointDone: false,
  checkpointer: 'CheckpointerMain',
  walWriter: 'WalWriterMain',
  walWaiting: 0,
  active: 1,
};
const host = (t: number, extra: Partial<HostSample> = {}): HostSample => ({
  t: T0 + t,
  windowMs: 100,
  cpuStallMs: 5,
  ioStallMs: 0,
  running: 2,
  benchLoopMaxMs: 1,
  pg: calmPg,
  ...extra,
});
/** Samples every 100 ms over 2 s; a stall (GC, loop delay, a pool queue, the machine) in the window ending at 1,000 ms. */
function timelines(): Timelines {
  const times = Array.from({ length: 20 }, (_, i) => (i + 1) * 100);
  return {
    server: times.map((t) => (t === 1000 ? server(t, { loopMaxMs: 40, poolWaiting: 3, gc: [{ t: T0 + 930, ms: 30, kind: 1 }] }) : server(t))),
    host: times.map((t) => (t === 1000 ? host(t, { cpuStallMs: 90, running: 9, pg: { ...calmPg, checkpointer: 'CheckpointWriteDelay' } }) : host(t))),
    idle: times.map((t) => server(t, t === 1000 ? { loopMaxMs: 25 } : {})),
  };
}

describe('the p99 bursts: slow calls set against what overlapped them', () => {
  it('takes from each timeline the worst of the samples whose window touches the span', () => {
    const during = overlap(T0 + 940, T0 + 980, timelines());
    expect(during).toMatchObject({ gcMaxMs: 30, loopMaxMs: 40, poolWaiting: 3, checkpointing: true, cpuStallShare: 0.9, running: 9, idleLoopMaxMs: 25 });
    expect(during.walSyncMeanMs).toBeCloseTo(0.5);
    const calm = overlap(T0 + 1500, T0 + 1520, timelines());
    expect(calm).toMatchObject({ gcMaxMs: 0, loopMaxMs: 1, poolWaiting: 0, checkpointing: false, idleLoopMaxMs: 1 });
  });

  it('groups calls over 20 ms sent within 50 ms of the previous answer into one burst', () => {
    const calls = [
      { sent: T0 + 900, ms: 60 },
      { sent: T0 + 905, ms: 55 },
      { sent: T0 + 990, ms: 25 },
      { sent: T0 + 1200, ms: 3 },
      { sent: T0 + 1500, ms: 30 },
    ];
    const found = bursts(calls, timelines());
    expect(found.map(({ start, end, calls: count, maxMs }) => ({ start: start - T0, end: end - T0, count, maxMs }))).toEqual([
      { start: 900, end: 1015, count: 3, maxMs: 60 },
      { start: 1500, end: 1530, count: 1, maxMs: 30 },
    ]);
    expect(found[0]!.overlap.gcMaxMs).toBe(30);
  });

  it("sets each signal's share of the slow calls beside its share of all calls, and times the bursts' cadence", () => {
    const fast = Array.from({ length: 196 }, (_, i) => ({ sent: T0 + 100 + i * 9, ms: 3 }));
    const slow = [
      { sent: T0 + 920, ms: 70 },
      { sent: T0 + 930, ms: 60 },
      { sent: T0 + 1600, ms: 40 },
      { sent: T0 + 1700, ms: 21 },
    ];
    const run = analyse([...fast, ...slow], timelines());
    expect(run).toMatchObject({ calls: 200, p99: 40, max: 70, slowMs: 20, slowCalls: 4 });
    const gc = run.correlations.find((c) => c.signal.startsWith('GC pause'))!;
    expect(gc.slow).toBe(0.5);
    expect(gc.all).toBeLessThan(0.1);
    expect(run.bursts.map((b) => b.start - T0)).toEqual([920, 1600, 1700]);
    expect(run.cadence).toEqual({ min: 100, median: 100, max: 680 });
    expect(run.gc).toEqual([{ kind: 1, count: 1, totalMs: 30, maxMs: 30 }]);
  });
});
