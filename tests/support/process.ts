import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { npmStartArgs, serverStaleBecause } from '../../scripts/serverBuild.js';

export interface GatewayProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  exited: Promise<number | null>;
}

/** What `npm start` runs less node and `all` (its node flags and the entry point), from package.json. */
const START_FLAGS = npmStartArgs(process.cwd()).filter((arg) => arg !== 'all');

/**
 * The gateway's entry point as `npm start` runs it: the compiled dist/server/main.js (npm test builds it first),
 * unless dist/ is stale (a test run without `npm test`) or a test preloads TypeScript modules: then the sources, through tsx.
 */
function entryPoint(preload: string[]): string[] {
  if (preload.length === 0 && !serverStaleBecause(process.cwd())) return START_FLAGS;
  return ['--import', 'tsx', ...preload.flatMap((module) => ['--import', module]), 'server/main.ts'];
}

/** Runs the gateway as `npm start` does, in its own process, and waits for its banner. */
export async function spawnGateway(env: Record<string, string>, timeoutMs = 60_000, preload: string[] = []): Promise<GatewayProcess> {
  const child = spawn(process.execPath, entryPoint(preload), {
    // Any free metrics port unless a test names one: several gateways may run at once.
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      METRICS_PORT: '0',
      S3_PORT: '0',
      // CI runs several suites at once on two cores: a starved gateway process would shed the suites' calls.
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SHED_POOL_WAIT_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const timer = setInterval(() => {
      if (output.includes('Payment gateway is running')) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`no banner within ${timeoutMs} ms:\n${output}`));
      }
    }, 100);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`exited early:\n${output}`));
    });
  });
  return { child, output: () => output, exited };
}

/**
 * Free-looking ports for a child process, distinct per test file (the child must be told them up front).
 * Kept below Linux's ephemeral range (32768+), where the machine's own outgoing connections could hold them.
 */
export const portFor = (offset: number) => String(12000 + ((process.pid * 13 + offset * 7) % 20000));

/** The processes `pid` started that are still running (Linux: /proc/PID/task/TID/children); none once `pid` has ended. */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** The ids of `pid`'s threads named `name` (Linux: /proc/PID/task/TID/comm, which holds a worker thread's name). */
export function threadIds(pid: number, name: string): number[] {
  return readdirSync(`/proc/${pid}/task`)
    .filter((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether `pid` is still a process, not counting one that ended and waits to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The TCP ports `pid` listens on (Linux: its socket descriptors matched against /proc/net/tcp's LISTEN rows). */
export function listeningPorts(pid: number): number[] {
  const sockets = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]].filter((inode) => inode !== undefined);
      } catch {
        return [];
      }
    }),
  );
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((row) => row.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && sockets.has(fields[9]!))
      .map((fields) => parseInt(fields[1]!.split(':')[1]!, 16)),
  );
}
