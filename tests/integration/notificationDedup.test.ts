import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, GetWithdrawRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, TransactionStatus, WebhookOutcome, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { processedNotifications } from '../support/webhookNotifications.js';

/**
 * Dedup only over what was proven: a notification occupies its dedup key once its signature was valid or the
 * provider's read confirmed it. A forged notification (unsigned, its claim refused by the read) stored first must
 * not make the provider's genuine one a duplicate: the genuine one is checked and applied. One pair per family of
 * unsigned providers confirmed by a read, and a signed provider whose bad-signature notification must not block the
 * good one.
 */
const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';
let stack: TestStack;
let fake: FakeProvider;

beforeAll(async () => {
  stack = await startTestStack({ env: { RECONCILE_AFTER_MS: '3600000' } });
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

const account = async (provider: string, extra: Record<string, string> = {}) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider,
      name: `${provider.toLowerCase()} dedup`,
      publicKey: 'pk',
      secretKey: `sk_${provider.toLowerCase()}_dedup`,
      baseUrl: fake.url,
      ...extra,
    })
  ).providerAccount as { id: string; notificationUrl: string };

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

const processed = (subjectId: string, count: number) => processedNotifications(stack.client, subjectId, count);

const transactionStatus = async (id: string) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction.status;

async function pix(accountId: string, answer: unknown, path: string) {
  fake.expect({ method: 'POST', path, reply: { body: answer } });
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: {
        amount: 1990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
      },
    }),
  );
  return transaction as { id: string; transactionId: string };
}

describe('a forged notification stored first does not silence the genuine one', () => {
  it('PAGUESAFE (transactions API family): the genuine postback is confirmed and applied, not called a DUPLICATE', async () => {
    const paguesafe = await account('PAGUESAFE');
    const charge = await pix(
      paguesafe.id,
      { id: 'ps_dedup_1', status: 'waiting_payment', amount: 1990, paymentMethod: 'pix', pix: { qrcode: PIX_CODE } },
      '/transactions',
    );
    const read = (status: string) =>
      fake.expect({ method: 'GET', path: '/transactions/ps_dedup_1', reply: { body: { id: 'ps_dedup_1', status, amount: 1990, paymentMethod: 'pix' } } });
    const postback = (id: string) => ({
      id,
      type: 'transaction',
      objectId: 'ps_dedup_1',
      data: { id: 'ps_dedup_1', status: 'paid', amount: 1990, paymentMethod: 'pix' },
    });

    const refused = read('waiting_payment');
    expect((await post(paguesafe.notificationUrl, postback('pb_forged'))).status).toBe(200);
    const [forged] = await processed(charge.id, 1);
    expect(forged!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED);
    expect(refused.done).toBe(true);
    expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    const confirmed = read('paid');
    expect((await post(paguesafe.notificationUrl, postback('pb_genuine'))).status).toBe(200);
    const [, genuine] = await processed(charge.id, 2);
    expect(genuine!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED);
    expect(confirmed.done).toBe(true);
    expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

    // The genuine one, proven by the read, holds the key now: its re-delivery is a DUPLICATE and asks nothing more.
    expect((await post(paguesafe.notificationUrl, postback('pb_again'))).status).toBe(200);
    const [, , again] = await processed(charge.id, 3);
    expect(again!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE);
    fake.assertAllDone();
  });

  it('PAGARMEBAAS (orders API family): a forged event under the genuine event id does not take its key', async () => {
    const pagarme = await account('PAGARMEBAAS');
    const order = (status: string) => ({
      id: 'or_dedup_1',
      status,
      amount: 1990,
      charges: [
        { id: 'ch_dedup_1', status, amount: 1990, payment_method: 'pix', last_transaction: { id: 'tr_dedup_1', status: 'waiting_payment', qr_code: PIX_CODE } },
      ],
    });
    const charge = await pix(pagarme.id, order('pending'), '/orders');
    const read = (status: string) =>
      fake.expect({
        method: 'GET',
        path: '/orders/or_dedup_1',
        reply: { body: { ...order(status), ...(status === 'paid' ? { paid_at: '2026-01-01T00:00:00Z' } : {}) } },
      });
    const event = { id: 'hook_dedup_1', type: 'order.paid', data: order('paid') };

    read('pending');
    await post(pagarme.notificationUrl, event);
    expect((await processed(charge.id, 1))[0]!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED);

    const confirmed = read('paid');
    await post(pagarme.notificationUrl, event);
    expect((await processed(charge.id, 2))[1]!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED);
    expect(confirmed.done).toBe(true);
    expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    fake.assertAllDone();
  });

  it('ASAAS without a webhook secret (a bespoke adapter): a forged TRANSFER_DONE does not block the genuine one', async () => {
    const asaas = await account('ASAAS');
    fake.expect({ method: 'POST', path: '/transfers', reply: { body: { id: 'tra_dedup_1', status: 'PENDING', value: 50 } } });
    const { withdrawal } = await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: asaas.id,
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 5000, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    );
    const read = (status: string) => fake.expect({ method: 'GET', path: '/transfers/tra_dedup_1', reply: { body: { id: 'tra_dedup_1', status, value: 50 } } });
    const event = { id: 'evt_dedup_1', event: 'TRANSFER_DONE', transfer: { object: 'transfer', id: 'tra_dedup_1', status: 'DONE', value: 50 } };

    read('PENDING');
    await post(asaas.notificationUrl, event);
    expect((await processed(withdrawal.id, 1))[0]!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED);

    const confirmed = read('DONE');
    await post(asaas.notificationUrl, event);
    expect((await processed(withdrawal.id, 2))[1]!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED);
    expect(confirmed.done).toBe(true);
    const { withdrawal: after } = await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: withdrawal.id }));
    expect(after.status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);
    fake.assertAllDone();
  });

  it('SANDBOX, signed: a notification with a bad signature does not block the correctly signed one with the same event id', async () => {
    const secret = 'whsec-dedup';
    const sandbox = (
      await stack.client.call('accounts', 'createProviderAccount', {
        provider: 'SANDBOX',
        name: 'signed dedup',
        publicKey: 'pk',
        secretKey: 'sk',
        webhookSecret: secret,
      })
    ).providerAccount as { id: string; notificationUrl: string };
    const { transaction } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: sandbox.id, transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    );
    const body = JSON.stringify({
      id: 'evt_dedup_signed',
      type: 'charge.paid',
      createdAt: new Date().toISOString(),
      data: { id: transaction.transactionId, status: 'paid', amount: 1990 },
    });
    const signature = (key: string) => ({ 'x-sandbox-signature': signSandboxPayload(key, Math.floor(Date.now() / 1000), body) });
    expect((await post(sandbox.notificationUrl, body, signature('guessed-secret'))).status).toBe(401);
    expect((await post(sandbox.notificationUrl, body, signature(secret))).status).toBe(200);
    expect((await processed(transaction.id, 1))[0]!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED);
    expect(await transactionStatus(transaction.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });
});
