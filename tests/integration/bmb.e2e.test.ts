import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { TransactionOrigin, TransactionStatus, WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/** BMB's static-QR rule end to end: a paid static QR reaches the sidecar unsigned, the gateway confirms it with consultaQRCode and records it. */
let stack: TestStack;
let fake: FakeProvider;
let account: { id: string; notificationUrl: string };

beforeAll(async () => {
  stack = await startTestStack();
  fake = await startFakeProvider();
  account = (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'BMB',
      name: 'BMB',
      publicKey: 'pk_bmb',
      secretKey: 'sk_bmb_e2e',
      baseUrl: fake.url,
    })
  ).providerAccount;
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

const notifications = async () =>
  (
    await stack.client.call('webhooks', 'listWebhookNotifications', {
      providerAccountId: account.id,
      outcome: 0,
      provider: '',
      subjectId: '',
      pageSize: 10,
      pageToken: '',
    })
  ).notifications;

describe('BMB through the webhook sidecar', () => {
  it('records a paid static QR as a transaction of its own, after asking BMB about it', async () => {
    fake.expect({
      method: 'POST',
      path: '/consultaQRCode',
      headers: { authorization: 'Bearer sk_bmb_e2e' },
      body: { txid: 'static-bmb-1' },
      reply: { body: { txid: 'static-bmb-1', status: 'Paid', valor: 25.5 } },
    });
    const body = JSON.stringify({
      tipo: 'QRCODE_ESTATICO',
      txid: 'static-bmb-1',
      endToEndId: 'E0001',
      status: 'Paid',
      valor: 25.5,
      pagoEm: '2026-11-20T10:00:00.000Z',
    });
    expect((await fetch(account.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(200);
    const [notification] = await eventually(
      async () => {
        const list = await notifications();
        return list.some((n: { outcome: number }) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_APPLIED) && list;
      },
      15_000,
      'the static QR notification to be applied',
    );
    const { transaction } = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: notification.subjectId }));
    expect(transaction).toMatchObject({
      provider: 'BMB',
      transactionId: 'static-bmb-1',
      origin: TransactionOrigin.TRANSACTION_ORIGIN_WEBHOOK,
      status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
      amount: 2550,
    });
    fake.assertAllDone();
  });
});
