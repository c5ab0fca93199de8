import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest, WatchEventsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateServiceTokenRequest, ListAuditEventsRequest, ListServiceTokensRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { ListProviderAccountsRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { ListWebhookNotificationsRequest } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue "Operators and access", points 2 and 4: service tokens are created,
 * listed and revoked through the API, kept only as hashes and shown once; a
 * token may be limited to some provider accounts; every change is in an
 * audit trail that can be listed and not edited.
 */
let stack: TestStack;
let connect: Driver;
let db: pg.Client;
let accountA: string;
let accountB: string;

const createAccount = async (name: string) =>
  (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: `sk-${name}-secret` })).providerAccount
    .id as string;

const pix = (providerAccountId: string) =>
  CreateTransactionRequest.fromPartial({ providerAccountId, transaction: { amount: 1500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } });

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  accountA = await createAccount('a');
  accountB = await createAccount('b');
});
afterAll(async () => {
  await db?.end();
  connect?.close();
  await stack?.close();
});

const TRANSPORTS = ['gRPC', 'Connect'] as const;
const over = (transport: (typeof TRANSPORTS)[number]): Driver => (transport === 'gRPC' ? stack.client : connect);

describe.each(TRANSPORTS)('service tokens over %s', (transport) => {
  const client = () => over(transport);

  it('are shown once, kept as a hash, work at once, record their last use, and stop working when revoked', async () => {
    const { token, secret } = await client().call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: `checkout-${transport}`, scopes: ['payments:write'], providerAccountIds: [] }),
    );
    expect(secret).toMatch(/^gwt_[\w-]{43}$/);
    expect(token).toMatchObject({ name: `checkout-${transport}`, scopes: ['payments:write'], createdBy: 'API_TOKENS #1' });
    expect(token.lastUsedAt).toBeUndefined();

    const { rows } = await db.query('select * from service_tokens where id = $1', [token.id]);
    expect(JSON.stringify(rows)).not.toContain(secret.slice(4));
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);

    // payments:write also reads payments, and nothing else.
    const { transaction } = await client().call('gateway', 'createTransaction', pix(accountA), secret);
    expect((await client().call('gateway', 'getTransaction', { id: transaction.id }, secret)).transaction.id).toBe(transaction.id);
    expect(await failureOf(client().call('gateway', 'withdraw', { providerAccountId: accountA }, secret))).toEqual({
      code: 'PERMISSION_DENIED',
      message: 'permission denied: this call needs payouts:write',
    });

    const { tokens } = await client().call('access', 'listServiceTokens', ListServiceTokensRequest.fromPartial({}));
    const listed = tokens.find((candidate: { id: string }) => candidate.id === token.id);
    expect(listed.lastUsedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(tokens)).not.toContain(secret);

    const { token: revoked } = await client().call('access', 'revokeServiceToken', { id: token.id });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect((await failureOf(client().call('gateway', 'getTransaction', { id: transaction.id }, secret))).code).toBe('UNAUTHENTICATED');
    expect(
      (await client().call('access', 'listServiceTokens', ListServiceTokensRequest.fromPartial({}))).tokens.map((t: { id: string }) => t.id),
    ).not.toContain(token.id);
    expect(
      (await client().call('access', 'listServiceTokens', ListServiceTokensRequest.fromPartial({ includeRevoked: true }))).tokens.map(
        (t: { id: string }) => t.id,
      ),
    ).toContain(token.id);
  });

  it('refuses a bad name, an unknown scope, an unknown account and a revoked or unknown id with the field or reason', async () => {
    const create = (request: object) =>
      client().call(
        'access',
        'createServiceToken',
        CreateServiceTokenRequest.fromPartial({ name: 'x', scopes: ['payments:read'], providerAccountIds: [], ...request }),
      );
    expect(await failureOf(create({ name: ' ' }))).toEqual({ code: 'INVALID_ARGUMENT', message: 'name is required' });
    expect(await failureOf(create({ scopes: [] }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'scopes must name at least one permission, e.g. payments:write',
    });
    expect(await failureOf(create({ scopes: ['payments:read', 'money:print'] }))).toEqual({ code: 'INVALID_ARGUMENT', message: 'unknown scope "money:print"' });
    expect((await errorDetailsOf(create({ scopes: ['money:print'] }))).fields).toEqual(['scopes']);
    expect((await errorDetailsOf(create({ providerAccountIds: ['3f0c1d9e-1111-4111-8111-111111111111'] }))).fields).toEqual(['provider_account_ids']);
    expect((await failureOf(client().call('access', 'revokeServiceToken', { id: 'nope' }))).code).toBe('NOT_FOUND');
  });

  it('cannot hand out more than its creator holds', async () => {
    const { secret } = await client().call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: 'token admin', scopes: ['tokens:admin'], providerAccountIds: [] }),
    );
    expect(
      await failureOf(
        client().call(
          'access',
          'createServiceToken',
          CreateServiceTokenRequest.fromPartial({ name: 'escalate', scopes: ['accounts:admin'], providerAccountIds: [] }),
          secret,
        ),
      ),
    ).toEqual({
      code: 'PERMISSION_DENIED',
      message: 'permission denied: a token cannot be given accounts:admin, accounts:read, which its creator does not hold',
    });
  });
});

