/**
 * bench/latencyBursts.ts's arithmetic: the slow calls of an open loop grouped into bursts, and what overlapped each
 * call (a GC pause, the server's loop delay, a pool wait, a checkpoint, backends waiting on WAL, the machine's CPU
 * stall, the load generator's own loop) beside how often the same signal overlapped any call: a signal that is as
 * common under the fast calls as under the slow ones explains nothing.
 */
import { percentile } from './load.js';
import type { HostSample } from './hostTimeline.js';
import type { ServerSample } from './timelineProbe.js';

export interface Call {
  /** When it was due, ms since the epoch. */
  sent: number;
  ms: number;
}

/** Every sampler's window is this long, ending at its sample's `t`. */
export const WINDOW_MS = 100;
/** Calls slower than this (or than the run's p99, if lower) are the slow ones; bursts are made of calls over it. */
export const SLOW_MS = 20;
/** Slow calls sent within this of the previous one's answer belong to the same burst. */
const BURST_GAP_MS = 50;

/** What overlapped a span of time, each as its worst over the samples whose window touched it. */
export interface Overlap {
  gcMaxMs: number;
  loopMaxMs: number;
  poolWaiting: number;
  checkpointing: boolean;
  walWaiting: number;
  /** Mean WAL sync over the PostgreSQL samples touched (0 without any sync, or without track_wal_io_timing). */
  walSyncMeanMs: number;
  cpuStallShare: number;
  running: number;
  benchLoopMaxMs: number;
  /** The event loop's longest delay in an idle process (a timer and nothing else) on the same machine. */
  idleLoopMaxMs: number;
}

/** The timelines a run's calls are set against: the server's, the machine's and PostgreSQL's, an idle process's. */
export interface Timelines {
  server: readonly ServerSample[];
  host: readonly HostSample[];
  idle: readonly ServerSample[];
}

export interface Signal {
  name: string;
  present: (overlap: Overlap) => boolean;
}

/** The thresholds a signal counts from: each well above what a calm 100 ms window shows on this machine. */
export const SIGNALS: Signal[] = [
  { name: 'GC pause ≥ 5 ms in the server', present: (o) => o.gcMaxMs >= 5 },
  { name: "server's event loop delayed ≥ 10 ms", present: (o) => o.loopMaxMs >= 10 },
  { name: 'a query waited for a pool connection', present: (o) => o.poolWaiting > 0 },
  { name: 'checkpoint writing or syncing', present: (o) => o.checkpointing },
  { name: '≥ 2 backends waiting on WAL at a sample', present: (o) => o.walWaiting >= 2 },
  { name: 'WAL sync ≥ 2 ms on average', present: (o) => o.walSyncMeanMs >= 2 },
  { name: 'tasks waited for a CPU ≥ 50 % of a window', present: (o) => o.cpuStallShare >= 0.5 },
  { name: '≥ 6 tasks runnable on the machine (3 per core)', present: (o) => o.running >= 6 },
  { name: "load generator's loop delayed ≥ 10 ms", present: (o) => o.benchLoopMaxMs >= 10 },
  { name: "an idle process's loop delayed ≥ 10 ms", present: (o) => o.idleLoopMaxMs >= 10 },
];

const touches = (t: number, from: number, to: number) => t >= from && t - WINDOW_MS <= to;
const maxOf = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);

export function overlap(from: number, to: number, { server, host, idle }: Timelines): Overlap {
  const s = server.filter((sample) => touches(sample.t, from, to));
  const h = host.filter((sample) => touches(sample.t, from, to));
  const pgs = h.flatMap((sample) => (sample.pg ? [sample.pg] : []));
  const syncs = pgs.reduce((sum, p) => sum + p.walSyncs, 0);
  return {
    gcMaxMs: maxOf(server.flatMap((sample) => sample.gc.filter((gc) => gc.t <= to && gc.t + gc.ms >= from).map((gc) => gc.ms))),
    loopMaxMs: maxOf(s.map((sample) => sample.loopMaxMs)),
    poolWaiting: maxOf(s.map((sample) => sample.poolWaiting)),
    checkpointing: pgs.some((p) => p.checkpointer !== 'CheckpointerMain' || p.checkpointDone || p.buffersCheckpoint > 0 || p.checkpointSyncMs > 0),
    walWaiting: maxOf(pgs.map((p) => p.walWaiting)),
    walSyncMeanMs: syncs > 0 ? pgs.reduce((sum, p) => sum + p.walSyncMs, 0) / syncs : 0,
    cpuStallShare: maxOf(h.map((sample) => sample.cpuStallMs / sample.windowMs)),
    running: maxOf(h.map((sample) => sample.running)),
    benchLoopMaxMs: maxOf(h.map((sample) => sample.benchLoopMaxMs)),
    idleLoopMaxMs: maxOf(idle.filter((sample) => touches(sample.t, from, to)).map((sample) => sample.loopMaxMs)),
  };
}

