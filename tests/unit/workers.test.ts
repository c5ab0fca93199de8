import { expect, it } from '@jest/globals';
import { Workers } from '../../server/gateway/workers.js';
import { createLogger } from '../../server/lib/logger.js';
import { eventually } from '../support/eventually.js';

it('wake() wakes every copy of a loop that sleeps, not only the one that fell asleep last', async () => {
  let rounds = 0;
  const workers = new Workers(createLogger('silent'));
  // Three copies (WEBHOOK_WORKERS=3), each finding nothing to do and sleeping for an hour.
  workers.start({ name: 'notifications', idleMs: 3_600_000, run: async () => (rounds += 1) && 0 }, 3);
  try {
    await eventually(async () => rounds === 3, 5_000, 'each copy to run a round and sleep');
    workers.wake('notifications');
    await eventually(async () => rounds === 6, 5_000, 'each copy to run again once woken');
    expect(rounds).toBe(6);
  } finally {
    // stop() aborts the sleeps.
    await workers.stop();
  }
});