describe('a token limited to one provider account', () => {
  let limited: string;
  let foreignCharge: string;
  beforeAll(async () => {
    ({ secret: limited } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({
        name: 'only A',
        scopes: ['payments:write', 'accounts:read', 'notifications:read', 'events:read'],
        providerAccountIds: [accountA],
      }),
    ));
    foreignCharge = (await stack.client.call('gateway', 'createTransaction', pix(accountB))).transaction.id;
  });

  it.each(TRANSPORTS)('works on its account and is refused on another, over %s', async (transport) => {
    const client = over(transport);
    const { transaction } = await client.call('gateway', 'createTransaction', pix(accountA), limited);
    expect(transaction.providerAccountId).toBe(accountA);
    expect(await failureOf(client.call('gateway', 'createTransaction', pix(accountB), limited))).toEqual({
      code: 'PERMISSION_DENIED',
      message: 'permission denied: this token is limited to other provider accounts',
    });
    expect((await failureOf(client.call('gateway', 'getTransaction', { id: foreignCharge }, limited))).code).toBe('PERMISSION_DENIED');
    expect((await failureOf(client.call('accounts', 'getProviderAccount', { id: accountB }, limited))).code).toBe('PERMISSION_DENIED');
    const { providerAccounts } = await client.call('accounts', 'listProviderAccounts', ListProviderAccountsRequest.fromPartial({}), limited);
    expect(providerAccounts.map((account: { id: string }) => account.id)).toEqual([accountA]);
    expect(await failureOf(client.call('webhooks', 'listWebhookNotifications', ListWebhookNotificationsRequest.fromPartial({}), limited))).toEqual({
      code: 'PERMISSION_DENIED',
      message: 'permission denied: this token is limited to some provider accounts; set provider_account_id to one of them',
    });
    await client.call('webhooks', 'listWebhookNotifications', ListWebhookNotificationsRequest.fromPartial({ providerAccountId: accountA }), limited);
  });

  it('watches only its own accounts when it names none', async () => {
    const stream = stack.client.watch(WatchEventsRequest.fromPartial({ afterEventId: '', providerAccountIds: [] }), limited);
    try {
      await stack.client.call('gateway', 'createTransaction', pix(accountB));
      const mine = await stack.client.call('gateway', 'createTransaction', pix(accountA));
      await stack.client.call('sandbox', 'simulatePayment', { id: mine.transaction.id });
      const { event } = await stream.next();
      expect(event.providerAccountId).toBe(accountA);
    } finally {
      stream.close();
    }
  });
});

describe('the audit trail', () => {
  it.each(TRANSPORTS)('holds every change with who, what, which resource, from where and the outcome, over %s', async (_name) => {
    const client = over(_name);
    const { token, secret } = await client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: `auditee ${_name}`, scopes: ['payments:read'], providerAccountIds: [] }),
    );
    await failureOf(client.call('gateway', 'createTransaction', pix(accountA), secret));
    const { providerAccount } = await client.call('accounts', 'updateProviderAccount', { id: accountA, name: `renamed ${_name}` });

    // Written before the call answered, not later.
    const { events } = await client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ pageSize: 50 }));
    expect(
      events.find(
        (event: { action: string; resource: string }) =>
          event.action === 'gateway.v1.ProviderAccountService/UpdateProviderAccount' && event.resource === providerAccount.id,
      ),
    ).toMatchObject({
      actorKind: 'bootstrap',
      actorName: 'API_TOKENS #1',
      outcome: 'OK',
      detail: '',
      source: expect.stringContaining('127.0.0.1'),
    });
    expect(
      events.find(
        (event: { action: string; resource: string }) => event.action === 'gateway.v1.AccessService/CreateServiceToken' && event.resource === token.id,
      ),
    ).toBeDefined();
    const { events: denied } = await client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ actorId: token.id }));
    expect(denied).toEqual([
      expect.objectContaining({
        actorKind: 'service',
        actorName: `auditee ${_name}`,
        action: 'gateway.v1.PaymentGatewayService/CreateTransaction',
        resource: accountA,
        outcome: 'PERMISSION_DENIED',
        detail: 'permission denied: this call needs payments:write',
      }),
    ]);
    // Reads are not changes.
    const { events: reads } = await client.call(
      'access',
      'listAuditEvents',
      ListAuditEventsRequest.fromPartial({ action: 'gateway.v1.AccessService/ListAuditEvents' }),
    );
    expect(reads).toEqual([]);
  });

  it('pages newest first and never holds a secret', async () => {
    const first = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ pageSize: 2 }));
    expect(first.events).toHaveLength(2);
    const second = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ pageSize: 2, pageToken: first.nextPageToken }));
    expect(second.events[0].at.getTime()).toBeLessThanOrEqual(first.events[1].at.getTime());
    const { rows } = await db.query('select * from audit_events');
    expect(JSON.stringify(rows)).not.toMatch(/sk-a-secret|gwt_/);
  });

  it('refuses a page token it did not answer, naming page_token (as ListWebhookNotifications does), never a query with a malformed id', async () => {
    const forged = Buffer.from('2026-01-01T00:00:00.000Z|not-a-uuid').toString('base64url');
    for (const driver of [stack.client, connect]) {
      for (const call of [
        driver.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ pageToken: forged })),
        driver.call('webhooks', 'listWebhookNotifications', ListWebhookNotificationsRequest.fromPartial({ pageToken: forged })),
        driver.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ pageToken: 'garbage' })),
      ]) {
        const details = await errorDetailsOf(call);
        expect(details).toMatchObject({ reason: 'INVALID_ARGUMENT', fields: ['page_token'] });
      }
    }
  });

  it('cannot be edited, not even by SQL', async () => {
    await expect(db.query(`update audit_events set outcome = 'OK'`)).rejects.toThrow('audit_events is append-only');
    await expect(db.query('delete from audit_events')).rejects.toThrow('audit_events is append-only');
    await expect(db.query('truncate audit_events')).rejects.toThrow('audit_events is append-only');
  });
});
