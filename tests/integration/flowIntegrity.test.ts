import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus, WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import { ListWebhookNotificationsRequest } from '../../gen/ts-proto/gateway/v1/webhook_service.js';

/**
 * Flow integrity: a provider answer that says a charge was paid is applied
 * only when it is about the gateway's record, same id and same amount. A
 * mismatch moves nothing, is listed for operators (ListFlowMismatches, both
 * transports) and the notification's outcome says so.
 */
const SECRET = 'sk_flow_integrity';
const PIX = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';
let stack: TestStack;
let fake: FakeProvider;
let connect: Driver;
let account: { id: string; notificationUrl: string };

beforeAll(async () => {
  stack = await startTestStack({ env: { RECONCILE_AFTER_MS: '3600000' } });
  fake = await startFakeProvider();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  ({ providerAccount: account } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'PAGARMEBAAS',
    name: 'flow integrity',
    publicKey: 'pk',
    secretKey: SECRET,
    baseUrl: fake.url,
  }));
});
afterAll(async () => {
  connect?.close();
  await fake?.close();
  await stack?.close();
});

const order = (id: string, status: string, amount: number) => ({
  id,
  status,
  amount,
  charges: [{ id: `ch_${id}`, status, amount, payment_method: 'pix', last_transaction: { id: `tr_${id}`, status: 'waiting_payment', qr_code: PIX } }],
});

async function pixCharge(orderId: string) {
  fake.expect({ method: 'POST', path: '/orders', reply: { body: order(orderId, 'pending', 1990) } });
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: account.id,
      transaction: {
        amount: 1990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana', document: '12345678909', email: 'a@example.com' },
      },
    }),
  );
  return transaction;
}
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const mismatches = (subjectId: string, driver: Driver = stack.client) =>
  driver.call('gateway', 'listFlowMismatches', { providerAccountId: account.id, subjectId }).then((r: any) => r.mismatches);

describe('a provider answer about another amount', () => {
  it('confirming an unsigned notification: nothing moves, the notification is MISMATCH, operators see it over gRPC and Connect', async () => {
    const transaction = await pixCharge('or_mismatch_1');
    fake.expect({ method: 'GET', path: '/orders/or_mismatch_1', reply: { body: { ...order('or_mismatch_1', 'paid', 1), paid_at: '2026-01-01T00:00:00Z' } } });
    const event = { id: 'hook_m1', type: 'order.paid', data: order('or_mismatch_1', 'paid', 1990) };
    expect(
      (await fetch(account.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) })).status,
    ).toBe(200);

    const [listed] = await eventually(async () => {
      const found = await mismatches(transaction.id);
      return found.length > 0 && found;
    });
    expect(listed).toMatchObject({
      provider: 'PAGARMEBAAS',
      providerAccountId: account.id,
      subjectKind: 'transaction',
      subjectId: transaction.id,
      source: 'webhook',
      claimedStatus: 'APPROVED',
      expectedAmount: 1990,
      reportedAmount: 1,
      expectedProviderId: 'or_mismatch_1',
      reportedProviderId: 'or_mismatch_1',
      reason: 'the provider answered APPROVED for 1 cents, the transaction is 1990 cents',
    });
    const overConnect = await mismatches(transaction.id, connect);
    expect(overConnect).toHaveLength(1);
    expect(Number(overConnect[0].reportedAmount)).toBe(1);

    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    const { notifications } = await stack.client.call('webhooks', 'listWebhookNotifications', {
      subjectId: transaction.id,
      providerAccountId: '',
      provider: '',
      outcome: 0,
      pageSize: 10,
      pageToken: '',
    });
    expect(notifications[0]).toMatchObject({ outcome: WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH, outcomeReason: expect.stringContaining('not applied') });
  });

  it('on a refresh: the record is answered as it is and the answer kept; a matching answer then applies', async () => {
    const transaction = await pixCharge('or_mismatch_2');
    fake.expect({
      method: 'GET',
      path: '/orders/or_mismatch_2',
      reply: { body: { ...order('or_mismatch_2', 'paid', 199_000), paid_at: '2026-01-01T00:00:00Z' } },
    });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(await mismatches(transaction.id)).toEqual([expect.objectContaining({ source: 'poll', reportedAmount: 199_000 })]);

    fake.expect({
      method: 'GET',
      path: '/orders/or_mismatch_2',
      reply: { body: { ...order('or_mismatch_2', 'paid', 1990), paid_at: '2026-01-01T00:00:00Z' } },
    });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(await mismatches(transaction.id)).toHaveLength(1);
  });

  it('an answer about another id is a mismatch too', async () => {
    const transaction = await pixCharge('or_mismatch_3');
    fake.expect({
      method: 'GET',
      path: '/orders/or_mismatch_3',
      reply: { body: { ...order('or_someone_else', 'paid', 1990), paid_at: '2026-01-01T00:00:00Z' } },
    });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect(await mismatches(transaction.id)).toEqual([
      expect.objectContaining({
        reportedProviderId: 'or_someone_else',
        reason: 'the provider answered APPROVED about or_someone_else, asked about or_mismatch_3',
      }),
    ]);
  });

  it('refuses a filter that is not a UUID', async () => {
    await expect(stack.client.call('gateway', 'listFlowMismatches', { providerAccountId: 'nope', subjectId: '' })).rejects.toMatchObject({
      details: expect.stringContaining('provider_account_id must be a UUID'),
    });
  });
});

describe('a signed notification about another amount', () => {
  it('is refused too: a signature proves who sent it, not that it is about this charge', async () => {
    const webhookSecret = 'whsec-flow-integrity';
    const {
      providerAccount: { id: sandboxAccount },
    } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: 'signed',
      publicKey: 'pk',
      secretKey: 'sk-signed',
      webhookSecret,
    });
    const { transaction } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: sandboxAccount,
        transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
      }),
    );
    const post = (amount: number, eventId: string) => {
      const body = JSON.stringify({
        id: eventId,
        type: 'charge.paid',
        createdAt: new Date().toISOString(),
        data: { id: transaction.transactionId, status: 'paid', amount },
      });
      return fetch(`${stack.gateway.webhookUrl}/webhooks/SANDBOX/${sandboxAccount}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxPayload(webhookSecret, Math.floor(Date.now() / 1000), body) },
        body,
      });
    };
    const notification = (await (await post(1, 'evt_one_cent')).json()) as { id: string };
    await eventually(async () => {
      const { notifications } = await stack.client.call(
        'webhooks',
        'listWebhookNotifications',
        ListWebhookNotificationsRequest.fromPartial({ providerAccountId: sandboxAccount, subjectId: transaction.id, pageSize: 10 }),
      );
      return notifications.find((n: { id: string; outcome: number }) => n.id === notification.id && n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH);
    });
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    const [mismatch] = await stack.client
      .call('gateway', 'listFlowMismatches', { providerAccountId: sandboxAccount, subjectId: transaction.id })
      .then((r: any) => r.mismatches);
    expect(mismatch).toMatchObject({
      source: 'webhook',
      expectedAmount: 1990,
      reportedAmount: 1,
      reason: 'the provider answered APPROVED for 1 cents, the transaction is 1990 cents',
    });

    await post(1990, 'evt_right_amount');
    await eventually(async () => (await read(transaction.id)).status === TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });
});
