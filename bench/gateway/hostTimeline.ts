/**
 * What bench/latencyBursts.ts samples outside the server under measurement, every SAMPLE_MS: the machine (CPU and
 * I/O pressure stall from /proc/pressure, tasks runnable from /proc/stat), the load generator's own event loop, and
 * PostgreSQL over a connection of its own (pg_stat_wal and pg_stat_bgwriter deltas, the checkpointer's and WAL
 * writer's wait events, and how many of the database's backends wait on WAL at that instant).
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';

export interface HostSample {
  /** End of the sample's window, ms since the epoch. */
  t: number;
  /** The window's length: SAMPLE_MS, more when the load generator's timer was late. */
  windowMs: number;
  /** Over the window: ms in which some task waited for a CPU, and for I/O (/proc/pressure, "some"). */
  cpuStallMs: number;
  ioStallMs: number;
  /** Tasks runnable at the sample's instant (/proc/stat procs_running), on a machine with `cores` cores. */
  running: number;
  /** The load generator's longest event-loop delay over the window, ms. */
  benchLoopMaxMs: number;
  /** PostgreSQL at the end of the window; absent when its query had not answered yet. */
  pg?: PgSample;
}

export interface PgSample {
  /** Deltas since the previous PostgreSQL sample (its statistics are flushed by backends about once a second). */
  walSyncs: number;
  walSyncMs: number;
  walWrites: number;
  walWriteMs: number;
  walBytes: number;
  walBuffersFull: number;
  checkpointWriteMs: number;
  checkpointSyncMs: number;
  buffersCheckpoint: number;
  buffersBackendFsync: number;
  /** A checkpoint completed (pg_control_checkpoint's time moved) since the previous sample. */
  checkpointDone: boolean;
  /** The checkpointer's wait event: CheckpointerMain when idle, CheckpointWriteDelay while spreading a checkpoint's writes. */
  checkpointer: string;
  walWriter: string;
  /** The run's database's backends waiting on WAL (WALSync, WALWrite, WALInsert) at the instant, and those active. */
  walWaiting: number;
  active: number;
}

const SAMPLE_MS = 100;

const PG_SAMPLE = `select w.wal_sync::float8 as syncs, w.wal_sync_time as sync_ms, w.wal_write::float8 as writes, w.wal_write_time as write_ms,
    w.wal_bytes::float8 as bytes, w.wal_buffers_full::float8 as buffers_full, b.checkpoint_write_time as ckpt_write_ms,
    b.checkpoint_sync_time as ckpt_sync_ms, b.buffers_checkpoint::float8 as buffers_ckpt, b.buffers_backend_fsync::float8 as backend_fsync,
    (select checkpoint_time::text from pg_control_checkpoint()) as ckpt_time,
    (select coalesce(wait_event, 'on CPU') from pg_stat_activity where backend_type = 'checkpointer') as checkpointer,
    (select coalesce(wait_event, 'on CPU') from pg_stat_activity where backend_type = 'walwriter') as wal_writer,
    (select count(*)::int from pg_stat_activity where datname = $1 and wait_event in ('WALSync', 'WALWrite', 'WALInsert')) as wal_waiting,
    (select count(*)::int from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()) as active
  from pg_stat_wal w, pg_stat_bgwriter b`;

type PgRow = Record<
  'syncs' | 'sync_ms' | 'writes' | 'write_ms' | 'bytes' | 'buffers_full' | 'ckpt_write_ms' | 'ckpt_sync_ms' | 'buffers_ckpt' | 'backend_fsync',
  number
> &
  Record<'ckpt_time' | 'checkpointer' | 'wal_writer', string> & { wal_waiting: number; active: number };

/** Cumulative "some" stall of a /proc/pressure file, in ms; 0 where the kernel has no PSI. */
function stallMs(resource: 'cpu' | 'io'): number {
  try {
    return Number(/^some .*total=(\d+)/m.exec(readFileSync(`/proc/pressure/${resource}`, 'utf8'))?.[1] ?? 0) / 1000;
  } catch {
    return 0;
  }
}

const running = () => Number(/^procs_running (\d+)/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? NaN);

const pgDelta = (now: PgRow, before: PgRow): PgSample => ({
  walSyncs: now.syncs - before.syncs,
  walSyncMs: now.sync_ms - before.sync_ms,
  walWrites: now.writes - before.writes,
  walWriteMs: now.write_ms - before.write_ms,
  walBytes: now.bytes - before.bytes,
  walBuffersFull: now.buffers_full - before.buffers_full,
  checkpointWriteMs: now.ckpt_write_ms - before.ckpt_write_ms,
  checkpointSyncMs: now.ckpt_sync_ms - before.ckpt_sync_ms,
  buffersCheckpoint: now.buffers_ckpt - before.buffers_ckpt,
  buffersBackendFsync: now.backend_fsync - before.backend_fsync,
  checkpointDone: now.ckpt_time !== before.ckpt_time,
  checkpointer: now.checkpointer,
  walWriter: now.wal_writer,
  walWaiting: now.wal_waiting,
  active: now.active,
});

/** Samples until stopped; `databaseUrl` names the run's database (its backends are the ones counted). */
export async function startHostTimeline(databaseUrl: string): Promise<{ stop(): Promise<HostSample[]> }> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-bursts-sampler' });
  await client.connect();
  const database = new URL(databaseUrl).pathname.slice(1);
  const samples: HostSample[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let cpu = stallMs('cpu');
  let io = stallMs('io');
  let last = performance.timeOrigin + performance.now();
  let previous = (await client.query<PgRow>(PG_SAMPLE, [database])).rows[0]!;
  let asking = false;
  const timer = setInterval(() => {
    const [cpuNow, ioNow] = [stallMs('cpu'), stallMs('io')];
    const t = performance.timeOrigin + performance.now();
    const sample: HostSample = {
      t,
      windowMs: t - last,
      cpuStallMs: cpuNow - cpu,
      ioStallMs: ioNow - io,
      running: running(),
      benchLoopMaxMs: loop.max / 1e6,
    };
    [cpu, io, last] = [cpuNow, ioNow, t];
    loop.reset();
    samples.push(sample);
    // One question at a time: a slow answer is itself what the timeline is after, so it is not stacked.
    if (asking) return;
    asking = true;
    client.query<PgRow>(PG_SAMPLE, [database]).then(
      ({ rows: [row] }) => {
        sample.pg = pgDelta(row!, previous);
        previous = row!;
        asking = false;
      },
      () => (asking = false),
    );
  }, SAMPLE_MS);
  return {
    async stop() {
      clearInterval(timer);
      loop.disable();
      await client.end();
      return samples;
    },
  };
}
