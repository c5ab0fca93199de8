import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { bucketOf, profileShares } from '../../../bench/gateway/profileShares.js';

describe("a CPU profile's time, by where it went", () => {
  it('names the package, the folder of ours, Node or V8 that a function belongs to', () => {
    expect(bucketOf('file:///app/node_modules/@grpc/grpc-js/build/src/server.js', 'f')).toBe('@grpc/grpc-js');
    expect(bucketOf('file:///app/node_modules/pg/lib/client.js', 'f')).toBe('pg');
    expect(bucketOf('file:///app/dist/server/gateway/payments.js', 'f')).toBe('server/gateway');
    expect(bucketOf('file:///app/dist/gen/ts-proto/gateway/v1/types.js', 'f')).toBe('gen/ts-proto');
    expect(bucketOf('node:internal/http2/core', 'f')).toBe('node (internals)');
    expect(bucketOf('', '(garbage collector)')).toBe('(garbage collector)');
    expect(bucketOf('', 'writev')).toBe('(native)');
  });

  it('sums each sample into its bucket and leaves the idle time out of the shares', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    try {
      const file = join(dir, 'p.cpuprofile');
      const node = (id: number, url: string, functionName = 'f') => ({ id, callFrame: { functionName, url } });
      writeFileSync(
        file,
        JSON.stringify({
          nodes: [node(1, '', '(idle)'), node(2, 'file:///a/node_modules/pg/x.js'), node(3, 'file:///a/dist/server/db/y.js')],
          samples: [1, 2, 3, 2, 1],
          timeDeltas: [5000, 3000, 1000, 3000, 9000],
        }),
      );
      expect(profileShares(file)).toEqual([
        { bucket: 'pg', ms: 6, share: 6 / 7 },
        { bucket: 'server/db', ms: 1, share: 1 / 7 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts Node's internals and native code under the package or folder of ours that called them", () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    try {
      const file = join(dir, 'p.cpuprofile');
      writeFileSync(
        file,
        JSON.stringify({
          nodes: [
            { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 5] },
            { id: 2, callFrame: { functionName: 'request', url: 'file:///a/node_modules/axios/lib/http.js' }, children: [3] },
            { id: 3, callFrame: { functionName: 'write', url: 'node:internal/net' }, children: [4] },
            { id: 4, callFrame: { functionName: 'writev', url: '' } },
            { id: 5, callFrame: { functionName: 'processTimers', url: 'node:internal/timers' } },
          ],
          samples: [4, 3, 5],
          timeDeltas: [2000, 1000, 1000],
        }),
      );
      expect(profileShares(file).map(({ bucket, ms }) => [bucket, ms])).toEqual([
        ['axios', 3],
        ['node (internals)', 1],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
