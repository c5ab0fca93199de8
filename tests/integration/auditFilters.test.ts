import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateServiceTokenRequest, ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §6, audit trail: ListAuditEvents filters by who (the actor's name, ignoring case), action, resource and a
 * time range, pages with a cursor within the filters, and refuses a range that ends before it starts. Rows are
 * written straight into the table (it refuses only UPDATE and DELETE), so their times are known.
 */
let stack: TestStack;
let connect: Driver;
let db: pg.Client;

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute));

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  for (let minute = 0; minute < 10; minute++)
    await db.query(
      `insert into audit_events (id, at, actor_kind, actor_id, actor_name, action, resource, source, outcome, detail)
       values (gen_random_uuid(), $1, 'operator', $2, $3, $4, $5, '127.0.0.1', 'OK', '')`,
      [
        at(minute),
        minute % 2 ? 'id-ana' : 'id-bia',
        minute % 2 ? 'ana@example.com' : 'bia_100%@example.com',
        minute < 5 ? 'gateway.v1.AccessService/UpdateOperator' : 'gateway.v1.AccessService/CreateServiceToken',
        `resource-${minute % 3}`,
      ],
    );
});
afterAll(async () => {
  await db?.end();
  connect?.close();
  await stack?.close();
});

describe.each(['gRPC', 'Connect'] as const)('the audit trail over %s', (transport) => {
  const client = () => (transport === 'gRPC' ? stack.client : connect);
  const minutes = async (filter: Partial<ListAuditEventsRequest>) => {
    const { events } = await client().call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ pageSize: 500, ...filter }));
    return events.filter((event: { at: Date }) => event.at < at(60)).map((event: { at: Date }) => event.at.getUTCMinutes());
  };

  it('filters by who, ignoring case and taking % and _ as themselves', async () => {
    await expect(minutes({ actorName: 'ANA@example.com' })).resolves.toEqual([9, 7, 5, 3, 1]);
    await expect(minutes({ actorName: 'bia_100%@example.com' })).resolves.toEqual([8, 6, 4, 2, 0]);
    await expect(minutes({ actorName: 'bia_1%' })).resolves.toEqual([]);
  });

  it('filters by a time range (from included, to excluded), with action and resource', async () => {
    await expect(minutes({ from: at(3), to: at(7) })).resolves.toEqual([6, 5, 4, 3]);
    await expect(minutes({ from: at(8) })).resolves.toEqual([9, 8]);
    await expect(minutes({ to: at(2) })).resolves.toEqual([1, 0]);
    await expect(minutes({ from: at(2), to: at(9), action: 'gateway.v1.AccessService/UpdateOperator', resource: 'resource-0' })).resolves.toEqual([3]);
  });

  it('pages through the filtered events with the cursor, each once', async () => {
    const seen: number[] = [];
    let pageToken = '';
    do {
      const page = await client().call(
        'access',
        'listAuditEvents',
        ListAuditEventsRequest.fromPartial({ actorName: 'ana@example.com', pageSize: 2, pageToken }),
      );
      seen.push(...page.events.map((event: { at: Date }) => event.at.getUTCMinutes()));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen).toEqual([9, 7, 5, 3, 1]);
  });

  it('refuses a range that ends before it starts, naming the field', async () => {
    const backwards = () => client().call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ from: at(5), to: at(5) }));
    expect(await failureOf(backwards())).toEqual({ code: 'INVALID_ARGUMENT', message: 'to must be after from' });
    expect((await errorDetailsOf(backwards())).fields).toEqual(['to']);
  });
});

it('a caller without audit:read may not read the trail', async () => {
  const { secret } = await stack.client.call(
    'access',
    'createServiceToken',
    CreateServiceTokenRequest.fromPartial({ name: 'reader', scopes: ['payments:read'] }),
  );
  expect(await failureOf(stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ actorName: 'ana@example.com' }), secret))).toEqual(
    {
      code: 'PERMISSION_DENIED',
      message: 'permission denied: this call needs audit:read',
    },
  );
});
