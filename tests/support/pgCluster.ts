import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL primary with streaming hot-standby replicas, made with
 * initdb and `pg_basebackup -R -X stream` on spare ports. initdb and pg_ctl
 * refuse to run as root, so they run as the postgres user.
 */

const BIN = process.env.PG_BIN ?? join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1)!, 'bin');
const asPostgres = (command: string, args: string[]) => {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', join(BIN, command), ...args]] : [join(BIN, command), args];
  return execFileSync(file, argv as string[], { stdio: 'pipe', timeout: 120_000 }).toString();
};

export interface PgServer {
  name: string;
  port: number;
  dir: string;
  url(database?: string): string;
  query<T extends pg.QueryResultRow = any>(sql: string, params?: unknown[], database?: string): Promise<T[]>;
  stop(): void;
}

function server(name: string, dir: string, port: number): PgServer {
  return {
    name,
    port,
    dir,
    url: (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    async query(sql, params = [], database = 'postgres') {
      const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/${database}` });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    stop() {
      asPostgres('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
    },
  };
}

export interface PgCluster {
  primary: PgServer;
  replicas: PgServer[];
  /** Waits until every running replica has replayed everything the primary has written. */
  waitForReplay(): Promise<void>;
  destroy(): void;
}

/** Whether nothing listens on this loopback port right now. */
const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/**
 * `count` consecutive free ports below Linux's ephemeral range (32768 and up),
 * where no other test's listener or outgoing connection can take them between
 * this probe and the servers' start (a port picked from the pid alone once
 * landed on one in use, and the cluster could not start).
 */
async function freePortBlock(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - count));
    const free = await Promise.all(Array.from({ length: count }, (_, i) => portIsFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no block of ${count} free ports found for the PostgreSQL cluster`);
}

export async function startPgCluster({
  replicas = 2,
  basePort = undefined as number | undefined,
  replicaApplyDelayMs = [] as number[],
} = {}): Promise<PgCluster> {
  basePort ??= await freePortBlock(replicas + 1);
  const base = mkdtempSync(join(tmpdir(), 'gw-pgcluster-'));
  chmodSync(base, 0o755);
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(base, uid, gid);
  const primaryDir = join(base, 'primary');
  asPostgres('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  appendFileSync(
    join(primaryDir, 'postgresql.conf'),
    [
      `port = ${basePort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${base}'`,
      'wal_level = replica',
      'max_wal_senders = 10',
      'hot_standby = on',
      "shared_preload_libraries = 'pg_stat_statements'",
      'pg_stat_statements.track = all',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );
  const started: PgServer[] = [];
  const start = (name: string, dir: string, port: number) => {
    asPostgres('pg_ctl', ['-D', dir, '-l', join(base, `${name}.log`), '-o', `-p ${port}`, '-w', 'start']);
    const s = server(name, dir, port);
    started.push(s);
    return s;
  };
  try {
    const primary = start('primary', primaryDir, basePort);
    await primary.query('create extension if not exists pg_stat_statements');
    const replicaServers: PgServer[] = [];
    for (let i = 1; i <= replicas; i += 1) {
      const dir = join(base, `replica${i}`);
      asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(basePort), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream']);
      const delay = replicaApplyDelayMs[i - 1];
      if (delay) appendFileSync(join(dir, 'postgresql.auto.conf'), `recovery_min_apply_delay = '${delay}ms'\n`);
      replicaServers.push(start(`replica${i}`, dir, basePort + i));
    }
    const cluster: PgCluster = {
      primary,
      replicas: replicaServers,
      async waitForReplay() {
        const [{ lsn }] = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
        for (const replica of replicaServers) {
          for (let attempt = 0; ; attempt += 1) {
            try {
              const [{ caught }] = await replica.query<{ caught: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught', [lsn]);
              if (caught) break;
            } catch {
              break; // a stopped replica has nothing to wait for
            }
            if (attempt > 300) throw new Error(`${replica.name} did not catch up`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
      },
      destroy() {
        for (const s of started.reverse()) {
          try {
            asPostgres('pg_ctl', ['-D', s.dir, '-m', 'immediate', '-w', 'stop']);
          } catch {
            // already stopped
          }
        }
        rmSync(base, { recursive: true, force: true });
      },
    };
    return cluster;
  } catch (error) {
    for (const s of started.reverse()) {
      try {
        asPostgres('pg_ctl', ['-D', s.dir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
}
