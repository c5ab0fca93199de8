import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, WatchEventsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { ListOutboundDeliveriesRequest, ListWebhookNotificationsRequest } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { capturedLogger } from '../support/logCapture.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Input the database would refuse after the provider had already acted is
 * refused up front, over both transports, with INVALID_ARGUMENT and a
 * BadRequest naming the field (issue "Hardening", items 4 and 7).
 */
let stack: TestStack;
let connect: Driver;
let accountId: string;
const log = capturedLogger('info');

beforeAll(async () => {
  stack = await startTestStack({ logger: log.logger });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'validation', publicKey: 'pk', secretKey: 'sk' }));
});

afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const pix = (transaction: Record<string, unknown>) =>
  CreateTransactionRequest.fromPartial({
    providerAccountId: accountId,
    transaction: { amount: 1000, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, ...transaction },
  });

const cases: [what: string, service: 'gateway' | 'webhooks', method: string, request: () => unknown, field: string][] = [
  ['a currency longer than 3', 'gateway', 'createTransaction', () => pix({ currency: 'BRLX' }), 'transaction.currency'],
  ['an order_id over its column size', 'gateway', 'createTransaction', () => pix({ orderId: 'o'.repeat(256) }), 'transaction.order_id'],
  [
    'a customer name over its column size',
    'gateway',
    'createTransaction',
    () => pix({ customer: { name: 'n'.repeat(256), email: 'a@b.co', document: '12345678909', phone: '11999999999' } }),
    'transaction.customer.name',
  ],
  ['a NUL character', 'gateway', 'createTransaction', () => pix({ description: 'paid\u0000' }), 'transaction.description'],
  ['an amount beyond 2^53', 'gateway', 'createTransaction', () => pix({ amount: 2 ** 53 + 2 }), 'transaction.amount'],
  ['an id over the length limit', 'gateway', 'getTransaction', () => GetTransactionRequest.fromPartial({ id: 'i'.repeat(1024 * 1024) }), 'id'],
  [
    'a non-UUID account filter',
    'webhooks',
    'listWebhookNotifications',
    () => ListWebhookNotificationsRequest.fromPartial({ providerAccountId: 'not-a-uuid' }),
    'provider_account_id',
  ],
  [
    'a non-UUID subject filter',
    'webhooks',
    'listWebhookNotifications',
    () => ListWebhookNotificationsRequest.fromPartial({ subjectId: "1' or '1'='1" }),
    'subject_id',
  ],
  ['a negative page size', 'webhooks', 'listWebhookNotifications', () => ListWebhookNotificationsRequest.fromPartial({ pageSize: -1 }), 'page_size'],
  [
    'a non-UUID transaction filter',
    'webhooks',
    'listOutboundDeliveries',
    () => ListOutboundDeliveriesRequest.fromPartial({ transactionId: 'x' }),
    'transaction_id',
  ],
];

describe.each(['grpc-js', 'connect-web'])('over %s', (transport) => {
  const driver = () => (transport === 'grpc-js' ? stack.client : connect);

  it.each(cases)('refuses %s with INVALID_ARGUMENT naming the field', async (_what, service, method, request, field) => {
    const failure = await failureOf(driver().call(service, method, request()));
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(failure.message).toContain(field);
    expect((await errorDetailsOf(driver().call(service, method, request()))).fields).toEqual([field]);
  });

  it('refuses a WatchEvents cursor beyond bigint, and one that is not a number', async () => {
    for (const afterEventId of ['9223372036854775808', 'abc']) {
      const stream = driver().watch(WatchEventsRequest.fromPartial({ afterEventId }));
      const failure = await failureOf(stream.next());
      stream.close();
      expect(failure).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(failure.message).toContain('after_event_id');
    }
  });

  it('refuses a non-UUID account in the WatchEvents filter', async () => {
    const stream = driver().watch(WatchEventsRequest.fromPartial({ afterEventId: '0', providerAccountIds: [accountId, 'nope'] }));
    const failure = await failureOf(stream.next());
    stream.close();
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(failure.message).toContain('provider_account_ids[1]');
  });

  it('charges nothing for a refused request: no transaction row is written', async () => {
    await failureOf(driver().call('gateway', 'createTransaction', pix({ currency: 'BRLX', orderId: `refused-${transport}` })));
    const { rows } = await (async () => {
      const pg = (await import('pg')).default;
      const db = new pg.Client({ connectionString: stack.database.url });
      await db.connect();
      try {
        return await db.query('select id from transactions where order_id = $1', [`refused-${transport}`]);
      } finally {
        await db.end();
      }
    })();
    expect(rows).toEqual([]);
  });
});

describe('Connect protobuf-JSON decode errors', () => {
  const post = (body: unknown) =>
    fetch(`${stack.gateway.httpUrl}/gateway.v1.PaymentGatewayService/CreateTransaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_TOKEN}` },
      body: JSON.stringify(body),
    });

  it('carry a BadRequest naming the field, as the contract spells it', async () => {
    const response = await post({ providerAccountId: accountId, transaction: { amount: 'abc', paymentMethod: 'PAYMENT_METHOD_PIX' } });
    expect(response.status).toBe(400);
    const error = (await response.json()) as { code: string; details: { type: string; value: string }[] };
    expect(error.code).toBe('invalid_argument');
    expect(error.details.map((detail) => detail.type)).toEqual(['google.rpc.ErrorInfo', 'google.rpc.BadRequest']);
    expect(Buffer.from(error.details[1]!.value, 'base64').toString('latin1')).toContain('transaction.amount');
    // The violation names the nearest general rule, as every INVALID_ARGUMENT does (issue 33 §8).
    expect(Buffer.from(error.details[1]!.value, 'base64').toString('latin1')).toContain('INVALID_VALUE');
  });

  it('name the message field when a whole message is of the wrong JSON type', async () => {
    const response = await post({ providerAccountId: accountId, transaction: 5 });
    const error = (await response.json()) as { details: { type: string; value: string }[] };
    expect(Buffer.from(error.details[1]!.value, 'base64').toString('latin1')).toContain('transaction');
    expect(Buffer.from(error.details[1]!.value, 'base64').toString('latin1')).toContain('cannot decode message gateway.v1.TransactionInput');
  });
});

it('INTERNAL shows a generic message with an error id that is in the log, never the JavaScript error text', async () => {
  const original = stack.gateway.useCases!.payments.listProviders;
  stack.gateway.useCases!.payments.listProviders = () => {
    throw new TypeError('secret internals: relation "transactions" does not exist');
  };
  try {
    for (const driver of [stack.client, connect]) {
      const failure = await failureOf(driver.call('gateway', 'listProviders', {}));
      expect(failure.code).toBe('INTERNAL');
      expect(failure.message).not.toContain('secret internals');
      const errorId = /error id ([0-9a-f-]{36})/.exec(failure.message)?.[1];
      expect(errorId).toBeDefined();
      const logged = log.records().find((line) => line.errorId === errorId);
      expect(logged?.err?.message).toContain('secret internals');
    }
  } finally {
    stack.gateway.useCases!.payments.listProviders = original;
  }
});
