import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CreateCardTokenRequest, WatchEventsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { RPC_RULES } from '../../server/transport/permissions.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { connectDriver, failureOf, type Driver, type ServiceName } from '../support/clients.js';
import type * as grpc from '@grpc/grpc-js';
import { PaymentGatewayServiceService } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { ProviderAccountServiceService } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SandboxServiceService } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { WebhookServiceService } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { AccessServiceService } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { UploadServiceService } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { RoutingServiceService } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { DisputeServiceService } from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 28, point 2: a publishable key is a service token with cards:tokenize and nothing else, one provider
 * account, and the web pages' origins it may be used from. It creates card tokens from those pages only.
 */
const SHOP = 'https://shop.example';
/** More than the walk of every other RPC makes with one key. */
const BURST = 80;
const TOKENIZE = '/gateway.v1.PaymentGatewayService/CreateCardToken';
const card = { cardNumber: SANDBOX_TEST_CARDS.approved, holderName: 'Ana Souza', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' };

/** Each service by its name in an RPC's path: the driver's name for it and its grpc-js definition. */
const DEFINITIONS: Record<string, { name: ServiceName; service: grpc.ServiceDefinition }> = {
  PaymentGatewayService: { name: 'gateway', service: PaymentGatewayServiceService },
  ProviderAccountService: { name: 'accounts', service: ProviderAccountServiceService },
  SandboxService: { name: 'sandbox', service: SandboxServiceService },
  WebhookService: { name: 'webhooks', service: WebhookServiceService },
  AccessService: { name: 'access', service: AccessServiceService },
  UploadService: { name: 'upload', service: UploadServiceService },
  RoutingService: { name: 'routes', service: RoutingServiceService },
  DisputeService: { name: 'disputes', service: DisputeServiceService },
};

let stack: TestStack;
let accountA: string;
let accountB: string;

const createAccount = async (name: string) =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: `sk-${name}` })).providerAccount
    .id as string;

const publishableKey = async (overrides: Partial<CreateServiceTokenRequest> = {}) =>
  stack.client.call(
    'access',
    'createServiceToken',
    CreateServiceTokenRequest.fromPartial({
      name: 'shop page',
      scopes: ['cards:tokenize'],
      providerAccountIds: [accountA],
      allowedOrigins: [SHOP],
      ...overrides,
    }),
  );

