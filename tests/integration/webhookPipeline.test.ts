import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  ProcessWebhookRequest,
  WatchEventsRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus, WebhookOutcome, WebhookResultType } from '../../gen/ts-proto/gateway/v1/types.js';
import { DeliveryState, ListOutboundDeliveriesRequest, ListWebhookNotificationsRequest } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { NotificationsRepository } from '../../server/db/notificationsRepository.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import { signTimestampedBody, verifyTimestampedSignature } from '../../server/lib/hmacSignature.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_OUTBOUND_SECRET, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';

const WEBHOOK_SECRET = 'whsec-pipeline';
let stack: TestStack;
let gateway: TestStack['gateway'];
let client: Driver;
let signedAccount: { id: string; notificationUrl: string };
let unsignedAccount: { id: string; notificationUrl: string };

beforeAll(async () => {
  stack = await startTestStack({ env: { OUTBOUND_RETRY_SCHEDULE_MS: '100,100,100' } });
  gateway = stack.gateway;
  client = stack.client;
  ({ providerAccount: signedAccount } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'signed',
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret: WEBHOOK_SECRET,
  }));
  ({ providerAccount: unsignedAccount } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'unsigned',
    publicKey: 'pk',
    secretKey: 'sk',
  }));
});

afterAll(async () => {
  await stack?.close();
});

const pix = async (accountId: string, webhookUrl?: string) =>
  (
    await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        transaction: { amount: 1500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, webhookUrl },
      }),
    )
  ).transaction;
