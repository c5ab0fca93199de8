import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { F2_PLATFORM_ADDRESSES } from '../../server/providers/families/transactionsApi/platforms/f2.js';
import { FAIRPAY } from '../../server/providers/members/fairpay.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { f2Journey } from './f2Gateway.js';
import { F2_PLATFORM_SOURCES, startF2StandIn, type F2StandIn } from './f2Platform.js';

/**
 * FAIRPAY against the stand-in of its platform ("functions/v1", F2), through
 * the gateway's public contract. FairPayments' own documentation was not
 * found; its Basic `secretKey:x` and `x-company-id` header come from the
 * research, the DELETE refund from the specification (doc 2 §7). Only PIX is
 * driven: the platform's card and boleto request fields were not in the pages
 * read, so FAIRPAY's card and boleto stay unverified.
 */

const KEYS = { companyId: '5e1ce642-b9f1-433c-a350-5f9cd3d16bf6', secret: 'sk_fair_standin', webhookSecret: 'whsec_fair_standin' };
let stack: TestStack;
let standIn: F2StandIn;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  standIn = await startF2StandIn({
    name: 'FAIRPAY',
    sources: F2_PLATFORM_SOURCES,
    prefix: '/functions/v1',
    basic: { user: KEYS.secret, password: 'x' },
    headers: { 'x-company-id': KEYS.companyId },
    companyId: KEYS.companyId,
  });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'FAIRPAY',
    name: 'FairPayments stand-in',
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

describe('FAIRPAY against the stand-in of its platform', () => {
  it('charges by PIX with Basic secret:x and x-company-id; its signed postback APPROVES it', async () => {
    await journey.pixPaidBySignedPostback('fair-pix');
    const sent = standIn.received.find((request) => request.method === 'POST')!;
    expect(sent.headers['x-company-id']).toBe(KEYS.companyId);
    expect(sent.body).toMatchObject({ paymentMethod: 'PIX', customer: { document: { type: 'CPF' } }, webhookSecret: KEYS.webhookSecret });
  });

  it('refuses a postback signed with another secret, and confirms an unsigned one with a read', async () => {
    await journey.forgedPostbacksMoveNothing('fair-forged');
  });

  it('refunds part by DELETE /transactions/{id} {amount} (doc 2 §7), then the rest: REFUNDED', async () => {
    const { created } = await journey.pixPaidBySignedPostback('fair-refunds');
    const partial = await journey.refund('fair-refund-1', created.id, 990);
    expect(partial.refund.status).toBe(true);
    expect(partial.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(standIn.received.filter((request) => request.method === 'DELETE').at(-1)).toMatchObject({
      path: `/functions/v1/transactions/${created.transactionId}`,
      body: { amount: 990 },
    });
    expect(standIn.transaction(created.transactionId)).toMatchObject({ refundedAmount: 990, status: 'paid' });

    const rest = await journey.refund('fair-refund-2', created.id, 1000);
    expect(rest.refund.status).toBe(true);
    expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
    expect(standIn.transaction(created.transactionId)).toMatchObject({ refundedAmount: 1990, status: 'refunded' });
    expect((await journey.read(created.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  });

  it("reaches the caller with the platform's refusal of a company id that is not the account's", async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'FAIRPAY',
      name: 'FairPayments stand-in, wrong company',
      publicKey: 'another-company',
      secretKey: KEYS.secret,
      baseUrl: `${standIn.url}/functions/v1`,
    });
    const failure = await failureOf(journey.charge('fair-wrong-company', {}, providerAccount.id));
    expect(failure.message).toMatch(/x-company-id/);
  });

  it('claims the platform documentation its stand-in was written from', () => {
    expect(FAIRPAY.evidence).toEqual({ level: 'platform', addresses: F2_PLATFORM_ADDRESSES });
  });
});
