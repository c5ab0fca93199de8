import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compilePreload, probePreload, startListening, type FakeProviderProcess } from '../../../bench/gateway/processes.js';

interface Profile {
  nodes: { callFrame: { url: string } }[];
  samples: number[];
  startTime: number;
  endTime: number;
}

describe("the bench's probe, starting and stopping V8's CPU profiler in the process under measurement", () => {
  let dir: string;
  let server: FakeProviderProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'probe-profiler-'));
    // Where the benches compile it (dist/bench), whence its packages resolve from the project's node_modules.
    await compilePreload('bench/gateway/probe.ts', probePreload());
    server = await startListening('fakeProvider.ts', process.env, [probePreload()]);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const charge = () =>
    fetch(`${server.url}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1990, paymentMethod: 'pix' }),
    }).then((answer) => answer.text());

  it('writes a profile of the window between its start and its stop, the server code in it', async () => {
    await charge();
    const path = join(dir, 'window.cpuprofile');
    const startedAt = Date.now();
    await server.cpuProfile.start();
    for (let i = 0; i < 200; i += 1) await charge();
    await server.cpuProfile.stop(path);
    const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
    expect(profile.samples.length).toBeGreaterThan(0);
    expect(profile.nodes.some((node) => node.callFrame.url.endsWith('/bench/gateway/fakeProvider.ts'))).toBe(true);
    // The window's, not the process's since its start (microseconds on V8's clock; only its length is comparable).
    expect((profile.endTime - profile.startTime) / 1000).toBeLessThanOrEqual(Date.now() - startedAt + 50);
  });

  it('says so when asked to stop a profile it did not start', async () => {
    await expect(server.cpuProfile.stop(join(dir, 'never.cpuprofile'))).rejects.toThrow('no CPU profile was started');
  });

  it('refuses a second start while a profile runs, and the first still stops and writes', async () => {
    await server.cpuProfile.start();
    await expect(server.cpuProfile.start()).rejects.toThrow('a CPU profile is already running');
    const path = join(dir, 'first.cpuprofile');
    await server.cpuProfile.stop(path);
    expect((JSON.parse(readFileSync(path, 'utf8')) as Profile).nodes.length).toBeGreaterThan(0);
  });
});
