import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { F2_PLATFORM_ADDRESSES } from '../../server/providers/families/transactionsApi/platforms/f2.js';
import { BRPIXDIGITAL, BRPIXDIGITAL_REFUND_REASON } from '../../server/providers/members/brpixdigital.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { f2Journey } from './f2Gateway.js';
import { F2_PLATFORM_SOURCES, startF2StandIn, type F2StandIn } from './f2Platform.js';

/**
 * BRPIXDIGITAL against the stand-in of its platform ("functions/v1", F2),
 * through the gateway's public contract. BRPIX Digital's own reference
 * (https://brpixdigital.readme.io/reference/post_transactions, cited by its
 * integrations) is not in the stored corpora: the stand-in is the platform's,
 * with BRPIX Digital's Basic `secretKey:companyId` (research) and the
 * specification's refund (DELETE with amount and reason) and statuses.
 */

const KEYS = { companyId: '2a5578e4-a8bf-4be7-be03-c36d2bedece6', secret: 'sk_brpix_standin', webhookSecret: 'whsec_brpix_standin' };
let stack: TestStack;
let standIn: F2StandIn;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  standIn = await startF2StandIn({
    name: 'BRPIXDIGITAL',
    sources: F2_PLATFORM_SOURCES,
    prefix: '/functions/v1',
    basic: { user: KEYS.secret, password: KEYS.companyId },
    companyId: KEYS.companyId,
  });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'BRPIXDIGITAL',
    name: 'BRPIX Digital stand-in',
    publicKey: KEYS.companyId,
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

describe('BRPIXDIGITAL against the stand-in of its platform', () => {
  it('charges by PIX as the platform documents it (PIX, CPF, cents, the account webhook secret); its signed postback APPROVES it', async () => {
    const { created } = await journey.pixPaidBySignedPostback('brpix-pix');
    const sent = standIn.received.find((request) => request.method === 'POST' && request.path === '/functions/v1/transactions')!;
    expect(sent.body).toMatchObject({ paymentMethod: 'PIX', pix: { expiresInDays: 1 }, webhookSecret: KEYS.webhookSecret, externalRef: 'order-brpix-pix' });
    expect(created.transactionId).toBe(standIn.received.find((r) => r.method === 'GET')!.params.id);
  });

  it('refuses a postback signed with another secret, and confirms an unsigned one with a read', async () => {
    await journey.forgedPostbacksMoveNothing('brpix-forged');
  });

  it('refunds part by DELETE /transactions/{id} with amount and reason (doc 3 §7), then the rest', async () => {
    const { created } = await journey.pixPaidBySignedPostback('brpix-refunds');
    const partial = await journey.refund('brpix-refund-1', created.id, 500);
    expect(partial.refund.status).toBe(true);
    expect(partial.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const deletes = standIn.received.filter((request) => request.method === 'DELETE');
    expect(deletes.at(-1)).toMatchObject({
      path: `/functions/v1/transactions/${created.transactionId}`,
      body: { amount: 500, reason: BRPIXDIGITAL_REFUND_REASON },
    });
    expect(standIn.transaction(created.transactionId)).toMatchObject({ refundedAmount: 500, status: 'paid' });

    const rest = await journey.refund('brpix-refund-2', created.id, 1490);
    expect(rest.refund.status).toBe(true);
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(standIn.transaction(created.transactionId)).toMatchObject({ refundedAmount: 1990, status: 'refunded' });
    // The platform now says `refunded`, which BRPIX Digital's table reads CHARGEBACK (doc 3 §4): a refund the gateway made
    // stays REFUNDED, the state machine moving no refunded charge sideways.
    expect((await journey.read(created.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it("reaches the caller with the platform's refusal of wrong credentials, under the spec's 'Erro na criação da transação PIX: …'", async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'BRPIXDIGITAL',
      name: 'BRPIX Digital stand-in, wrong company',
      publicKey: 'another-company',
      secretKey: KEYS.secret,
      baseUrl: `${standIn.url}/functions/v1`,
    });
    const failure = await failureOf(journey.charge('brpix-wrong-keys', {}, providerAccount.id));
    expect(failure.message).toMatch(/^Erro na criação da transação PIX: .*Invalid credentials/);
  });

  it('claims the platform documentation its stand-in was written from', () => {
    expect(BRPIXDIGITAL.evidence).toEqual({ level: 'platform', addresses: F2_PLATFORM_ADDRESSES });
    expect([...F2_PLATFORM_ADDRESSES]).toEqual([...F2_PLATFORM_SOURCES]);
  });
});
