import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './closedPort.js';

/**
 * A PgBouncer (Debian's, /usr/sbin/pgbouncer) on a free loopback port in front of one PostgreSQL, in transaction
 * mode: each transaction, or each statement outside one, may run on a different server session. PgBouncer refuses to
 * run as root, so it runs as the postgres user, with its files in a folder that user owns.
 */
export interface PgBouncer {
  /** `database` on the PostgreSQL behind, through the pooler. */
  url(database: string): string;
  stop(): Promise<void>;
}

export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startPgBouncer(server: { host: string; port: number }): Promise<PgBouncer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-pgbouncer-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o755);
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  }
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.host} port=${server.port} user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // Loopback trust, as the machine's PostgreSQL has it; every client logs in as the database entry's user.
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  const [file, args] = asRoot ? ['runuser', ['-u', 'postgres', '--', PGBOUNCER, ini]] : [PGBOUNCER, [ini]];
  const child: ChildProcess = spawn(file, args as string[], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; !(await listening(port)); attempt += 1) {
    if (attempt > 100 || child.exitCode !== null) throw new Error(`pgbouncer did not start on port ${port} (see ${dir}/pgbouncer.log)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      // runuser passes SIGTERM on to pgbouncer, which closes its sessions and exits.
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