/** CreateCardToken as a browser page sends it: Connect's JSON over fetch, with the page's Origin. */
const tokenize = (key: string, origin: string | undefined, providerAccountId = accountA) =>
  fetch(`${stack.gateway.httpUrl}${TOKENIZE}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...(origin ? { origin } : {}) },
    body: JSON.stringify({ providerAccountId, card }),
  });

beforeAll(async () => {
  stack = await startTestStack({ env: { PUBLISHABLE_RATE_LIMIT_PER_SECOND: '0.001', PUBLISHABLE_RATE_LIMIT_BURST: String(BURST) } });
  accountA = await createAccount('a');
  accountB = await createAccount('b');
});
afterAll(async () => {
  await stack?.close();
});

describe('creating a publishable key', () => {
  it('is a token with its origins, and a gwpk_ secret', async () => {
    const { token, secret } = await publishableKey();
    expect(secret).toMatch(/^gwpk_[\w-]{43}$/);
    expect(token).toMatchObject({ scopes: ['cards:tokenize'], providerAccountIds: [accountA], allowedOrigins: [SHOP] });
  });

  it.each([
    [{ allowedOrigins: ['https://shop.example/'] }, 'allowed_origins: "https://shop.example/" is not an origin'],
    [{ allowedOrigins: ['shop.example'] }, 'allowed_origins: "shop.example" is not an origin'],
    [{ allowedOrigins: ['ftp://shop.example'] }, 'allowed_origins: "ftp://shop.example" is not an origin'],
    [{ scopes: ['payments:write'] }, 'a publishable key (allowed_origins set) holds cards:tokenize and nothing else'],
    [{ scopes: ['cards:tokenize', 'payments:read'] }, 'a publishable key (allowed_origins set) holds cards:tokenize and nothing else'],
    [{ providerAccountIds: [] }, 'a publishable key (allowed_origins set) names exactly one provider account'],
  ])('refuses %j', async (overrides, text) => {
    const failure = await failureOf(publishableKey(overrides));
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(failure.message).toContain(text);
  });

  it('refuses two accounts', async () => {
    expect((await failureOf(publishableKey({ providerAccountIds: [accountA, accountB] }))).message).toContain('names exactly one provider account');
  });
});

describe('a publishable key', () => {
  let key: string;
  beforeAll(async () => {
    key = (await publishableKey()).secret;
  });

  it('creates a card token from a page of its origin, answered with CORS for that page', async () => {
    const answer = await tokenize(key, SHOP);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    const { cardToken } = (await answer.json()) as { cardToken: string };
    expect(cardToken).not.toBe('');
    expect(cardToken).not.toContain(card.cardNumber);
  });

  it('is refused from an origin not on its list, with a text the page can read', async () => {
    const answer = await tokenize(key, 'https://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    expect(await answer.json()).toMatchObject({
      code: 'permission_denied',
      message: "permission denied: origin https://evil.example is not one of this publishable key's allowed origins",
    });
  });

  it('is refused without an Origin (not a web page), over Connect and over gRPC', async () => {
    const answer = await tokenize(key, undefined);
    expect(answer.status).toBe(403);
    const refusal = {
      code: 'PERMISSION_DENIED',
      message: 'permission denied: a publishable key is used from a web page, and this call has no Origin header; servers use a service token',
    };
    expect(((await answer.json()) as { message: string }).message).toBe(refusal.message);
    expect(
      await failureOf(stack.client.call('gateway', 'createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: accountA, card }), key)),
    ).toEqual(refusal);
  });

  it('is refused for another provider account than its own', async () => {
    const answer = await tokenize(key, SHOP, accountB);
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { message: string }).message).toBe('permission denied: this token is limited to other provider accounts');
  });

  it('answers the preflight of a page of any origin (the preflight carries no key to look up)', async () => {
    const answer = await fetch(`${stack.gateway.httpUrl}${TOKENIZE}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://other.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://other.example');
    expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('cannot make any other call, even from its own origin: PERMISSION_DENIED', async () => {
    const walker = (await publishableKey({ name: 'walker' })).secret;
    const driver: Driver = connectDriver(stack.gateway.httpUrl!, walker, { origin: SHOP });
    const others = Object.keys(RPC_RULES).filter((path) => path !== TOKENIZE && !path.endsWith('/WatchEvents'));
    expect(others.length).toBeGreaterThan(30);
    try {
      for (const path of others) {
        const [, service, method] = /^\/gateway\.v1\.(\w+)\/(\w+)$/.exec(path)!;
        const name = method!.charAt(0).toLowerCase() + method!.slice(1);
        const definition = DEFINITIONS[service!]!;
        // The message with every field at its default: the key is refused before the request is read.
        const empty = (definition.service as Record<string, grpc.MethodDefinition<unknown, unknown>>)[name]!.requestDeserialize(Buffer.alloc(0));
        const failure = await failureOf(driver.call(definition.name, name, empty));
        expect({ path, ...failure }).toEqual({
          path,
          code: 'PERMISSION_DENIED',
          message: 'permission denied: a publishable key can only create card tokens (CreateCardToken)',
        });
      }
      const stream = driver.watch(WatchEventsRequest.fromPartial({}));
      await expect(stream.next(5_000)).rejects.toMatchObject({
        rawMessage: 'permission denied: a publishable key can only create card tokens (CreateCardToken)',
      });
      stream.close();
    } finally {
      driver.close();
    }
  });

  it('is rate-limited per key and address: past its burst, RESOURCE_EXHAUSTED', async () => {
    const limited = (await publishableKey({ name: 'limited' })).secret;
    // Refused calls count too (a script trying origins spends its budget): the cheap way to reach the burst.
    const statuses = new Set<number>();
    for (let call = 0; call < BURST; call++) statuses.add((await tokenize(limited, 'https://evil.example')).status);
    expect([...statuses]).toEqual([403]);
    const answer = await tokenize(limited, SHOP);
    expect(answer.status).toBe(429);
    expect(((await answer.json()) as { message: string }).message).toMatch(/^rate limit reached for this caller/);
    // Another key of the same shop has a budget of its own.
    expect((await tokenize((await publishableKey({ name: 'other' })).secret, SHOP)).status).toBe(200);
  });

  it('stops working once revoked', async () => {
    const { token, secret } = await publishableKey({ name: 'revoked' });
    await stack.client.call('access', 'revokeServiceToken', { id: token.id });
    expect((await tokenize(secret, SHOP)).status).toBe(401);
  });
});

describe('service tokens', () => {
  it('with payments:write still create card tokens (payments:write implies cards:tokenize), from no page at all', async () => {
    const { secret } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: 'checkout', scopes: ['payments:write'], providerAccountIds: [] }),
    );
    const { cardToken } = await stack.client.call(
      'gateway',
      'createCardToken',
      CreateCardTokenRequest.fromPartial({ providerAccountId: accountA, card }),
      secret,
    );
    expect(cardToken).not.toBe('');
  });
});
