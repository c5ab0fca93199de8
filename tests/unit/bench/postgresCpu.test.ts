import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { postgresCpuSince } from '../../../bench/gateway/processes.js';
import { ADMIN_URL, onDatabase } from '../../support/postgres.js';

/** Work only the backend does: a sum over `rows` rows it generates itself. */
const BUSY = (rows: number) => `select sum(i) from generate_series(1, ${rows}) as i`;

describe("PostgreSQL's CPU, as the benches read it beside a server's", () => {
  it("counts the time a statement spends in the machine's PostgreSQL, none of it this process's", async () => {
    await onDatabase(ADMIN_URL, async (client) => {
      await client.query('select 1');
      const spentSince = postgresCpuSince();
      const started = process.cpuUsage();
      await client.query(BUSY(5_000_000));
      const ours = process.cpuUsage(started);
      const spent = spentSince();
      expect(spent).toBeGreaterThan(100);
      expect((ours.user + ours.system) / 1000).toBeLessThan(spent);
    });
  });

  it('does not take away the earlier time of a connection that closes in the window', async () => {
    const closing = new pg.Client({ connectionString: ADMIN_URL });
    await closing.connect();
    let spentSince: () => number;
    try {
      // A connection with a past: its backend has spent a few hundred milliseconds before the window opens.
      await closing.query(BUSY(5_000_000));
      spentSince = postgresCpuSince();
    } finally {
      await closing.end();
    }
    await onDatabase(ADMIN_URL, (client) => client.query('select 1'));
    // Summed over the processes alive at each reading, the closed backend's past would come out as a negative figure.
    expect(spentSince()).toBeGreaterThanOrEqual(0);
  });
});
