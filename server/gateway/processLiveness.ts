import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessesRepository } from '../db/processesRepository.js';
import type { GatewayDeps } from './context.js';

export interface LivenessOptions {
  /** How often this process marks itself alive (PROCESS_HEARTBEAT_MS). */
  heartbeatMs: number;
  /** Rows of processes silent this long are dropped (their keys were swept long before). */
  forgetAfterMs: number;
}

/**
 * Where a pid means the same process: the host's name and this pid namespace (two containers that share a host
 * name but not their pids must not judge each other by pid).
 */
function hostIdentity(): string {
  let namespace = '';
  try {
    namespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux: the host name alone.
  }
  return namespace ? `${hostname()} ${namespace}` : hostname();
}

/** Whether a process with this pid runs in this pid namespace (one of another user's counts too). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * This process's liveness, as the idempotency keys it claims name it: a row in gateway_processes that it marks
 * alive every `heartbeatMs` (one UPDATE, however many calls it has in flight) and removes when it stops. Another
 * process judges a key's holder gone when that row is older than PROCESS_STALE_MS, or at once when the holder ran on
 * the same host and its pid no longer runs there (a restart after kill -9 finds its predecessor's calls that way).
 */
export class ProcessLiveness {
  readonly id = randomUUID();
  private readonly host = hostIdentity();
  private timer?: NodeJS.Timeout;
  /** Done after each beat: this process's own housekeeping that only it can do (it alone knows what it holds). */
  private readonly chores: (() => Promise<unknown>)[] = [];

  constructor(
    private readonly deps: Pick<GatewayDeps, 'db' | 'logger'> & { processes: ProcessesRepository },
    private readonly options: LivenessOptions,
  ) {}

  async start(): Promise<void> {
    await this.deps.processes.beat(this.deps.db.em(), { id: this.id, host: this.host, pid: process.pid });
    await this.reapLocal();
    this.timer = setInterval(() => void this.beat(), this.options.heartbeatMs);
    this.timer.unref();
  }

  /** Runs `chore` after each beat from now on; a failure is logged and tried again at the next beat. */
  onEachBeat(chore: () => Promise<unknown>): void {
    this.chores.push(chore);
  }

  private async beat(): Promise<void> {
    try {
      await this.deps.processes.beat(this.deps.db.em(), { id: this.id, host: this.host, pid: process.pid });
    } catch (error) {
      // Missed beats only make this process look gone sooner: its keys then go to the resolver, never to a resend.
      this.deps.logger.warn({ err: error }, 'could not mark this process alive');
      return;
    }
    for (const chore of this.chores) {
      try {
        await chore();
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'a chore after marking this process alive failed; tried again at the next beat');
      }
    }
  }

  /** Forgets the processes of this host that no longer run, and those silent for long; returns how many. */
  async reapLocal(): Promise<number> {
    const { db, processes, logger } = this.deps;
    const gone = (await processes.onHost(db.em(), this.host, this.id)).filter((other) => !isRunning(other.pid));
    await processes.forget(
      db.em(),
      gone.map((other) => other.id),
    );
    if (gone.length > 0)
      logger.warn({ processes: gone }, 'gateway processes of this host that no longer run: what they had in flight is held for confirmation');
    return gone.length + (await processes.forgetSilent(db.em(), this.options.forgetAfterMs));
  }

  /** Stops marking itself alive and removes its row: whatever it still holds in flight is judged gone at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.deps.processes.forget(this.deps.db.em(), [this.id]);
  }
}
