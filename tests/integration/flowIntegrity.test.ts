import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  FlowMismatchOutcome,
  FlowMismatchState,
  GetTransactionRequest,
  GetWithdrawRequest,
  ListFlowMismatchesRequest,
  SettleFlowMismatchRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, TransactionStatus, WebhookOutcome, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import { ListWebhookNotificationsRequest } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';

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
const mismatches = (subjectId: string, driver: Driver = stack.client, state = FlowMismatchState.FLOW_MISMATCH_STATE_UNSPECIFIED) =>
  driver
    .call('gateway', 'listFlowMismatches', ListFlowMismatchesRequest.fromPartial({ providerAccountId: account.id, subjectId, state }))
    .then((r: any) => r.mismatches);
/** A charge whose refresh the provider answers for another amount: one open mismatch. */
async function mismatchOnRefresh(orderId: string) {
  const transaction = await pixCharge(orderId);
  fake.expect({ method: 'GET', path: `/orders/${orderId}`, reply: { body: { ...order(orderId, 'paid', 5), paid_at: '2026-01-01T00:00:00Z' } } });
  await read(transaction.id, true);
  const [mismatch] = await mismatches(transaction.id);
  return { transaction, mismatch };
}

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
    await expect(
      stack.client.call('gateway', 'listFlowMismatches', ListFlowMismatchesRequest.fromPartial({ providerAccountId: 'nope', subjectId: '' })),
    ).rejects.toMatchObject({
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
      .call('gateway', 'listFlowMismatches', ListFlowMismatchesRequest.fromPartial({ providerAccountId: sandboxAccount, subjectId: transaction.id }))
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

describe('amounts on every money status', () => {
  const webhookSecret = 'whsec-amounts';
  let sandbox: { id: string; notificationUrl: string };

  beforeAll(async () => {
    ({ providerAccount: sandbox } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: 'amounts',
      publicKey: 'pk',
      secretKey: 'sk-amounts',
      baseUrl: fake.url,
      webhookSecret,
    }));
  });

  const signedEvent = (type: string, id: string, status: string, amount: unknown, eventId: string) => {
    const body = JSON.stringify({ id: eventId, type, createdAt: new Date().toISOString(), data: { id, status, ...(amount === undefined ? {} : { amount }) } });
    return fetch(sandbox.notificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxPayload(webhookSecret, Math.floor(Date.now() / 1000), body) },
      body,
    });
  };
  /** The outcome of the notification `posted` answered for, once processed. */
  const outcomeOf = async (posted: Response) => {
    expect(posted.status).toBe(200);
    const { id } = (await posted.json()) as { id: string };
    return eventually(async () => {
      const { notification } = await stack.client.call('webhooks', 'getWebhookNotification', { id });
      return notification.outcome !== WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED && notification;
    });
  };
  const sandboxCharge = async (chargeId: string) => {
    fake.expect({
      method: 'POST',
      path: '/v1/charges',
      reply: {
        status: 201,
        body: { id: chargeId, amount: 1990, method: 'pix', status: 'pending', installments: 1, createdAt: '2027-01-15T08:00:00Z', refundedAmount: 0 },
      },
    });
    const { transaction } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: sandbox.id, transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    );
    return transaction as { id: string; transactionId: string };
  };

  it('a signed "failed" about a 777-cent payout for 1 cent leaves it PENDING and is listed; for 777 cents it applies', async () => {
    fake.expect({
      method: 'POST',
      path: '/v1/withdrawals',
      reply: {
        status: 201,
        body: {
          id: 'wd_amount_1',
          amount: 777,
          status: 'processing',
          pixKey: 'ana@example.com',
          pixKeyType: 'email',
          description: '',
          createdAt: '2027-01-15T08:00:00Z',
        },
      },
    });
    const { withdrawal } = await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: sandbox.id,
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 777, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    );
    const refused = await outcomeOf(await signedEvent('withdrawal.failed', 'wd_amount_1', 'failed', 1, 'evt_wd_amount_1'));
    expect(refused.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH);
    const withdrawalStatus = async () =>
      (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: withdrawal.id }))).withdrawal.status;
    expect(await withdrawalStatus()).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
    expect(
      await stack.client
        .call('gateway', 'listFlowMismatches', ListFlowMismatchesRequest.fromPartial({ providerAccountId: sandbox.id, subjectId: withdrawal.id }))
        .then((r: any) => r.mismatches),
    ).toEqual([
      expect.objectContaining({
        subjectKind: 'withdrawal',
        claimedStatus: 'REJECTED',
        expectedAmount: 777,
        reportedAmount: 1,
        reason: 'the provider answered REJECTED for 1 cents, the withdrawal is 777 cents',
      }),
    ]);
    expect((await outcomeOf(await signedEvent('withdrawal.failed', 'wd_amount_1', 'failed', 777, 'evt_wd_amount_2'))).outcome).toBe(
      WebhookOutcome.WEBHOOK_OUTCOME_APPLIED,
    );
    expect(await withdrawalStatus()).toBe(WithdrawStatus.WITHDRAW_STATUS_REJECTED);
  });

  it('a signed "paid" whose amount is a string, a fraction, a negative or missing approves nothing, and each is listed', async () => {
    const charge = await sandboxCharge('ch_amount_1');
    const sent: [unknown, string][] = [
      ['1', '"1"'],
      [1.5, '1.5'],
      [-1990, '-1990'],
      [undefined, 'nothing'],
      ['1990', '"1990"'],
    ];
    for (const [i, [amount]] of sent.entries())
      expect((await outcomeOf(await signedEvent('charge.paid', 'ch_amount_1', 'paid', amount, `evt_amount_${i}`))).outcome).toBe(
        WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH,
      );
    expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    const listed = await stack.client
      .call('gateway', 'listFlowMismatches', ListFlowMismatchesRequest.fromPartial({ providerAccountId: sandbox.id, subjectId: charge.id }))
      .then((r: any) => r.mismatches);
    expect(listed.map((m: any) => m.reason).sort()).toEqual(
      sent
        .map(([, text]) => `the provider answered APPROVED with an amount that is not a whole number of cents (${text}), the transaction is 1990 cents`)
        .sort(),
    );
    expect(listed.find((m: any) => m.reason.includes('(-1990)')).reportedAmount).toBe(-1990);
    expect((await outcomeOf(await signedEvent('charge.paid', 'ch_amount_1', 'paid', 1990, 'evt_amount_right'))).outcome).toBe(
      WebhookOutcome.WEBHOOK_OUTCOME_APPLIED,
    );
    expect((await read(charge.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('a signed refund, cancellation or decline for another amount moves nothing', async () => {
    const paid = await sandboxCharge('ch_amount_2');
    await outcomeOf(await signedEvent('charge.paid', 'ch_amount_2', 'paid', 1990, 'evt_amount_2_paid'));
    expect((await outcomeOf(await signedEvent('charge.refunded', 'ch_amount_2', 'refunded', 1, 'evt_amount_2_refund'))).outcome).toBe(
      WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH,
    );
    expect((await read(paid.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

    const pending = await sandboxCharge('ch_amount_3');
    for (const [status, eventId] of [
      ['canceled', 'evt_amount_3_cancel'],
      ['declined', 'evt_amount_3_decline'],
    ])
      expect((await outcomeOf(await signedEvent('charge.updated', 'ch_amount_3', status!, 19_900, eventId!))).outcome).toBe(
        WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH,
      );
    expect((await read(pending.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it('a read whose amount is negative, or missing where the provider always sends one, is a mismatch', async () => {
    const transaction = await pixCharge('or_amount_read');
    const paid = (amount: number | undefined) => {
      const body: Record<string, any> = { ...order('or_amount_read', 'paid', 1990), paid_at: '2026-01-01T00:00:00Z' };
      delete body.amount;
      body.charges = body.charges.map(({ amount: _, ...charge }: Record<string, unknown>) => (amount === undefined ? charge : { ...charge, amount }));
      if (amount !== undefined) body.amount = amount;
      return body;
    };
    fake.expect({ method: 'GET', path: '/orders/or_amount_read', reply: { body: paid(-1990) } });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    fake.expect({ method: 'GET', path: '/orders/or_amount_read', reply: { body: paid(undefined) } });
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    expect((await mismatches(transaction.id)).map((m: any) => m.reason).sort()).toEqual([
      'the provider answered APPROVED with an amount that is not a whole number of cents (-1990), the transaction is 1990 cents',
      'the provider answered APPROVED with an amount that is not a whole number of cents (0), the transaction is 1990 cents',
    ]);
    fake.assertAllDone();
  });

  it('a signed notification whose format has no amount is checked against the provider read: ASAAS with its access token', async () => {
    const token = 'asaas-webhook-token';
    const { providerAccount: asaas } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'ASAAS',
      name: 'asaas amounts',
      publicKey: 'pk',
      secretKey: 'sk-asaas-amounts',
      baseUrl: fake.url,
      webhookSecret: token,
    });
    fake.expect({ method: 'POST', path: '/transfers', reply: { body: { id: 'tra_amount_1', status: 'PENDING', value: 50 } } });
    const { withdrawal } = await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: asaas.id,
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 5000, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    );
    const failed = (eventId: string) =>
      fetch(asaas.notificationUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'asaas-access-token': token },
        body: JSON.stringify({ id: eventId, event: 'TRANSFER_FAILED', transfer: { object: 'transfer', id: 'tra_amount_1', status: 'FAILED' } }),
      });
    const status = async () => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: withdrawal.id }))).withdrawal.status;

    fake.expect({ method: 'GET', path: '/transfers/tra_amount_1', reply: { body: { id: 'tra_amount_1', status: 'FAILED', value: 0.01 } } });
    expect((await outcomeOf(await failed('evt_amount_asaas_1'))).outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH);
    expect(await status()).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
    expect(
      await stack.client
        .call('gateway', 'listFlowMismatches', ListFlowMismatchesRequest.fromPartial({ providerAccountId: asaas.id, subjectId: withdrawal.id }))
        .then((r: any) => r.mismatches),
    ).toEqual([expect.objectContaining({ claimedStatus: 'REJECTED', expectedAmount: 5000, reportedAmount: 1, source: 'webhook' })]);

    fake.expect({ method: 'GET', path: '/transfers/tra_amount_1', reply: { body: { id: 'tra_amount_1', status: 'FAILED', value: 50 } } });
    expect((await outcomeOf(await failed('evt_amount_asaas_2'))).outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED);
    expect(await status()).toBe(WithdrawStatus.WITHDRAW_STATUS_REJECTED);
    fake.assertAllDone();
  });
});

describe('an operator settles a mismatch', () => {
  const settle = (driver: Driver, request: Partial<SettleFlowMismatchRequest>) =>
    driver.call('gateway', 'settleFlowMismatch', SettleFlowMismatchRequest.fromPartial(request));
  const ACCEPTED = FlowMismatchOutcome.FLOW_MISMATCH_OUTCOME_ACCEPTED_RECORD;

  it('over gRPC: it leaves the open list for the settled one with who, when, outcome and note; the charge does not move', async () => {
    const { transaction, mismatch } = await mismatchOnRefresh('or_settle_1');
    expect(mismatch).toMatchObject({ settledBy: '', settlementNote: '', settlementOutcome: FlowMismatchOutcome.FLOW_MISMATCH_OUTCOME_UNSPECIFIED });
    expect(mismatch.settledAt).toBeUndefined();
    expect(await mismatches(transaction.id, stack.client, FlowMismatchState.FLOW_MISMATCH_STATE_SETTLED)).toEqual([]);

    const before = Date.now();
    const { mismatch: settled } = await settle(stack.client, { id: mismatch.id, outcome: ACCEPTED, note: '  chamado 4471: o provedor confirmou 19,90  ' });
    expect(settled).toMatchObject({
      id: mismatch.id,
      reportedAmount: 5,
      settledBy: 'API_TOKENS #1',
      settledById: 'api-token:1',
      settlementOutcome: ACCEPTED,
      settlementNote: 'chamado 4471: o provedor confirmou 19,90',
    });
    expect(settled.settledAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    expect(await mismatches(transaction.id)).toEqual([]);
    expect(await mismatches(transaction.id, stack.client, FlowMismatchState.FLOW_MISMATCH_STATE_OPEN)).toEqual([]);
    expect(await mismatches(transaction.id, stack.client, FlowMismatchState.FLOW_MISMATCH_STATE_SETTLED)).toEqual([settled]);
    expect(await mismatches(transaction.id, connect, FlowMismatchState.FLOW_MISMATCH_STATE_ANY)).toEqual([
      expect.objectContaining({ id: mismatch.id, settledBy: 'API_TOKENS #1', settlementNote: 'chamado 4471: o provedor confirmou 19,90' }),
    ]);
    expect((await read(transaction.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  });

  it('over Connect, and a second settlement on either transport is FAILED_PRECONDITION ALREADY_SETTLED that changes nothing; both are audited', async () => {
    const { transaction, mismatch } = await mismatchOnRefresh('or_settle_2');
    const note = 'o provedor devolveu a diferença; cartão 4111 1111 1111 1111 no chamado';
    const { mismatch: settled } = await settle(connect, { id: mismatch.id, outcome: FlowMismatchOutcome.FLOW_MISMATCH_OUTCOME_CORRECTED_AT_PROVIDER, note });
    expect(settled).toMatchObject({
      settlementOutcome: FlowMismatchOutcome.FLOW_MISMATCH_OUTCOME_CORRECTED_AT_PROVIDER,
      settlementNote: 'o provedor devolveu a diferença; cartão [redacted] no chamado',
    });

    for (const driver of [stack.client, connect]) {
      const again = () => settle(driver, { id: mismatch.id, outcome: ACCEPTED, note: 'de novo' });
      expect(await failureOf(again())).toEqual({ code: 'FAILED_PRECONDITION', message: `flow mismatch ${mismatch.id} was already settled by API_TOKENS #1` });
      expect((await errorDetailsOf(again())).reason).toBe('ALREADY_SETTLED');
    }
    const [kept] = await mismatches(transaction.id, stack.client, FlowMismatchState.FLOW_MISMATCH_STATE_SETTLED);
    expect(kept).toMatchObject({ settlementOutcome: FlowMismatchOutcome.FLOW_MISMATCH_OUTCOME_CORRECTED_AT_PROVIDER, settlementNote: settled.settlementNote });

    const { events } = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ resource: mismatch.id, pageSize: 50 }));
    expect(events.map((event: { action: string; outcome: string }) => `${event.action} ${event.outcome}`).sort()).toEqual([
      'gateway.v1.PaymentGatewayService/SettleFlowMismatch FAILED_PRECONDITION',
      'gateway.v1.PaymentGatewayService/SettleFlowMismatch FAILED_PRECONDITION',
      'gateway.v1.PaymentGatewayService/SettleFlowMismatch FAILED_PRECONDITION',
      'gateway.v1.PaymentGatewayService/SettleFlowMismatch FAILED_PRECONDITION',
      'gateway.v1.PaymentGatewayService/SettleFlowMismatch OK',
    ]);
  });

  it('two operators settling at once: one wins, the other is told who did', async () => {
    const { mismatch } = await mismatchOnRefresh('or_settle_race');
    const results = await Promise.allSettled([
      settle(stack.client, { id: mismatch.id, outcome: ACCEPTED, note: 'primeiro' }),
      settle(connect, { id: mismatch.id, outcome: ACCEPTED, note: 'segundo' }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected')!;
    expect(await failureOf(Promise.reject(refused.reason))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: `flow mismatch ${mismatch.id} was already settled by API_TOKENS #1`,
    });
  });

  it('refuses a settlement without an outcome or a note, naming the field, and an id that is no mismatch', async () => {
    const { mismatch } = await mismatchOnRefresh('or_settle_3');
    for (const driver of [stack.client, connect]) {
      expect(await failureOf(settle(driver, { id: mismatch.id, note: 'sem resultado' }))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'outcome must be FLOW_MISMATCH_OUTCOME_ACCEPTED_RECORD or FLOW_MISMATCH_OUTCOME_CORRECTED_AT_PROVIDER',
      });
      expect((await errorDetailsOf(settle(driver, { id: mismatch.id, outcome: ACCEPTED, note: '   ' }))).fields).toEqual(['note']);
      expect(await failureOf(settle(driver, { id: '00000000-0000-4000-8000-000000000000', outcome: ACCEPTED, note: 'x' }))).toEqual({
        code: 'NOT_FOUND',
        message: 'flow mismatch 00000000-0000-4000-8000-000000000000 not found',
      });
      expect((await errorDetailsOf(settle(driver, { id: 'nope', outcome: ACCEPTED, note: 'x' }))).fields).toEqual(['id']);
      expect(
        (
          await errorDetailsOf(
            driver.call(
              'gateway',
              'listFlowMismatches',
              ListFlowMismatchesRequest.fromPartial({ providerAccountId: account.id, subjectId: '', state: 9 as FlowMismatchState }),
            ),
          )
        ).fields,
      ).toEqual(['state']);
    }
    expect(await mismatches(mismatch.subjectId)).toEqual([expect.objectContaining({ id: mismatch.id, settledBy: '' })]);
  });
});