const read = async (id: string) => (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction;
const notifications = async (subjectId: string) =>
  (await client.call('webhooks', 'listWebhookNotifications', { subjectId, providerAccountId: '', provider: '', outcome: 0, pageSize: 100, pageToken: '' }))
    .notifications;

function event(eventId: string, type: string, chargeId: string, status: string) {
  const body = JSON.stringify({ id: eventId, type, createdAt: new Date().toISOString(), data: { id: chargeId, status, amount: 1500 } });
  return { body, headers: { 'content-type': 'application/json', 'x-sandbox-event-id': eventId } };
}
const post = (url: string, body: string, headers: Record<string, string>) => fetch(url, { method: 'POST', body, headers });
const signed = (body: string, secret = WEBHOOK_SECRET) => ({ 'x-sandbox-signature': signSandboxPayload(secret, Math.floor(Date.now() / 1000), body) });

describe('provider notifications', () => {
  it('ten deliveries of one notification change the status once', async () => {
    const charge = await pix(signedAccount.id);
    const { body, headers } = event('evt_dup_1', 'charge.paid', charge.transactionId, 'paid');
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(signedAccount.notificationUrl, body, { ...headers, ...signed(body) })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const stored = await eventually(
      async () => {
        const list = await notifications(charge.id);
        return list.length === 10 && list.every((n: any) => n.outcome !== WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED) && list;
      },
      15_000,
      'ten processed notifications',
    );
    const outcomes = stored.map((n: any) => n.outcome).sort();
    expect(outcomes.filter((o: number) => o === WebhookOutcome.WEBHOOK_OUTCOME_APPLIED)).toHaveLength(1);
    expect(outcomes.filter((o: number) => o === WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE)).toHaveLength(9);
    expect((await read(charge.id)).statusHistory.map((c: any) => c.status)).toEqual([
      TransactionStatus.TRANSACTION_STATUS_PENDING,
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
    ]);
  });

  it('a copy processed beside notifications about other charges is the only one called DUPLICATE (dedup keys are claimed together)', async () => {
    const first = await pix(signedAccount.id);
    const original = event('evt_copy_1', 'charge.paid', first.transactionId, 'paid');
    await post(signedAccount.notificationUrl, original.body, { ...original.headers, ...signed(original.body) });
    await eventually(async () => (await read(first.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const others = await Promise.all(Array.from({ length: 6 }, () => pix(signedAccount.id)));
    const answers = await Promise.all([
      post(signedAccount.notificationUrl, original.body, { ...original.headers, ...signed(original.body) }),
      ...others.map((charge, i) => {
        const { body, headers } = event(`evt_copy_other_${i}`, 'charge.paid', charge.transactionId, 'paid');
        return post(signedAccount.notificationUrl, body, { ...headers, ...signed(body) });
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(7).fill(200));
    const outcomes = await eventually(async () => {
      // A notification names its charge once processed: the original and its copy for the first, one for each other.
      const lists = await Promise.all([first, ...others].map((charge) => notifications(charge.id)));
      return (
        lists.every((list, i) => list.length === (i === 0 ? 2 : 1)) &&
        lists.flat().every((n: any) => n.outcome !== WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED) &&
        lists
      );
    });
    expect(outcomes[0]!.map((n: any) => n.outcome).sort()).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE].sort());
    for (const list of outcomes.slice(1)) expect(list.map((n: any) => n.outcome)).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED]);
    for (const charge of others) expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('ProcessWebhook answers what came of each notification, never RECEIVED, while the workers run beside it', async () => {
    // The sidecar's workers poll the same queue: a notification they could take first is the race this guards.
    const charges = await Promise.all(Array.from({ length: 12 }, () => pix(signedAccount.id)));
    const answers = await Promise.all(
      charges.map((charge, i) => {
        const { body } = event(`evt_rpc_${i}`, 'charge.paid', charge.transactionId, 'paid');
        return client.call(
          'gateway',
          'processWebhook',
          ProcessWebhookRequest.fromPartial({ providerAccountId: signedAccount.id, body: Buffer.from(body), headers: signed(body) }),
        );
      }),
    );
    for (const [i, { notification }] of answers.entries()) {
      expect([notification.outcome, notification.subjectId, notification.result]).toEqual([
        WebhookOutcome.WEBHOOK_OUTCOME_APPLIED,
        charges[i]!.id,
        expect.objectContaining({
          transactionId: charges[i]!.transactionId,
          type: WebhookResultType.WEBHOOK_RESULT_TYPE_TRANSACTION,
          status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
        }),
      ]);
      expect(notification.attempts).toBe(1);
    }
  });

  it('a late PENDING after APPROVED leaves the charge APPROVED', async () => {
    const charge = await pix(signedAccount.id);
    const paid = event('evt_late_1', 'charge.paid', charge.transactionId, 'paid');
    await post(signedAccount.notificationUrl, paid.body, { ...paid.headers, ...signed(paid.body) });
    await eventually(async () => (await read(charge.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const late = event('evt_late_0', 'charge.updated', charge.transactionId, 'pending');
    expect((await post(signedAccount.notificationUrl, late.body, { ...late.headers, ...signed(late.body) })).status).toBe(200);
    const outcome = await eventually(async () => (await notifications(charge.id)).find((n: any) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_UNCHANGED));
    expect(outcome.outcomeReason).toBe('APPROVED → PENDING is not a move forward');
    expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('a bad signature gets 401 and changes nothing', async () => {
    const charge = await pix(signedAccount.id);
    const { body, headers } = event('evt_forged_1', 'charge.paid', charge.transactionId, 'paid');
    expect((await post(signedAccount.notificationUrl, body, { ...headers, ...signed(body, 'guessed-secret') })).status).toBe(401);
    expect((await post(signedAccount.notificationUrl, body, headers)).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    const rejected = (
      await client.call('webhooks', 'listWebhookNotifications', {
        providerAccountId: signedAccount.id,
        outcome: WebhookOutcome.WEBHOOK_OUTCOME_REJECTED,
        provider: '',
        subjectId: '',
        pageSize: 10,
        pageToken: '',
      })
    ).notifications;
    expect(rejected.length).toBeGreaterThanOrEqual(2);
  });

  it('a bad signature is never in the queue: a worker leasing between its insert and its outcome finds nothing', async () => {
    const charge = await pix(signedAccount.id);
    const { body, headers } = event('evt_forged_race', 'charge.paid', charge.transactionId, 'paid');
    // The worst moment for the intake: a worker leases due notifications right before the refusal's outcome is written.
    const leasedMeanwhile: string[] = [];
    const rejected = async () =>
      (
        await client.call(
          'webhooks',
          'listWebhookNotifications',
          ListWebhookNotificationsRequest.fromPartial({ providerAccountId: signedAccount.id, outcome: WebhookOutcome.WEBHOOK_OUTCOME_REJECTED, pageSize: 100 }),
        )
      ).notifications;
    const before = new Set((await rejected()).map((notification: { id: string }) => notification.id));
    const recordOutcome = NotificationsRepository.prototype.recordOutcome;
    const spy = jest.spyOn(NotificationsRepository.prototype, 'recordOutcome').mockImplementation(async function (
      this: NotificationsRepository,
      target,
      id,
      update,
    ) {
      if (update.outcome === 'REJECTED') leasedMeanwhile.push(...(await this.claimDue(gateway.db!.em(), 100, 30_000)).map((stored) => stored.id));
      return recordOutcome.call(this, target, id, update);
    });
    try {
      expect((await post(signedAccount.notificationUrl, body, { ...headers, ...signed(body, 'guessed-secret') })).status).toBe(401);
    } finally {
      spy.mockRestore();
    }
    const refused = (await rejected()).find((notification: { id: string }) => !before.has(notification.id))!;
    expect(leasedMeanwhile).not.toContain(refused.id);
    expect(refused.outcomeReason).toBe('the signature does not match the account webhook secret');
    expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it('a forged APPROVED for a charge the provider still reports pending stays PENDING (unsigned: confirmed with the provider)', async () => {
    const charge = await pix(unsignedAccount.id);
    const { body, headers } = event('evt_forged_2', 'charge.paid', charge.transactionId, 'paid');
    expect((await post(unsignedAccount.notificationUrl, body, headers)).status).toBe(200);
    const outcome = await eventually(async () => (await notifications(charge.id)).find((n: any) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED));
    expect(outcome.outcomeReason).toContain('the provider reports PENDING, the notification claimed APPROVED');
    expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it('a forged failure (unsigned) cannot lock out the real payment', async () => {
    const charge = await pix(unsignedAccount.id);
    const { body, headers } = event('evt_forged_3', 'charge.updated', charge.transactionId, 'declined');
    expect((await post(unsignedAccount.notificationUrl, body, headers)).status).toBe(200);
    await eventually(async () => (await notifications(charge.id)).find((n: any) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED));
    expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    await client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: charge.id }));
    await eventually(async () => (await read(charge.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('a genuine payment on an unsigned account is confirmed and applied', async () => {
    const charge = await pix(unsignedAccount.id);
    await client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: charge.id }));
    await eventually(async () => (await read(charge.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('operators list notifications and reprocess one', async () => {
    const charge = await pix(signedAccount.id);
    const { body, headers } = event('evt_op_1', 'charge.paid', charge.transactionId, 'paid');
    await post(signedAccount.notificationUrl, body, { ...headers, ...signed(body) });
    const applied = await eventually(async () => (await notifications(charge.id)).find((n: any) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_APPLIED));
    const again = await client.call('webhooks', 'reprocessWebhookNotification', { id: applied.id });
    expect(again.notification.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_UNCHANGED);
    expect(again.notification.attempts).toBe(2);
    // One that cannot be claimed (being processed, or gone) has a reason of its own, for the back-office's text.
    const gone = client.call('webhooks', 'reprocessWebhookNotification', { id: '5b0c4e1e-0000-4000-8000-000000000000' });
    expect(await errorDetailsOf(gone)).toMatchObject({ reason: 'NOTIFICATION_BUSY' });
  });

  it('an operator reads a notification as received: its body byte for byte and its headers, without the credential the sender attached', async () => {
    const charge = await pix(signedAccount.id);
    const { body, headers } = event('evt_raw_1', 'charge.paid', charge.transactionId, 'paid');
    const bodyWithAccents = body.replace('"charge.paid"', '"charge.paid","note":"cobrança paga"');
    await post(signedAccount.notificationUrl, bodyWithAccents, { ...headers, ...signed(bodyWithAccents), authorization: 'Bearer sender-credential' });
    const [stored] = await eventually(async () => (await notifications(charge.id)).length === 1 && notifications(charge.id));
    for (const driver of [client, connectDriver(gateway.httpUrl!, TEST_TOKEN)]) {
      const answer = await driver.call('webhooks', 'getWebhookNotification', { id: stored.id });
      expect(answer.notification).toMatchObject({ id: stored.id, provider: 'SANDBOX', providerAccountId: signedAccount.id });
      expect(Buffer.from(answer.body).toString('utf8')).toBe(bodyWithAccents);
      expect(answer.headers).toMatchObject({ 'content-type': 'application/json', 'x-sandbox-event-id': 'evt_raw_1' });
      expect(answer.headers['x-sandbox-signature']).toBeDefined();
      expect(answer.headers.authorization).toBeUndefined();
      expect(JSON.stringify(answer)).not.toContain('sender-credential');
      if (driver !== client) driver.close();
    }
  });

  it('a notification that is not there is NOT_FOUND, also for an id that is not a UUID', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expect(await failureOf(client.call('webhooks', 'getWebhookNotification', { id }))).toEqual({
        code: 'NOT_FOUND',
        message: `notification ${id} not found`,
      });
    }
  });
});

describe('status events out', () => {
  it('delivers to webhook_url once after two failures, with three recorded attempts, signed, carrying the status of the change', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(received.length <= 2 ? 500 : 204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const charge = await pix(signedAccount.id, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
      await client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: charge.id }));
      const [delivery] = await eventually(
        async () => {
          const { deliveries } = await client.call(
            'webhooks',
            'listOutboundDeliveries',
            ListOutboundDeliveriesRequest.fromPartial({ transactionId: charge.id }),
          );
          return deliveries[0]?.state === DeliveryState.DELIVERY_STATE_DELIVERED && deliveries;
        },
        15_000,
        'a delivered notification',
      );
      expect(delivery.attempts.map((a: any) => a.responseStatus)).toEqual([500, 500, 204]);
      expect(received).toHaveLength(3);
      const last = received[2]!;
      const payload = JSON.parse(last.body);
      expect(payload).toMatchObject({
        id: delivery.eventId,
        type: 'transaction.status_changed',
        data: { id: charge.id, status: 'APPROVED', previousStatus: 'PENDING', source: 'webhook', amount: 1500 },
      });
      expect(last.headers['x-gateway-event-id']).toBe(delivery.eventId);
      const timestamp = Number(last.headers['x-gateway-timestamp']);
      expect(last.headers['x-gateway-signature']).toBe(`t=${timestamp},v1=${signTimestampedBody(TEST_OUTBOUND_SECRET, timestamp, last.body)}`);
      expect(verifyTimestampedSignature(TEST_OUTBOUND_SECRET, String(last.headers['x-gateway-signature']), last.body)).toEqual({ valid: true, timestamp });
      // A receiver replaying check: the same delivery presented ten minutes later is refused.
      expect(
        verifyTimestampedSignature(TEST_OUTBOUND_SECRET, String(last.headers['x-gateway-signature']), last.body, { receivedAt: (timestamp + 600) * 1000 }),
      ).toEqual({ valid: false, reason: 'expired' });
    } finally {
      receiver.close();
    }
  });

  it('WatchEvents resumes from an event id without gaps or repeats, over gRPC and Connect', async () => {
    const first = await pix(signedAccount.id);
    const start = client.watch(WatchEventsRequest.fromPartial({ afterEventId: '0', providerAccountIds: [signedAccount.id] }));
    let resumeFrom: string | undefined;
    while (resumeFrom === undefined) {
      const { event } = await start.next();
      if (event.subjectId === first.id) resumeFrom = event.eventId;
    }
    start.close();
    // Changes made while nobody watches.
    const second = await pix(signedAccount.id);
    await client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: first.id }));
    await client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: second.id }));
    for (const driver of [client, connectDriver(gateway.httpUrl!, TEST_TOKEN)]) {
      const watch = driver.watch(WatchEventsRequest.fromPartial({ afterEventId: resumeFrom, providerAccountIds: [signedAccount.id] }));
      const seen = [];
      for (let i = 0; i < 3; i += 1) seen.push((await watch.next()).event);
      watch.close();
      expect(seen.map((e) => [e.subjectId, e.transactionStatus])).toEqual([
        [second.id, TransactionStatus.TRANSACTION_STATUS_PENDING],
        [first.id, TransactionStatus.TRANSACTION_STATUS_APPROVED],
        [second.id, TransactionStatus.TRANSACTION_STATUS_APPROVED],
      ]);
      const ids = seen.map((e) => BigInt(e.eventId));
      expect(ids[0]! > BigInt(resumeFrom)).toBe(true);
      expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    }
  });
});
