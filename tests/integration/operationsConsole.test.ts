import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateOperatorRequest, CreateServiceTokenRequest, ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import {
  DeliveryState,
  ListOutboundDeliveriesRequest,
  ListWebhookNotificationsRequest,
  ResendOutboundDeliveriesRequest,
  ResendOutboundDeliveryRequest,
} from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { onDatabase } from '../support/postgres.js';

/**
 * The operations console's calls (issue 33 §7): deliveries that gave up,
 * listed across charges and resent; notifications filtered by when they came.
 */

let stack: TestStack;
let connect: Driver;
let receiver: Server;
let receiverAnswers = 500;
let receiverUrl: string;
let accountId: string;

beforeAll(async () => {
  // One retry: a delivery gives up after its second failed attempt.
  stack = await startTestStack({ env: { OUTBOUND_RETRY_SCHEDULE_MS: '100' } });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(receiverAnswers).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'console', publicKey: 'pk', secretKey: 'sk' }));
});

afterAll(async () => {
  receiver?.close();
  connect?.close();
  await stack?.close();
});

async function paidCharge(webhookUrl = receiverUrl): Promise<string> {
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: { amount: 2300, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, webhookUrl },
    }),
  );
  await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  return transaction.id;
}

const gaveUp = async (driver: Driver) =>
  (await driver.call('webhooks', 'listOutboundDeliveries', ListOutboundDeliveriesRequest.fromPartial({ state: DeliveryState.DELIVERY_STATE_GAVE_UP })))
    .deliveries;

