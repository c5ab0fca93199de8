import { Worker } from 'node:worker_threads';
import type { Level } from 'pino';
import type { Logger } from '../lib/logger.js';
import type { SandboxPspOptions } from './psp.js';
import type { ThreadData, ThreadMessage, ThreadRequest } from './threadMessages.js';

/** The thread's name, as the OS shows it (/proc/<pid>/task/<tid>/comm): the bench reads its CPU by it. */
export const SANDBOX_THREAD_NAME = 'sandbox-psp';
/** A stop that has not ended by then (a hung request) ends the thread anyway. */
const STOP_TIMEOUT_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 250;
const LONGEST_RESTART_DELAY_MS = 30_000;
/** A thread that served this long before it died starts the restart delays over. */
const STEADY_MS = 60_000;

/**
 * Compiled (dist/, `npm start`) the thread runs the compiled module beside this one; from the sources it runs the
 * TypeScript one. The thread inherits the process's Node options (`npm start`'s V8 flags among them, which a worker
 * refuses when they are passed to it), tsx's included; only under jest, which compiles in-process, does it need tsx.
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const ENTRY = new URL(FROM_SOURCES ? './threadMain.ts' : './threadMain.js', import.meta.url);
const EXEC_ARGV = FROM_SOURCES && !process.execArgv.some((arg) => arg.includes('tsx')) ? ['--import', 'tsx'] : undefined;

/**
 * The sandbox PSP in a worker thread of the gateway's process (issue 31): its requests, QR drawings and state
 * file never take the gateway's event loop. A thread that dies is logged and started again on the same port, from
 * its state file; stop() ends it.
 */
export class SandboxPspThread {
  private worker?: Worker;
  private address?: string;
  private stopping = false;
  private restartTimer?: NodeJS.Timeout;
  /** Deaths in a row, each followed by a longer wait before the next start. */
  private failures = 0;
  /** How often the thread died and was started again. */
  restarts = 0;

  constructor(
    private readonly options: Omit<SandboxPspOptions, 'logger'>,
    private readonly logger: Logger,
  ) {}

  get url(): string {
    if (!this.address) throw new Error('sandbox PSP is not listening');
    return this.address;
  }

  /** The running thread's id (tests); undefined while it is being started again. */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  async start(): Promise<this> {
    await this.spawn();
    return this;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    const deadline = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    worker.postMessage({ type: 'stop' } satisfies ThreadRequest);
    await exited;
    clearTimeout(deadline);
  }

  /** Tests: ends the thread as a crash would (the gateway did not ask it to stop). */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  private spawn(): Promise<void> {
    // Once it has listened, a new thread takes the same port: the gateway's SANDBOX accounts point at it.
    const port = this.address ? Number(new URL(this.address).port) : this.options.port;
    const workerData: ThreadData = { options: { ...this.options, port }, logLevel: this.logger.level };
    const worker = new Worker(ENTRY, { name: SANDBOX_THREAD_NAME, workerData, execArgv: EXEC_ARGV });
    this.worker = worker;
    const startedAt = Date.now();
    return new Promise((resolve, reject) => {
      worker.on('message', (message: ThreadMessage) => {
        if (message.type === 'log') this.relay(message.line);
        else if (message.type === 'listening') {
          this.address = message.url;
          resolve();
        }
      });
      worker.on('error', (error) => {
        this.logger.error({ err: error }, 'the sandbox PSP thread failed');
        reject(error);
      });
      worker.once('exit', (exitCode) => {
        reject(new Error(`the sandbox PSP thread ended (exit code ${exitCode}) before it listened`));
        if (this.worker === worker) this.worker = undefined;
        // A first start that fails fails the gateway's start instead.
        if (this.stopping || !this.address) return;
        this.failures = Date.now() - startedAt >= STEADY_MS ? 1 : this.failures + 1;
        const delayMs = Math.min(LONGEST_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (this.failures - 1));
        this.logger.error({ exitCode, restartInMs: delayMs }, 'the sandbox PSP thread stopped unexpectedly: starting it again');
        this.restartTimer = setTimeout(() => void this.restart(), delayMs);
      });
    });
  }

  private async restart(): Promise<void> {
    try {
      await this.spawn();
      this.restarts += 1;
      this.logger.info({ url: this.address, restarts: this.restarts }, 'the sandbox PSP thread was started again');
    } catch {
      // Logged where it failed; its exit schedules the next attempt.
    }
  }

  /** A log line of the thread's, through the gateway's logger at its level. */
  private relay(line: string): void {
    const { level, msg, time: _time, pid: _pid, hostname: _hostname, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const label = this.logger.levels.labels[level as number] as Level | undefined;
    if (label) this.logger[label](fields, String(msg ?? ''));
  }
}