export interface Burst {
  start: number;
  end: number;
  calls: number;
  maxMs: number;
  overlap: Overlap;
}

/** Calls over SLOW_MS, in order sent, grouped while each is sent within BURST_GAP_MS of the group's last answer. */
export function bursts(calls: readonly Call[], timelines: Timelines): Burst[] {
  const groups: { start: number; end: number; calls: number; maxMs: number }[] = [];
  for (const call of [...calls].filter((c) => c.ms > SLOW_MS).sort((a, b) => a.sent - b.sent)) {
    const last = groups.at(-1);
    if (last && call.sent <= last.end + BURST_GAP_MS) {
      last.end = Math.max(last.end, call.sent + call.ms);
      last.calls += 1;
      last.maxMs = Math.max(last.maxMs, call.ms);
    } else groups.push({ start: call.sent, end: call.sent + call.ms, calls: 1, maxMs: call.ms });
  }
  return groups.map((group) => ({ ...group, overlap: overlap(group.start, group.end, timelines) }));
}

export interface Correlation {
  signal: string;
  /** Share of the slow calls, and of all calls, that the signal overlapped. */
  slow: number;
  all: number;
}

/** The server's GC pauses over the run, by kind (perf_hooks' NODE_PERFORMANCE_GC_* constant). */
export interface GcByKind {
  kind: number;
  count: number;
  totalMs: number;
  maxMs: number;
}

export function gcByKind(server: readonly ServerSample[]): GcByKind[] {
  const kinds = new Map<number, GcByKind>();
  for (const gc of server.flatMap((sample) => sample.gc)) {
    const entry = kinds.get(gc.kind) ?? { kind: gc.kind, count: 0, totalMs: 0, maxMs: 0 };
    entry.count += 1;
    entry.totalMs += gc.ms;
    entry.maxMs = Math.max(entry.maxMs, gc.ms);
    kinds.set(gc.kind, entry);
  }
  return [...kinds.values()].sort((a, b) => a.kind - b.kind);
}

export interface RunAnalysis {
  calls: number;
  p50: number;
  p99: number;
  max: number;
  /** The slow calls' threshold: the lower of the run's p99 and SLOW_MS. */
  slowMs: number;
  slowCalls: number;
  correlations: Correlation[];
  bursts: Burst[];
  gc: GcByKind[];
  /** Time between the starts of consecutive bursts, ms: min, median, max. */
  cadence?: { min: number; median: number; max: number };
}

export function analyse(calls: readonly Call[], timelines: Timelines): RunAnalysis {
  const sorted = calls.map((c) => c.ms).sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  const slowMs = Math.min(p99, SLOW_MS);
  const overlaps = calls.map((call) => ({ slow: call.ms > slowMs, overlap: overlap(call.sent, call.sent + call.ms, timelines) }));
  const slow = overlaps.filter((o) => o.slow);
  const share = (list: typeof overlaps, signal: Signal) => (list.length ? list.filter((o) => signal.present(o.overlap)).length / list.length : NaN);
  const found = bursts(calls, timelines);
  const gaps = found
    .slice(1)
    .map((burst, i) => burst.start - found[i]!.start)
    .sort((a, b) => a - b);
  return {
    calls: calls.length,
    p50: percentile(sorted, 50),
    p99,
    max: sorted.at(-1) ?? NaN,
    slowMs,
    slowCalls: slow.length,
    correlations: SIGNALS.map((signal) => ({ signal: signal.name, slow: share(slow, signal), all: share(overlaps, signal) })),
    bursts: found,
    gc: gcByKind(timelines.server),
    ...(gaps.length ? { cadence: { min: gaps[0]!, median: percentile(gaps, 50), max: gaps.at(-1)! } } : {}),
  };
}
