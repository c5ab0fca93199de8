import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { removeDir, startTestGateway } from '../support/gateway.js';
import { childPids } from '../support/process.js';

const embeddedProcesses = () =>
  childPids(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('embeddedServer');
    } catch {
      return false; // ended meanwhile
    }
  });

/**
 * The start's independent steps run at once (server/app.ts): when one fails, the others may already have started what
 * they start. The start fails with the first step's reason only once all have ended, and closes what they started: here
 * the SANDBOX PSP's port is taken while the embedded database's process starts and opens.
 */
it('a start whose SANDBOX port is taken fails with that reason and leaves no database process behind', async () => {
  const taken = await new Promise<Server>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'start-failure-'));
  try {
    const before = embeddedProcesses();
    await expect(startTestGateway({ dataDir, env: { SANDBOX_PORT: String((taken.address() as { port: number }).port) } })).rejects.toThrow(/EADDRINUSE/);
    expect(embeddedProcesses().filter((pid) => !before.includes(pid))).toEqual([]);
  } finally {
    taken.close();
    removeDir(dataDir);
  }
}, 120_000);
