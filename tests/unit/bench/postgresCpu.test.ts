import { describe, expect, it } from '@jest/globals';
import { postgresCpuMs } from '../../../bench/gateway/processes.js';
import { ADMIN_URL, onDatabase } from '../../support/postgres.js';

describe("PostgreSQL's CPU, as the benches read it beside a server's", () => {
  it("counts the time a statement spends in the machine's PostgreSQL", async () => {
    await onDatabase(ADMIN_URL, async (client) => {
      await client.query('select 1');
      const before = postgresCpuMs();
      const started = process.cpuUsage();
      // Work only the backend does: a sum over five million rows it generates itself.
      await client.query('select sum(i) from generate_series(1, 5000000) as i');
      const ours = process.cpuUsage(started);
      const spent = postgresCpuMs() - before;
      expect(spent).toBeGreaterThan(100);
      // None of it is this process's own.
      expect((ours.user + ours.system) / 1000).toBeLessThan(spent);
    });
  });
});
