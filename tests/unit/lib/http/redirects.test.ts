import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { AxiosError } from 'axios';
import { pino } from 'pino';
import { createProviderHttp } from '../../../../server/lib/http/index.js';
import { startFakeProvider, type FakeProvider } from '../../../support/fakeProvider.js';

/**
 * A provider's API answers; it does not send the gateway elsewhere. A redirect is not followed: a 307 or 308 would
 * resend a charge's body (a card token, a buyer's document) to a host nobody configured, which may be an internal
 * one the account's base URL was checked against, and a 301 or 302 would turn a POST into a GET. It fails the call
 * with the provider's status, as any answer outside 2xx does.
 */
let provider: FakeProvider;
let elsewhere: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider();
  elsewhere = await startFakeProvider();
});
afterAll(async () => {
  await provider.close();
  await elsewhere.close();
});

const http = () =>
  createProviderHttp({
    logger: pino({ level: 'silent' }),
    auth: { type: 'bearer' },
    retry: false,
    ctx: { accountId: 'acc-redirects', publicKey: '', secretKey: 'sk', baseUrl: provider.url },
  });

it.each([307, 308, 301, 302])('does not follow a %i of a charge to another host, and fails the call with it', async (status) => {
  provider.expect({ method: 'POST', path: '/charges', reply: { status, headers: { location: `${elsewhere.url}/charges` }, body: {} } });
  const failure = await http()
    .post('/charges', { amount: 1990, card: { token: 'tok_1' } })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect((failure as AxiosError).response?.status).toBe(status);
  provider.assertAllDone();
  expect(elsewhere.received).toEqual([]);
});
