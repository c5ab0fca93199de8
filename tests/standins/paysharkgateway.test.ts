import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PixKeyType } from '../../gen/ts-proto/gateway/v1/types.js';
import { PAYSHARKGATEWAY } from '../../server/providers/members/paysharkgateway.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import type { F1StandIn } from './f1Platform.js';
import { f1Journey } from './f1Gateway.js';
import { startPaySharkGatewayStandIn } from './paysharkgateway.js';

/** PAYSHARKGATEWAY against its platform's stand-in, through the gateway's public contract (PROVIDERS.md §3). */

const KEYS = { secret: 'sk_shark_standin', withdrawKey: 'wk_shark_standin' };
let stack: TestStack;
let standIn: F1StandIn;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  standIn = await startPaySharkGatewayStandIn(KEYS);
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'PAYSHARKGATEWAY',
    name: 'PaySharkGateway stand-in',
    publicKey: '',
    secretKey: `${KEYS.secret}|${KEYS.withdrawKey}`,
    baseUrl: standIn.url,
  });
  accountId = providerAccount.id;
}, 60_000);

afterAll(async () => {
  await standIn?.close();
  await stack?.close();
});

const journey = f1Journey(
  () => stack,
  () => standIn,
  () => accountId,
);

describe('PAYSHARKGATEWAY against the stand-in of its platform', () => {
  it("charges by PIX; its unsigned postback (the platform's envelope) is confirmed by a read and APPROVES it", async () => {
    await journey.pix();
  });

  it('refuses a postback the platform did not send: unsigned, it is checked with a read and moves nothing', async () => {
    await journey.forgedPostback();
  });

  it("a card the platform declines ('refused', with its refusedReason) reaches the caller REJECTED", async () => {
    await journey.refusedCard();
  });

  it('charges by boleto (expiring on the date it sent) and by card hash; refunds part, then the rest', async () => {
    await journey.boleto();
    await journey.cardAndRefunds();
  });

  it('pays out with x-withdraw-key; its withdraw postback is confirmed by GET /v1/transfers/{id} and APPROVES it', async () => {
    const { atProvider } = await journey.payout(PixKeyType.PIX_KEY_TYPE_EMAIL);
    expect(atProvider).toMatchObject({ amount: 2500, pixKey: 'ana@example.com', pixKeyType: 'email', status: 'COMPLETED' });
  });

  it('pays out a key without a type as evp ("PaySharkGateway uses lowercase and defaults to evp", doc 3 §5)', async () => {
    const { atProvider } = await journey.payout(undefined);
    expect(atProvider).toMatchObject({ pixKey: '123e4567-e12b-12d1-a456-426655440000', pixKeyType: 'evp' });
  });

  it('sent nothing the platform has no route for, and never crashed it; and it claims no documentation it was not written from', () => {
    expect(standIn.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
    expect(standIn.crashed).toEqual([]);
    // The charge, the transaction object and the postbacks are the platform's documentation; refunds, transfers and
    // x-withdraw-key only its public clients (no page of its documentation that could be read shows them): unverified.
    expect(PAYSHARKGATEWAY.evidence).toBeUndefined();
  });
});
