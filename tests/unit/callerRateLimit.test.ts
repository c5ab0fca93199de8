import { describe, expect, it } from '@jest/globals';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.js';
import { rolePrincipal, type Principal } from '../../server/gateway/access.js';
import { GatewayError } from '../../server/lib/errors.js';
import { createLogger } from '../../server/lib/logger.js';
import { CallerRateLimit } from '../../server/transport/callerRateLimit.js';

/** Settings that make loadConfig write nothing into the data folder. */
const env = (more: Record<string, string> = {}) =>
  loadConfig({ DATA_DIR: join(tmpdir(), 'rate-limit-config'), API_TOKENS: 't', SECRETS_KEY: 'k', OUTBOUND_WEBHOOK_SECRET: 's', ...more });

describe('RATE_LIMIT_* (tokens) and OPERATOR_RATE_LIMIT_* (operators)', () => {
  it('default to no limit for tokens, and to 50 calls per second and 100 at once for operators', () => {
    expect(env()).toMatchObject({ rateLimitPerSecond: 0, operatorRateLimitPerSecond: 50, operatorRateLimitBurst: 100 });
    expect(env({ RATE_LIMIT_PER_SECOND: '200' })).toMatchObject({ rateLimitPerSecond: 200, rateLimitBurst: 100 });
  });

  it('turn a limit off with 0 per second, and take fractions of a call per second', () => {
    const logger = createLogger('silent');
    const off = env({ OPERATOR_RATE_LIMIT_PER_SECOND: '0' });
    const settings = (config: typeof off) => ({
      tokens: { perSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst },
      operators: { perSecond: config.operatorRateLimitPerSecond, burst: config.operatorRateLimitBurst },
    });
    expect(CallerRateLimit.of(settings(off), logger)).toBeUndefined();
    expect(CallerRateLimit.of(settings(env()), logger)).toBeDefined();
    expect(env({ RATE_LIMIT_PER_SECOND: '0.5', RATE_LIMIT_BURST: '2' })).toMatchObject({ rateLimitPerSecond: 0.5, rateLimitBurst: 2 });
  });

  it('refuse a limit that would refuse every call, and values that are not numbers', () => {
    expect(() => env({ RATE_LIMIT_PER_SECOND: '10', RATE_LIMIT_BURST: '0' })).toThrow(
      'RATE_LIMIT_BURST must be at least 1 while RATE_LIMIT_PER_SECOND is above 0',
    );
    expect(() => env({ OPERATOR_RATE_LIMIT_BURST: '0' })).toThrow(
      'OPERATOR_RATE_LIMIT_BURST must be at least 1 while OPERATOR_RATE_LIMIT_PER_SECOND is above 0',
    );
    expect(env({ RATE_LIMIT_BURST: '0' }).rateLimitPerSecond).toBe(0);
    expect(() => env({ RATE_LIMIT_PER_SECOND: 'lots' })).toThrow('RATE_LIMIT_PER_SECOND must be a number');
    expect(() => env({ OPERATOR_RATE_LIMIT_BURST: '1.5' })).toThrow('OPERATOR_RATE_LIMIT_BURST must be a whole number');
  });
});

describe('CallerRateLimit', () => {
  const refusal = async (limit: CallerRateLimit, principal: Principal, source?: string) => {
    try {
      await limit.take(principal, source);
    } catch (error) {
      return error as GatewayError;
    }
    throw new Error('the call was let through');
  };

  it('keys budgets by principal kind and id, and logs a caller reaching its limit once per window', async () => {
    const lines: string[] = [];
    const limit = CallerRateLimit.of(
      { tokens: { perSecond: 1, burst: 2 }, operators: { perSecond: 1, burst: 2 } },
      createLogger('warn', { write: (line: string) => void lines.push(line) }),
    )!;
    const service: Principal = { kind: 'service', id: 'same-id', name: 'checkout', permissions: new Set() };
    const operator = rolePrincipal('operator', 'same-id', 'ana@example.com', 'viewer');

    await limit.take(service);
    await limit.take(service);
    const refused = await refusal(limit, service);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused.code).toBe('RESOURCE_EXHAUSTED');
    expect(refused.details.reason).toBe('RATE_LIMITED');
    expect(refused.details.retryAfterMs).toBeGreaterThan(0);
    expect(refused.details.retryAfterMs).toBeLessThanOrEqual(2000);
    await refusal(limit, service);

    await limit.take(operator);
    await limit.take(operator);

    expect(lines.map((line) => JSON.parse(line) as { msg: string; caller: string })).toEqual([
      expect.objectContaining({ msg: 'rate limit reached for a caller', caller: 'service:same-id' }),
    ]);
  });

  it('limits tokens and operators each by their own settings, and leaves a kind whose limit is off alone', async () => {
    const limit = CallerRateLimit.of({ tokens: { perSecond: 0, burst: 100 }, operators: { perSecond: 1, burst: 2 } }, createLogger('silent'))!;
    const service: Principal = { kind: 'service', id: 'checkout', name: 'checkout', permissions: new Set() };
    const bootstrap: Principal = { kind: 'bootstrap', id: 'api-token:1', name: 'API_TOKENS[1]', permissions: new Set() };
    for (let call = 0; call < 500; call++) await Promise.all([limit.take(service), limit.take(bootstrap)]);
    const operator = rolePrincipal('operator', 'ana', 'ana@example.com', 'operator');
    await limit.take(operator);
    await limit.take(operator);
    expect((await refusal(limit, operator)).message).toMatch(/^rate limit reached for this caller: at most 1 call per second, 2 at once; try again in/);
  });

  it("counts a publishable key's calls per address (the key is public), 1 a second and 10 at once by default", async () => {
    expect(env().publishableRateLimit).toEqual({ perSecond: 1, burst: 10 });
    expect(env({ PUBLISHABLE_RATE_LIMIT_PER_SECOND: '0' }).publishableRateLimit.perSecond).toBe(0);
    const limit = CallerRateLimit.of(
      { tokens: { perSecond: 0, burst: 100 }, operators: { perSecond: 0, burst: 100 }, publishable: { perSecond: 1, burst: 2 } },
      createLogger('silent'),
    )!;
    const key: Principal = {
      kind: 'publishable',
      id: 'shop',
      name: 'shop page',
      permissions: new Set(['cards:tokenize']),
      allowedOrigins: ['https://shop.example'],
    };
    await limit.take(key, '198.51.100.1');
    await limit.take(key, '198.51.100.1');
    expect((await refusal(limit, key, '198.51.100.1')).code).toBe('RESOURCE_EXHAUSTED');
    // Another buyer of the same shop is not refused for the first one's calls.
    await limit.take(key, '198.51.100.2');
  });
});