describe('outbound deliveries that gave up', () => {
  it('are listed across charges without a transaction id, and one resend delivers it', async () => {
    receiverAnswers = 500;
    const chargeId = await paidCharge();
    const [delivery] = await eventually(
      async () => {
        const found = (await gaveUp(connect)).filter((d: any) => d.transactionId === chargeId);
        return found.length > 0 && found;
      },
      15_000,
      'a delivery that gave up',
    );
    expect(delivery.attempts.map((a: any) => a.responseStatus)).toEqual([500, 500]);

    receiverAnswers = 204;
    const { delivery: queued } = await connect.call('webhooks', 'resendOutboundDelivery', ResendOutboundDeliveryRequest.fromPartial({ id: delivery.id }));
    expect(queued.state).toBe(DeliveryState.DELIVERY_STATE_PENDING);
    const delivered = await eventually(
      async () => {
        const { deliveries } = await stack.client.call(
          'webhooks',
          'listOutboundDeliveries',
          ListOutboundDeliveriesRequest.fromPartial({ transactionId: chargeId }),
        );
        return deliveries[0]?.state === DeliveryState.DELIVERY_STATE_DELIVERED && deliveries[0];
      },
      15_000,
      'the resent delivery delivered',
    );
    expect(delivered.attempts.map((a: any) => a.responseStatus)).toEqual([500, 500, 204]);
    expect((await gaveUp(connect)).map((d: any) => d.id)).not.toContain(delivery.id);

    const resendAgain = () => connect.call('webhooks', 'resendOutboundDelivery', ResendOutboundDeliveryRequest.fromPartial({ id: delivery.id }));
    expect(await failureOf(resendAgain())).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(await errorDetailsOf(resendAgain())).toMatchObject({ reason: 'DELIVERY_NOT_GAVE_UP' });
  });

  it('a resend needs notifications:write; an unknown id is NOT_FOUND; a list needs a transaction or a state', async () => {
    const { secret } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: 'console reader', scopes: ['notifications:read'], providerAccountIds: [] }),
    );
    expect(
      await failureOf(connect.call('webhooks', 'resendOutboundDelivery', ResendOutboundDeliveryRequest.fromPartial({ id: crypto.randomUUID() }), secret)),
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(await gaveUp(connect)).toEqual(
      await connect
        .call('webhooks', 'listOutboundDeliveries', ListOutboundDeliveriesRequest.fromPartial({ state: DeliveryState.DELIVERY_STATE_GAVE_UP }), secret)
        .then((r: any) => r.deliveries),
    );
    expect(
      await failureOf(stack.client.call('webhooks', 'resendOutboundDelivery', ResendOutboundDeliveryRequest.fromPartial({ id: crypto.randomUUID() }))),
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(stack.client.call('webhooks', 'resendOutboundDelivery', ResendOutboundDeliveryRequest.fromPartial({ id: 'x' })))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await failureOf(stack.client.call('webhooks', 'listOutboundDeliveries', ListOutboundDeliveriesRequest.fromPartial({})))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('outbound deliveries that gave up, after an outage', () => {
  it('page newest first without repeats, filtered by merchant address and by when they were made', async () => {
    receiverAnswers = 500;
    const outageUrl = receiverUrl.replace('/hooks', '/queda');
    const charges = await Promise.all([paidCharge(outageUrl), paidCharge(outageUrl), paidCharge(outageUrl)]);
    const other = await paidCharge(receiverUrl.replace('/hooks', '/outra'));
    const list = (request: Partial<ListOutboundDeliveriesRequest>) =>
      connect.call(
        'webhooks',
        'listOutboundDeliveries',
        ListOutboundDeliveriesRequest.fromPartial({ state: DeliveryState.DELIVERY_STATE_GAVE_UP, ...request }),
      ) as Promise<{ deliveries: { transactionId: string; createdAt: Date }[]; nextPageToken: string }>;
    await eventually(async () => (await list({ url: outageUrl })).deliveries.length === 3, 15_000, 'the three deliveries to give up');
    await eventually(async () => (await list({})).deliveries.some((d) => d.transactionId === other), 15_000, 'the other one to give up');

    const first = await list({ url: outageUrl, pageSize: 2 });
    expect(first.deliveries).toHaveLength(2);
    expect(first.nextPageToken).not.toBe('');
    const second = await list({ url: outageUrl, pageSize: 2, pageToken: first.nextPageToken });
    expect(second.nextPageToken).toBe('');
    const paged = [...first.deliveries, ...second.deliveries];
    expect(paged.map((d) => d.transactionId).sort()).toEqual([...charges].sort());
    const times = paged.map((d) => d.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const today = new Date(new Date().toISOString().slice(0, 10));
    expect((await list({ url: outageUrl, createdTo: today })).deliveries).toEqual([]);
    expect((await list({ url: outageUrl, createdFrom: today })).deliveries).toHaveLength(3);
    expect(await failureOf(list({ pageToken: 'not-a-token' }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failureOf(list({ createdFrom: new Date(), createdTo: today }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('deliveries that gave up, paged by the database', () => {
  it('keep their order across pages when several were made in the same millisecond (ties broken by id)', async () => {
    // Written straight into the table: the gateway never makes two in one millisecond on purpose, a busy one does.
    const url = 'https://mesmo-instante.example/hooks';
    const at = new Date('2026-11-01T12:00:00.000Z');
    const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
    await onDatabase(stack.database.url, async (db) => {
      for (const [n, id] of ids.entries())
        await db.query(
          `insert into outbound_deliveries (id, event_id, transaction_id, url, body, state, attempts, next_attempt_at, created_at)
           values ($1, $2, $3, $4, '{}', 'GAVE_UP', 2, $5, $5)`,
          [id, 900_000 + n, crypto.randomUUID(), url, at],
        );
    });
    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await connect.call(
        'webhooks',
        'listOutboundDeliveries',
        ListOutboundDeliveriesRequest.fromPartial({ state: DeliveryState.DELIVERY_STATE_GAVE_UP, url, pageSize: 2, pageToken }),
      );
      expect(page.deliveries.length).toBeLessThanOrEqual(2);
      seen.push(...page.deliveries.map((d: any) => d.id));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen).toEqual([...ids].sort().reverse());
  });
});

describe('deliveries that gave up, resent in bulk by the gateway', () => {
  type BulkRequest = Parameters<typeof ResendOutboundDeliveriesRequest.fromPartial>[0];
  const resendMany = (request: BulkRequest, token?: string, driver: Driver = connect) =>
    driver.call('webhooks', 'resendOutboundDeliveries', ResendOutboundDeliveriesRequest.fromPartial(request), token) as Promise<{
      queued: number;
      skipped: number;
      notFound: number;
    }>;
  const gaveUpAt = async (url: string, count: number) =>
    eventually(
      async () => {
        const { deliveries } = await connect.call(
          'webhooks',
          'listOutboundDeliveries',
          ListOutboundDeliveriesRequest.fromPartial({ state: DeliveryState.DELIVERY_STATE_GAVE_UP, url }),
        );
        return deliveries.length === count && (deliveries as { id: string; transactionId: string }[]);
      },
      15_000,
      `${count} deliveries to ${url} to give up`,
    );
  const stateOf = async (transactionId: string) =>
    (await connect.call('webhooks', 'listOutboundDeliveries', ListOutboundDeliveriesRequest.fromPartial({ transactionId }))).deliveries[0].state;
  const bulkAudits = async () =>
    (
      await stack.client.call(
        'access',
        'listAuditEvents',
        ListAuditEventsRequest.fromPartial({ action: 'gateway.v1.WebhookService/ResendOutboundDeliveries', pageSize: 500 }),
      )
    ).events as { outcome: string; detail: string }[];

  it('by ids: queues those that gave up, skips those already queued or delivered, counts the unknown, audits once with the counts', async () => {
    receiverAnswers = 500;
    const url = receiverUrl.replace('/hooks', '/lote-ids');
    await Promise.all([paidCharge(url), paidCharge(url), paidCharge(url)]);
    const [a, b, c] = await gaveUpAt(url, 3);
    const auditsBefore = (await bulkAudits()).length;

    receiverAnswers = 204;
    const unknown = crypto.randomUUID();
    expect(await resendMany({ ids: [a!.id, b!.id, a!.id, unknown] })).toEqual({ queued: 2, skipped: 0, notFound: 1 });
    const audits = await bulkAudits();
    expect(audits).toHaveLength(auditsBefore + 1);
    expect(audits[0]).toMatchObject({ outcome: 'OK' });
    expect(JSON.parse(audits[0]!.detail)).toEqual({ queued: 2, skipped: 0, notFound: 1 });

    // The same click again, with the third one chosen too: only the third moves.
    expect(await resendMany({ ids: [a!.id, b!.id, c!.id] })).toEqual({ queued: 1, skipped: 2, notFound: 0 });
    for (const delivery of [a!, b!, c!])
      await eventually(async () => (await stateOf(delivery.transactionId)) === DeliveryState.DELIVERY_STATE_DELIVERED, 15_000, 'delivered');
    expect(await resendMany({ ids: [a!.id, b!.id, c!.id] })).toEqual({ queued: 0, skipped: 3, notFound: 0 });
  });

  it('by filter: counts first if asked, then queues every one that gave up to that address and in those days, none elsewhere', async () => {
    receiverAnswers = 500;
    const url = receiverUrl.replace('/hooks', '/lote-filtro');
    const elsewhere = receiverUrl.replace('/hooks', '/lote-fora');
    await Promise.all([paidCharge(url), paidCharge(url), paidCharge(url), paidCharge(elsewhere)]);
    const outage = await gaveUpAt(url, 3);
    const [other] = await gaveUpAt(elsewhere, 1);

    // A confirmation's count first: nothing moves.
    expect(await resendMany({ filter: { url }, validateOnly: true })).toEqual({ queued: 3, skipped: 0, notFound: 0 });
    expect(await resendMany({ ids: [other!.id, crypto.randomUUID()], validateOnly: true })).toEqual({ queued: 1, skipped: 0, notFound: 1 });
    expect(await gaveUpAt(url, 3)).toHaveLength(3);
    const today = new Date(new Date().toISOString().slice(0, 10));
    expect(await resendMany({ filter: { url, createdTo: today } })).toEqual({ queued: 0, skipped: 0, notFound: 0 });
    receiverAnswers = 204;
    expect(await resendMany({ filter: { url, createdFrom: today } })).toEqual({ queued: 3, skipped: 0, notFound: 0 });
    expect(JSON.parse((await bulkAudits())[0]!.detail)).toEqual({ queued: 3, skipped: 0, notFound: 0 });
    for (const delivery of outage)
      await eventually(async () => (await stateOf(delivery.transactionId)) === DeliveryState.DELIVERY_STATE_DELIVERED, 15_000, 'delivered');
    expect(await stateOf(other!.transactionId)).toBe(DeliveryState.DELIVERY_STATE_GAVE_UP);
    expect(await resendMany({ filter: { url } })).toEqual({ queued: 0, skipped: 0, notFound: 0 });
  });

  it('refuses a viewer (it needs notifications:write, as one resend does), and names the field and rule of a bad request', async () => {
    await stack.client.call(
      'access',
      'createOperator',
      CreateOperatorRequest.fromPartial({ email: 'leitor@example.com', role: 'viewer', password: 'a long viewer password' }),
    );
    const signIn = await fetch(`${stack.gateway.httpUrl}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'leitor@example.com', password: 'a long viewer password' }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const asViewer = connectDriver(stack.gateway.httpUrl!, null, { cookie, 'x-csrf-token': csrfToken });
    try {
      expect(await failureOf(resendMany({ ids: [crypto.randomUUID()] }, undefined, asViewer))).toEqual({
        code: 'PERMISSION_DENIED',
        message: 'permission denied: this call needs notifications:write',
      });
      expect(await failureOf(resendMany({ filter: {} }, undefined, asViewer))).toMatchObject({ code: 'PERMISSION_DENIED' });
    } finally {
      asViewer.close();
    }

    const refusal = async (request: BulkRequest) => {
      expect(await failureOf(resendMany(request))).toMatchObject({ code: 'INVALID_ARGUMENT' });
      const { fields, fieldReasons } = await errorDetailsOf(resendMany(request));
      return { fields, fieldReasons };
    };
    expect(await refusal({})).toEqual({ fields: ['ids'], fieldReasons: ['REQUIRED'] });
    expect(await refusal({ ids: [crypto.randomUUID()], filter: {} })).toEqual({ fields: ['filter'], fieldReasons: ['NOT_ALLOWED'] });
    expect(await refusal({ ids: Array.from({ length: 501 }, () => crypto.randomUUID()) })).toEqual({ fields: ['ids'], fieldReasons: ['TOO_MANY_ITEMS'] });
    expect(await refusal({ ids: ['x'] })).toEqual({ fields: ['ids[0]'], fieldReasons: ['INVALID_ID'] });
    expect(await refusal({ filter: { createdFrom: new Date(), createdTo: new Date(Date.now() - 86_400_000) } })).toEqual({
      fields: ['filter.created_to'],
      fieldReasons: ['RANGE_REVERSED'],
    });
  });
});

describe('notifications by when they came', () => {
  it('keeps those received inside the range and refuses a range that ends before it starts', async () => {
    receiverAnswers = 204;
    const before = new Date(Date.now() - 1000);
    const chargeId = await paidCharge();
    const list = async (range: { receivedFrom?: Date; receivedTo?: Date }) =>
      (await connect.call('webhooks', 'listWebhookNotifications', ListWebhookNotificationsRequest.fromPartial({ subjectId: chargeId, pageSize: 50, ...range })))
        .notifications;
    await eventually(async () => (await list({})).some((n: any) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_APPLIED), 15_000, 'an applied notification');
    const later = new Date(Date.now() + 60_000);
    expect(await list({ receivedFrom: before, receivedTo: later })).not.toHaveLength(0);
    expect(await list({ receivedFrom: later })).toHaveLength(0);
    expect(await list({ receivedTo: before })).toHaveLength(0);
    const backwards = () =>
      connect.call('webhooks', 'listWebhookNotifications', ListWebhookNotificationsRequest.fromPartial({ receivedFrom: later, receivedTo: before }));
    expect(await failureOf(backwards())).toEqual({ code: 'INVALID_ARGUMENT', message: 'received_to must be after received_from' });
    expect((await errorDetailsOf(backwards())).fields).toEqual(['received_to']);
  });
});
