import { describe, expect, it } from '@jest/globals';
import * as grpc from '@grpc/grpc-js';
import { Code, ConnectError } from '@connectrpc/connect';
import { failureCode, isRetryable } from '../../../scripts/fleet/load.js';

const grpcError = (code: grpc.status, details: string) => Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details });

describe("the chaos load's reading of failures", () => {
  it('names a stream the load balancer cut as STREAM_RESET, on both transports, and retries it', () => {
    const cut = [
      grpcError(grpc.status.INTERNAL, 'Received RST_STREAM with code 2 triggered by internal client error: Protocol error'),
      grpcError(grpc.status.INTERNAL, 'read ECONNRESET'),
      new ConnectError('socket hang up', Code.Internal),
      // Connect over fetch: what undici says is in the cause.
      new ConnectError('fetch failed', Code.Unknown, undefined, undefined, new TypeError('fetch failed', { cause: new Error('other side closed') })),
    ];
    for (const error of cut) {
      expect(failureCode(error)).toBe('STREAM_RESET');
      expect(isRetryable(failureCode(error))).toBe(true);
    }
  });

  it("keeps the gateway's own INTERNAL (a bug) as INTERNAL, not retried", () => {
    for (const error of [
      grpcError(grpc.status.INTERNAL, 'internal error'),
      new ConnectError('internal error', Code.Internal),
      new ConnectError('bug', Code.Unknown),
    ]) {
      expect(['INTERNAL', 'UNKNOWN']).toContain(failureCode(error));
      expect(isRetryable(failureCode(error))).toBe(false);
    }
  });

  it('names the other codes as gRPC does and retries only what did nothing or is unknown', () => {
    expect(failureCode(grpcError(grpc.status.UNAVAILABLE, 'no healthy upstream'))).toBe('UNAVAILABLE');
    expect(failureCode(new ConnectError('shed', Code.ResourceExhausted))).toBe('RESOURCE_EXHAUSTED');
    expect(failureCode(new ConnectError('bad', Code.InvalidArgument))).toBe('INVALID_ARGUMENT');
    expect(isRetryable('UNAVAILABLE')).toBe(true);
    expect(isRetryable('RESOURCE_EXHAUSTED')).toBe(true);
    expect(isRetryable('INVALID_ARGUMENT')).toBe(false);
    expect(failureCode(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
  });
});
