import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../lib/logger.js';

export interface WorkerLoop {
  name: string;
  /** One round; returns how much it did (0: nothing was due). */
  run(): Promise<number>;
  /** Pause between rounds that found nothing to do. */
  idleMs: number;
}

/**
 * Background loops (notification processing, outbound delivery, reconciliation).
 * A loop that did work goes again at once; an idle one sleeps until its
 * interval passes or `wake()` is called. `stop()` lets the current rounds finish.
 */
export class Workers {
  private readonly abort = new AbortController();
  /** Per loop name, the wake-up of each of its copies that sleeps now. */
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly running: Promise<void>[] = [];

  constructor(private readonly logger: Logger) {}

  start(loop: WorkerLoop, copies = 1): this {
    for (let i = 0; i < copies; i += 1) this.running.push(this.loop(loop));
    return this;
  }

  /** Wakes every sleeping copy of the loop: the work just stored may be more than one copy's round. */
  wake(name: string): void {
    for (const wake of this.wakers.get(name) ?? []) wake();
  }

  private async loop(loop: WorkerLoop): Promise<void> {
    while (!this.abort.signal.aborted) {
      let did = 0;
      try {
        did = await loop.run();
      } catch (error) {
        this.logger.error({ err: error, worker: loop.name }, 'worker round failed');
      }
      if (did > 0 || this.abort.signal.aborted) continue;
      const woken = new AbortController();
      const wake = () => woken.abort();
      const sleeping = this.wakers.get(loop.name) ?? new Set();
      this.wakers.set(loop.name, sleeping.add(wake));
      await sleep(loop.idleMs, undefined, { signal: AbortSignal.any([woken.signal, this.abort.signal]) }).catch(() => undefined);
      sleeping.delete(wake);
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all(this.running);
  }
}
