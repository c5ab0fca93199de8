import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { ListProvidersRequest, WatchEventsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateOperatorRequest, CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { rateLimitedMessage } from '../../server/transport/callerRateLimit.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { scrape, valueOf } from '../support/metrics.js';

/**
 * Issue "Operators and access", point 8: each caller (every API_TOKENS entry,
 * every service token, every operator) has its own budget of calls, shared by
 * gRPC and Connect; past it a call is RESOURCE_EXHAUSTED with a RetryInfo
 * saying when to try again. The window here is 3 s (1 call per second, 3 at
 * once), long enough for four quick calls to land in it on a slow machine.
 * Issue 32, point 6: by default tokens have no limit (the checkout's volume is
 * the business's) and operators' sessions have one.
 */
const LIMIT = { perSecond: 1, burst: 3 };
const TRANSPORTS = ['gRPC', 'Connect'] as const;
type Transport = (typeof TRANSPORTS)[number];
/** API_TOKENS entries, each a caller of its own; the first is TEST_TOKEN, which sets the others up. */
const API_TOKENS = { gRPC: 'rate-limit-grpc-token', Connect: 'rate-limit-connect-token', shared: 'rate-limit-shared-token', spare: 'rate-limit-spare-token' };
const API_TOKEN_ORDER = [TEST_TOKEN, API_TOKENS.gRPC, API_TOKENS.Connect, API_TOKENS.shared, API_TOKENS.spare];

let stack: TestStack;
let connect: Driver;
let db: pg.Client;
/** A service token per transport, to show that another caller keeps its own budget. */
const serviceTokens = {} as Record<Transport, string>;

const over = (transport: Transport): Driver => (transport === 'gRPC' ? stack.client : connect);
const cheapCall = (driver: Driver, token: string) => driver.call('gateway', 'listProviders', ListProvidersRequest.fromPartial({}), token);

/** Spends a caller's whole budget: `burst` calls, all served. */
async function spend(driver: Driver, token: string): Promise<void> {
  for (let call = 0; call < LIMIT.burst; call++) expect((await cheapCall(driver, token)).providers.length).toBeGreaterThan(0);
}

/** The refusal of a call past the budget, read as each transport's clients read it. */
async function refusal(call: Promise<unknown>) {
  const [failure, details] = await Promise.all([failureOf(call), errorDetailsOf(call)]);
  return { ...failure, ...details };
}

beforeAll(async () => {
  stack = await startTestStack({
    env: { RATE_LIMIT_PER_SECOND: String(LIMIT.perSecond), RATE_LIMIT_BURST: String(LIMIT.burst), API_TOKENS: API_TOKEN_ORDER.join(',') },
  });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  for (const transport of TRANSPORTS) {
    const { secret } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: `rate-limited ${transport}`, scopes: ['payments:read'], providerAccountIds: [] }),
    );
    serviceTokens[transport] = secret;
  }
});
afterAll(async () => {
  await db?.end();
  connect?.close();
  await stack?.close();
});

describe.each(TRANSPORTS)('rate limits over %s', (transport) => {
  it('refuse a caller past its burst with RESOURCE_EXHAUSTED and RetryInfo, leave other callers alone, and serve it again after the delay', async () => {
    const client = over(transport);
    const caller = API_TOKENS[transport];
    await spend(client, caller);

    const refused = await refusal(cheapCall(client, caller));
    expect(refused).toMatchObject({ code: 'RESOURCE_EXHAUSTED', reason: 'RATE_LIMITED', domain: 'gateway.v1' });
    const delay = refused.retryDelayMs!;
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual((LIMIT.burst / LIMIT.perSecond) * 1000);
    expect(refused.message).toBe(rateLimitedMessage(LIMIT, delay));
    expect(refused.message).toMatch(/^rate limit reached for this caller: at most 1 call per second, 3 at once; try again in \d+(\.\d)? s$/);
    expect(refused.retryAfter).toBe(String(Math.ceil(delay / 1000)));

    // A stream counts too: opening one past the budget is refused the same way.
    const stream = client.watch(WatchEventsRequest.fromPartial({ afterEventId: '0' }), caller);
    expect(await failureOf(stream.next())).toMatchObject({ code: 'RESOURCE_EXHAUSTED' });
    stream.close();

    // A service token has a budget of its own.
    expect((await cheapCall(client, serviceTokens[transport])).providers.length).toBeGreaterThan(0);

    await sleep(delay + 50);
    expect((await cheapCall(client, caller)).providers.length).toBeGreaterThan(0);
  });
});

