import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { GetWithdrawRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PixKeyType, WebhookOutcome, WithdrawMethod, WithdrawStatus, type WebhookNotification } from '../../gen/ts-proto/gateway/v1/types.js';
import { F2_PLATFORM_ADDRESSES } from '../../server/providers/families/transactionsApi/platforms/f2.js';
import { MEDIUS } from '../../server/providers/members/medius.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { f2Journey } from './f2Gateway.js';
import { F2_PLATFORM_SOURCES, startF2StandIn, type F2StandIn } from './f2Platform.js';

/**
 * MEDIUS against the stand-in of its platform ("functions/v1", F2), through
 * the gateway's public contract. MediusPag's own documentation was not found;
 * its Basic `secretKey:x` comes from the research, its paths and the absence
 * of refunds from the specification (doc 2 §7/§8). Only PIX charges are
 * driven (the platform's card and boleto request fields were not in the pages
 * read); payouts are the platform's cashout.
 */

const KEYS = { secret: 'sk_medius_standin', webhookSecret: 'whsec_medius_standin', companyId: '756d4eec-9a22-44b0-a514-a27c366c5433' };
const BALANCE = 10_000;
let stack: TestStack;
let standIn: F2StandIn;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  standIn = await startF2StandIn({
    name: 'MEDIUS',
    sources: F2_PLATFORM_SOURCES,
    prefix: '/functions/v1',
    basic: { user: KEYS.secret, password: 'x' },
    companyId: KEYS.companyId,
    balance: BALANCE,
  });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'MEDIUS',
    name: 'MediusPag stand-in',
    publicKey: '',
    secretKey: KEYS.secret,
    webhookSecret: KEYS.webhookSecret,
    baseUrl: `${standIn.url}/functions/v1`,
  });
  accountId = providerAccount.id;
}, 60_000);

afterAll(async () => {
  await standIn?.close();
  await stack?.close();
});

afterEach(() => {
  expect(standIn.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(standIn.crashed).toEqual([]);
});

const journey = f2Journey(
  () => stack,
  () => standIn,
  () => accountId,
);

const withdraw = (key: string, amount: number, pixKey: string, pixType?: PixKeyType) =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey: key,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount, pixKey, description: 'Saque', ...(pixType !== undefined ? { pixType } : {}) },
    }),
  );
const readPayout = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;

describe('MEDIUS against the stand-in of its platform', () => {
  it('charges by PIX with Basic secret:x; its signed postback APPROVES it', async () => {
    await journey.pixPaidBySignedPostback('medius-pix');
  });

  it('refuses a postback signed with another secret, and confirms an unsigned one with a read', async () => {
    await journey.forgedPostbacksMoveNothing('medius-forged');
  });

  it('pays out by POST /withdrawals/cashout with an Idempotency-Key; events of a payout the platform offers no read of move nothing', async () => {
    const { withdrawal } = await withdraw('medius-payout', 2500, 'ana@example.com', PixKeyType.PIX_KEY_TYPE_EMAIL);
    expect(withdrawal).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
    const sent = standIn.received.find((request) => request.path === '/functions/v1/withdrawals/cashout')!;
    expect(sent.headers['idempotency-key']).toBeTruthy();
    expect(sent.body).toEqual({
      pixkeytype: 'EMAIL',
      pixkey: 'ana@example.com',
      requestedamount: 2500,
      description: 'Saque',
      isPix: true,
      postbackUrl: expect.stringContaining('/webhooks/'),
    });
    expect(standIn.payout(withdrawal.withdrawId)).toMatchObject({ requested_amount: 25, status: 'pending', pix: { key_type: 'EMAIL' } });

    // withdrawal.created reaches the gateway at once; withdrawal.completed later. Unsigned, with no payout read to confirm
    // them by, they are hints the gateway cannot prove: the payout stays as the create answer left it.
    await eventually(
      async () => standIn.payoutEvents.some((event) => event.event === 'withdrawal.created' && event.answer < 300),
      10_000,
      'withdrawal.created',
    );
    expect((await standIn.movePayout(withdrawal.withdrawId, 'done', 'withdrawal.completed')).ok).toBe(true);
    const unconfirmed = await eventually(
      async () =>
        (await journey.notifications(withdrawal.id)).find(
          (n: WebhookNotification) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED && n.outcomeReason.includes('APPROVED'),
        ),
      15_000,
      'the unsigned withdrawal.completed left unconfirmed',
    );
    expect(unconfirmed.outcomeReason).toMatch(/no withdrawal lookup/);
    expect((await readPayout(withdrawal.id)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
  });

  it('pays a random key as EVP; a key without a type is refused before anything is sent', async () => {
    const key = '123e4567-e12b-12d1-a456-426655440000';
    const { withdrawal } = await withdraw('medius-evp', 100, key, PixKeyType.PIX_KEY_TYPE_RANDOM);
    expect(standIn.payout(withdrawal.withdrawId)).toMatchObject({ pix: { key_type: 'EVP', key_value: key } });
    const before = standIn.received.length;
    expect(await failureOf(withdraw('medius-untyped', 100, key))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(standIn.received).toHaveLength(before);
  });

  it('reaches the caller with a payout the platform creates failed (more than the balance): REJECTED', async () => {
    const { withdrawal } = await withdraw('medius-too-much', BALANCE * 2, '12345678909', PixKeyType.PIX_KEY_TYPE_CPF);
    expect(withdrawal.status).toBe(WithdrawStatus.WITHDRAW_STATUS_REJECTED);
    expect(standIn.payout(withdrawal.withdrawId)).toMatchObject({ status: 'failed', pix: { key_type: 'CPF', key_value: '12345678909' } });
  });

  it('claims the platform documentation its stand-in was written from; offers no refund (doc 2 §8)', () => {
    expect(MEDIUS.evidence).toEqual({ level: 'platform', addresses: F2_PLATFORM_ADDRESSES });
    expect(MEDIUS.capabilities.refunds).toBeUndefined();
    expect(standIn.count('DELETE', '/functions/v1/transactions/{id}')).toBe(0);
  });
});
