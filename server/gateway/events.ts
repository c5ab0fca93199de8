import { EventEmitter, once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/orm.js';
import { eventCursor, eventsAfter } from '../db/statusRepository.js';
import { DEFAULT_EVENT_SUBJECTS, type EventSubject, type StatusEvent } from '../domain/types.js';

/**
 * Status changes as a stream. The event log in the database is the source of
 * truth (so a watcher can resume from any event id); the in-process signal only
 * wakes watchers early, and a slow poll picks up changes made by other processes.
 */
export class StatusEvents {
  private readonly signal = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly db: Database,
    private readonly pollMs = 1000,
  ) {}

  published(_event: StatusEvent): void {
    this.signal.emit('changed');
  }

  /** `subjects` empty: those every watcher got before receivers and accounts had events (DEFAULT_EVENT_SUBJECTS). */
  async *watch(
    afterEventId: string | undefined,
    providerAccountIds: readonly string[],
    subjects: readonly EventSubject[],
    abort: AbortSignal,
  ): AsyncGenerator<StatusEvent> {
    const watched = subjects.length ? [...new Set(subjects)] : DEFAULT_EVENT_SUBJECTS;
    let cursor = await eventCursor(this.db.em(), afterEventId && /^\d+$/.test(afterEventId) ? afterEventId : undefined);
    while (!abort.aborted) {
      // Listen before reading, so a change committed during the read still wakes us.
      const woken = new AbortController();
      const wake = Promise.race([
        once(this.signal, 'changed', { signal: woken.signal }).catch(() => undefined),
        sleep(this.pollMs, undefined, { signal: woken.signal }).catch(() => undefined),
        once(abort, 'abort', { signal: woken.signal }).catch(() => undefined),
      ]);
      const page = await eventsAfter(this.db.em(), cursor, providerAccountIds, watched);
      const events = page.events;
      for (const event of events) yield event;
      cursor = page.cursor;
      if (events.length === 0) await wake;
      woken.abort();
    }
  }
}
