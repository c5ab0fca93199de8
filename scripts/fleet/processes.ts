/**
 * The fleet's child processes: started with their output in a log file, some as the postgres user (PostgreSQL,
 * Patroni and PgBouncer refuse root), and, for the gateway's, started again when they die, as a supervisor would.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Owner {
  uid: number;
  gid: number;
}

/** The postgres user when running as root; undefined (this user) otherwise. */
export function postgresOwner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

export interface Supervised {
  readonly name: string;
  /** The running process's id, undefined while it is restarting. */
  readonly pid: number | undefined;
  /** Times it was started again after dying. */
  readonly restarts: number;
  /** Sends `signal`; with `restart` false it stays down until start() (a planned stop). */
  signal(signal: NodeJS.Signals, restart?: boolean): void;
  start(): void;
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  name: string;
  command: string;
  args: string[];
  dir: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  owner?: Owner;
  /** Started again this long after dying unless stopped on purpose; undefined: left down. */
  restartAfterMs?: number;
  onExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
}

export function supervise(options: SuperviseOptions): Supervised {
  let child: ChildProcess | undefined;
  let wanted = true;
  let restarts = 0;
  let exited: Promise<void> = Promise.resolve();
  const log = join(options.dir, `${options.name}.log`);
  const start = () => {
    wanted = true;
    const out = openSync(log, 'a');
    const current = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', out, out],
      ...(options.owner ?? {}),
    });
    child = current;
    exited = new Promise((resolve) =>
      current.once('exit', (code, signal) => {
        if (child === current) child = undefined;
        options.onExit?.(options.name, code, signal);
        resolve();
        if (wanted && options.restartAfterMs !== undefined)
          setTimeout(() => {
            if (wanted && !child) {
              restarts += 1;
              start();
            }
          }, options.restartAfterMs).unref();
      }),
    );
  };
  start();
  return {
    name: options.name,
    get pid() {
      return child?.pid;
    },
    get restarts() {
      return restarts;
    },
    signal(signal, restart = true) {
      if (!restart) wanted = false;
      child?.kill(signal);
    },
    start,
    async stop() {
      wanted = false;
      child?.kill('SIGTERM');
      const late = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(late);
    },
  };
}

/** Whether something accepts connections on this loopback port. */
export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Polls `probe` every 200 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** The HTTP status of a GET, 0 when nothing answered. */
export async function statusOf(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
