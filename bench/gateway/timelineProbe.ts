/**
 * Preloaded (`node --import`) into a server under bench/latencyBursts.ts, the gateway or the bare baseline, so that
 * neither needs a hook: every SAMPLE_MS it notes the event loop's delay, the process's CPU, the GC pauses that ended
 * and the longest queue seen for a connection of node-postgres' pools, and appends them as JSON lines to
 * BENCH_TIMELINE_FILE. Times are milliseconds since the epoch (performance.timeOrigin + now), so that the bench can
 * set them beside its own calls and PostgreSQL's samples.
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import pg from 'pg';

export interface GcPause {
  /** Start, ms since the epoch. */
  t: number;
  ms: number;
  /** perf_hooks' constants.NODE_PERFORMANCE_GC_*: 1 minor (scavenge), 4 major (mark-compact), 8 incremental, 16 weak callbacks. */
  kind: number;
}

export interface ServerSample {
  /** End of the sample's window, ms since the epoch. */
  t: number;
  /** The event loop's longest and mean delay over the window, ms. */
  loopMaxMs: number;
  loopMeanMs: number;
  /** CPU (user + system) the process used over the window, ms. */
  cpuMs: number;
  /** The most queries seen waiting for a pool's connection at once during the window. */
  poolWaiting: number;
  gc: GcPause[];
}

const SAMPLE_MS = 100;
const file = process.env.BENCH_TIMELINE_FILE;
const epoch = (relative: number) => performance.timeOrigin + relative;

if (file) {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let pauses: GcPause[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      pauses.push({ t: epoch(entry.startTime), ms: entry.duration, kind: (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0 });
  }).observe({ entryTypes: ['gc'] });

  // The gateway's ORM may bring a node-postgres of its own (a nested node_modules): both are watched.
  let poolWaiting = 0;
  const ormPg = createRequire(import.meta.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
  for (const Pool of new Set([pg.Pool, ormPg.Pool])) {
    const connect = Pool.prototype.connect as (...args: unknown[]) => unknown;
    Pool.prototype.connect = function watchedConnect(this: pg.Pool, ...args: unknown[]) {
      // pg-pool queues every caller until its next tick, even with a connection idle: only a full pool makes one wait.
      if (this.idleCount === 0 && this.totalCount >= (this.options.max ?? 10)) poolWaiting = Math.max(poolWaiting, this.waitingCount + 1);
      return connect.apply(this, args);
    } as typeof Pool.prototype.connect;
  }

  let cpu = process.cpuUsage();
  let lines: string[] = [];
  let flushed = performance.now();
  const timer = setInterval(() => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const sample: ServerSample = {
      t: epoch(performance.now()),
      loopMaxMs: loop.max / 1e6,
      loopMeanMs: loop.count ? loop.mean / 1e6 : 0,
      cpuMs: (used.user + used.system) / 1000,
      poolWaiting,
      gc: pauses,
    };
    loop.reset();
    pauses = [];
    poolWaiting = 0;
    lines.push(JSON.stringify(sample));
    // Written in batches: one small synchronous append a second, not one a sample.
    if (performance.now() - flushed >= 1000) {
      appendFileSync(file, `${lines.join('\n')}\n`);
      lines = [];
      flushed = performance.now();
    }
  }, SAMPLE_MS);
  timer.unref();
}