it('gives a caller one budget across gRPC and Connect, refuses before the call is audited, and keeps each API token apart', async () => {
  const caller = API_TOKENS.shared;
  await spend(stack.client, caller);

  // An audited call (creating a token), refused by the limit: no audit row, so a flood of them writes nothing.
  const create = connect.call(
    'access',
    'createServiceToken',
    CreateServiceTokenRequest.fromPartial({ name: 'never made', scopes: ['payments:read'], providerAccountIds: [] }),
    caller,
  );
  expect(await failureOf(create)).toMatchObject({ code: 'RESOURCE_EXHAUSTED' });
  const actor = `api-token:${API_TOKEN_ORDER.indexOf(caller) + 1}`;
  const { rows } = await db.query('select outcome from audit_events where actor_id = $1', [actor]);
  expect(rows).toEqual([]);

  // Another API_TOKENS entry is another caller.
  expect((await cheapCall(connect, API_TOKENS.spare)).providers.length).toBeGreaterThan(0);
});

it('counts the refusals in the metrics by method, streams included', async () => {
  const samples = await scrape(stack.gateway.metricsUrl!);
  const refused = (method: string) => valueOf(samples, 'gateway_rpc_requests_total', { method: `gateway.v1.${method}`, code: 'RESOURCE_EXHAUSTED' });
  expect(refused('PaymentGatewayService/ListProviders')).toBe(2);
  expect(refused('PaymentGatewayService/WatchEvents')).toBe(2);
  expect(refused('AccessService/CreateServiceToken')).toBe(1);
});

describe('the defaults', () => {
  let defaults: TestStack;
  beforeAll(async () => {
    // The test gateway turns both limits off; empty values are the defaults.
    defaults = await startTestStack({ env: { RATE_LIMIT_PER_SECOND: '', OPERATOR_RATE_LIMIT_PER_SECOND: '', OPERATOR_RATE_LIMIT_BURST: '' } });
  });
  afterAll(async () => {
    await defaults?.close();
  });

  it('do not limit a service token: 300 calls at once over both transports are all answered', async () => {
    const { secret } = await defaults.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: 'checkout', scopes: ['payments:read'], providerAccountIds: [] }),
    );
    const viaConnect = connectDriver(defaults.gateway.httpUrl!, secret);
    try {
      const calls = Array.from({ length: 300 }, (_, n) =>
        cheapCall(n % 2 ? viaConnect : defaults.client, secret).then(
          () => 'OK',
          (error) => failureOf(Promise.reject(error)),
        ),
      );
      const answers = await Promise.all(calls);
      expect(answers.filter((answer) => answer !== 'OK')).toEqual([]);
    } finally {
      viaConnect.close();
    }
  });

  it('limit an operator’s session: 50 calls a second, 100 at once', async () => {
    await defaults.client.call(
      'access',
      'createOperator',
      CreateOperatorRequest.fromPartial({ email: 'busy@example.com', role: 'viewer', password: 'a-long-enough-password' }),
    );
    const signedIn = await fetch(`${defaults.gateway.httpUrl}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'busy@example.com', password: 'a-long-enough-password' }),
    });
    const { csrfToken } = (await signedIn.json()) as { csrfToken: string };
    const operator = connectDriver(defaults.gateway.httpUrl!, null, { cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken });
    try {
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 150 }, () =>
          operator.call('gateway', 'listProviders', ListProvidersRequest.fromPartial({})).then(
            () => 'OK',
            (error) => failureOf(Promise.reject(error)),
          ),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const refused = answers.filter((answer) => answer !== 'OK');
      // The bucket holds 100 and refills 50 a second: at most 100 + 50 × the seconds the calls took can pass. Counted
      // from what the clock allowed, so a machine too busy to send 150 calls within a second cannot fail it.
      expect(answers.length - refused.length).toBeLessThanOrEqual(100 + Math.ceil(50 * seconds));
      const expectedRefusals = 150 - 100 - Math.ceil(50 * seconds);
      expect(refused.length).toBeGreaterThanOrEqual(expectedRefusals);
      if (expectedRefusals > 0 || refused.length > 0)
        expect(refused[0]).toMatchObject({
          code: 'RESOURCE_EXHAUSTED',
          message: expect.stringMatching(/^rate limit reached for this caller: at most 50 calls per second, 100 at once;/),
        });
    } finally {
      operator.close();
    }
  });
});
