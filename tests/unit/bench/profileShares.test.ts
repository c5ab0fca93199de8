import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  activityOfFile,
  activityShares,
  bucketOf,
  GC_ACTIVITY,
  OTHER_ACTIVITY,
  profileShares,
  PROBE_ACTIVITY,
  RUNTIME_ACTIVITY,
} from '../../../bench/gateway/profileShares.js';

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

  it("names what a charge's CPU went to by the file of the function, the specific before the general", () => {
    expect(activityOfFile('file:///app/node_modules/zod/v4/core/schemas.js')).toBe('validation (the request guard, zod)');
    expect(activityOfFile('file:///app/dist/server/transport/requestGuard.js')).toBe('validation (the request guard, zod)');
    expect(activityOfFile('file:///app/dist/server/lib/qrSymbol.js')).toBe('the PIX QR image');
    // The tracing of a provider call is tracing, though it lives beside the provider's HTTP client.
    expect(activityOfFile('file:///app/dist/server/lib/http/exchangeSpan.js')).toBe('tracing');
    expect(activityOfFile('file:///app/dist/server/lib/http/directExchange.js')).toBe("the provider's HTTP call");
    // MikroORM's own node-postgres, nested under it, is the database client's.
    expect(activityOfFile('file:///app/node_modules/@mikro-orm/postgresql/node_modules/pg/lib/query.js')).toBe(
      'the database client (node-postgres, MikroORM, repositories)',
    );
    expect(activityOfFile('file:///app/dist/server/db/preparedSql.js')).toBe('the database client (node-postgres, MikroORM, repositories)');
    expect(activityOfFile('file:///app/dist/server/gateway/callAudit.js')).toBe('audit');
    expect(activityOfFile('file:///app/dist/server/gateway/payments.js')).toBe("the charge's own code (use cases, domain; the baseline's handler)");
    expect(activityOfFile('file:///app/node_modules/left-pad/index.js')).toBe(OTHER_ACTIVITY);
    expect(activityOfFile('file:///app/dist/bench/probe.mjs')).toBe(PROBE_ACTIVITY);
    expect(activityOfFile('node:internal/http2/core')).toBeUndefined();
    expect(activityOfFile('')).toBeUndefined();
  });

  it("splits the busy time by activity, with the socket writes set apart and the probe's own frames left out", () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    try {
      const file = join(dir, 'p.cpuprofile');
      const frame = (id: number, functionName: string, url: string, children?: number[]) => ({
        id,
        callFrame: { functionName, url },
        ...(children ? { children } : {}),
      });
      writeFileSync(
        file,
        JSON.stringify({
          nodes: [
            frame(1, '(root)', '', [2, 5, 7, 8, 9, 10]),
            frame(2, 'query', 'file:///a/node_modules/pg/lib/client.js', [3]),
            frame(3, 'write', 'node:internal/net', [4]),
            frame(4, 'writev', ''),
            frame(5, 'parse', 'file:///a/node_modules/zod/v4/core/schemas.js', [6]),
            frame(6, 'hash', 'node:internal/crypto/hash'),
            frame(7, 'processTimers', 'node:internal/timers'),
            frame(8, '(garbage collector)', ''),
            frame(9, '(idle)', ''),
            frame(10, 'profile', 'file:///a/dist/bench/probe.mjs'),
          ],
          // pg 1, its socket write 4, zod (through a hash of Node's) 2, timers 1, GC 1, idle 5, the probe 3.
          samples: [2, 4, 6, 7, 8, 9, 10, 3],
          timeDeltas: [1000, 4000, 2000, 1000, 1000, 5000, 3000, 0],
        }),
      );
      const { shares, socketWrites } = activityShares(file);
      expect(socketWrites).toBeCloseTo(4 / 9);
      expect(shares).toEqual([
        { activity: 'validation (the request guard, zod)', share: 2 / 5 },
        { activity: 'the database client (node-postgres, MikroORM, repositories)', share: 1 / 5 },
        { activity: RUNTIME_ACTIVITY, share: 1 / 5 },
        { activity: GC_ACTIVITY, share: 1 / 5 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
