import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GetAccountBalanceRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { NOXPAY_SOURCES, startNoxpayStandIn, type NoxpayStandIn } from './noxpay.js';

/**
 * NOXPAY's balance read: the whole gateway, through its public gRPC contract,
 * against a stand-in written from NoxPay's API document (tests/standins/noxpay.ts).
 */

const API_KEY = 'nox-standin-4f1c2a9e7b';
let stack: TestStack;
let nox: NoxpayStandIn;

const createAccount = async (secretKey: string) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'NOXPAY',
      name: `NoxPay stand-in ${secretKey}`,
      publicKey: '',
      secretKey,
      baseUrl: nox.url,
    })
  ).providerAccount.id as string;
const balance = (providerAccountId: string) => stack.client.call('accounts', 'getAccountBalance', GetAccountBalanceRequest.fromPartial({ providerAccountId }));

beforeAll(async () => {
  stack = await startTestStack();
  nox = await startNoxpayStandIn({ apiKey: API_KEY });
});

afterAll(async () => {
  await nox?.close();
  await stack?.close();
});

describe('NOXPAY against a stand-in written from its API document', () => {
  it('names the documentation it was written from', () => {
    expect(nox.sources).toEqual(NOXPAY_SOURCES);
  });

  it("GetAccountBalance: NoxPay's balance in reais read as cents, with nothing pending", async () => {
    const accountId = await createAccount(API_KEY);
    nox.balance = 38_960;
    const read = await balance(accountId);
    expect(read).toMatchObject({ available: 38_960, currency: 'BRL' });
    expect(read.pending).toBeUndefined();
    nox.balance = 123_456_789;
    expect(await balance(accountId)).toMatchObject({ available: 123_456_789 });
    expect(nox.count('GET', '/account')).toBe(2);
    expect(nox.received.every((request) => request.headers['api-key'] === API_KEY)).toBe(true);
  });

  it("a key NoxPay refuses is the balance read's failure, under its prefix", async () => {
    const accountId = await createAccount('nox-wrong-key');
    const refused = await failureOf(balance(accountId));
    // NoxPay's document shows no error body: the status is all there is to report.
    expect(refused).toEqual({ code: 'FAILED_PRECONDITION', message: 'Erro ao consultar saldo: Request failed with status code 401' });
  });

  it('the stand-in saw only documented routes, and never failed', () => {
    expect(nox.unmatched).toEqual([]);
    expect(nox.crashed).toEqual([]);
  });
});
