import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest, GetTransactionRequest, GetWithdrawRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus, WebhookOutcome, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';

/**
 * A provider that authenticates its notifications with a credential header
 * (Iugu's trigger `authorization`) rather than a signature: the header is never
 * stored, so processing cannot check it again; what intake proved is kept with
 * the notification. Iugu has no read of a withdraw request, so without that an
 * authenticated payout trigger could never be applied.
 */
const TRIGGER_AUTHORIZATION = 'iugu-trigger-secret';
let stack: TestStack;
let fake: FakeProvider;
let account: { id: string; notificationUrl: string };

beforeAll(async () => {
  stack = await startTestStack();
  fake = await startFakeProvider();
  ({ providerAccount: account } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'IUGU',
    name: 'iugu',
    publicKey: 'A083919DEE244A0FA2705E309B378CD0',
    secretKey: 'live_iugu_1',
    baseUrl: fake.url,
    webhookSecret: TRIGGER_AUTHORIZATION,
  }));
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

async function payout(withdrawRequestId: string) {
  fake.expect({ method: 'POST', path: `/accounts/A083919DEE244A0FA2705E309B378CD0/request_withdraw`, reply: { body: { id: withdrawRequestId } } });
  const request = WithdrawRequest.fromPartial({
    providerAccountId: account.id,
    withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT, amount: 5000 },
  });
  return (await stack.client.call('gateway', 'withdraw', request)).withdrawal;
}

const trigger = (withdrawRequestId: string, headers: Record<string, string>) =>
  fetch(account.notificationUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({
      event: 'withdraw_request.status_changed',
      'data[withdraw_request_id]': withdrawRequestId,
      'data[status]': 'accepted',
    }).toString(),
  });

const outcomes = async (subjectId: string) =>
  (
    await stack.client.call('webhooks', 'listWebhookNotifications', {
      subjectId,
      providerAccountId: '',
      provider: '',
      outcome: 0,
      pageSize: 10,
      pageToken: '',
    })
  ).notifications;
const status = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal.status;

describe('a notification authenticated by a credential header at intake', () => {
  it('is applied: the payout becomes APPROVED though the stored copy has no Authorization header', async () => {
    const withdrawal = await payout('WR-AUTH-1');
    expect((await trigger('WR-AUTH-1', { authorization: TRIGGER_AUTHORIZATION })).status).toBe(200);
    await eventually(async () => (await status(withdrawal.id)) === WithdrawStatus.WITHDRAW_STATUS_APPROVED, 15_000, 'the payout APPROVED');
    const [stored] = await outcomes(withdrawal.id);
    expect(stored.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_APPLIED);
  });

  it('without the header it is a hint only: no payout lookup exists, so nothing moves', async () => {
    const withdrawal = await payout('WR-AUTH-2');
    expect((await trigger('WR-AUTH-2', {})).status).toBe(200);
    const stored = await eventually(async () => (await outcomes(withdrawal.id)).find((n: any) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED));
    expect(stored.outcomeReason).toBe('unsigned APPROVED cannot be confirmed: IUGU offers no withdrawal lookup');
    expect(await status(withdrawal.id)).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
  });

  it('with a wrong value it is refused at the door', async () => {
    const withdrawal = await payout('WR-AUTH-3');
    expect((await trigger('WR-AUTH-3', { authorization: 'forged' })).status).toBe(401);
    expect(await status(withdrawal.id)).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
  });
});

/**
 * A provider that puts its shared secret in the body (SAQPAY's `ipn_secret`):
 * checked at intake, then masked before the body is stored, so the secret never
 * reaches the database; the stored copy is applied on what intake proved.
 */
describe('a notification carrying its shared secret in the body', () => {
  const IPN_SECRET = 'saqpay-ipn-secret-e2e';
  const PIX_CODE =
    '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';
  let saqpay: { id: string; notificationUrl: string };
  let db: pg.Client;

  beforeAll(async () => {
    ({ providerAccount: saqpay } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SAQPAY',
      name: 'saqpay',
      publicKey: 'pk',
      secretKey: 'sk_saqpay',
      baseUrl: fake.url,
      webhookSecret: IPN_SECRET,
    }));
    db = new pg.Client({ connectionString: stack.database.url });
    await db.connect();
  });
  afterAll(() => db?.end());

  it('is applied, and stored with the secret masked', async () => {
    fake.expect({
      method: 'POST',
      path: '/transactions',
      reply: { body: { id: 'sq_e2e', status: 'waiting_payment', amount: 1990, paymentMethod: 'pix', pix: { qrcode: PIX_CODE } } },
    });
    const { transaction } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: saqpay.id,
        transaction: {
          amount: 1990,
          paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
          customer: { name: 'Ana', document: '12345678909', email: 'a@example.com' },
        },
      }),
    );
    // Authenticated, but the adapter reads no amount from the IPN: the provider's read says it before the charge is APPROVED.
    const amountRead = fake.expect({
      method: 'GET',
      path: '/transactions/sq_e2e',
      reply: { body: { id: 'sq_e2e', status: 'paid', amount: 1990, paymentMethod: 'pix', pix: { qrcode: PIX_CODE } } },
    });
    const ipn = { transaction_id: 'sq_e2e', transaction_amount: 19.9, ipn_secret: IPN_SECRET, transaction_status: 'paid' };
    const answer = await fetch(saqpay.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ipn) });
    expect(answer.status).toBe(200);
    const read = async () =>
      (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }))).transaction.status;
    await eventually(async () => (await read()) === TransactionStatus.TRANSACTION_STATUS_APPROVED, 15_000, 'the charge APPROVED');
    expect(amountRead.done).toBe(true);
    const { rows } = await db.query(`select convert_from(body, 'UTF8') as body from webhook_notifications where provider_account_id = $1`, [saqpay.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].body).not.toContain(IPN_SECRET);
    expect(JSON.parse(rows[0].body)).toEqual({ ...ipn, ipn_secret: '[masked]' });
  });
});
