import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createProviderHttp, type HttpAccount, type ProviderHttpDeclaration } from '../../../../server/lib/http/index.js';
import { absent, partial, startFakeProvider, type FakeProvider } from '../../../support/fakeProvider.js';

const quiet = pino({ level: 'silent' });
let fake: FakeProvider;
const account = (extra: Partial<HttpAccount> = {}): HttpAccount => ({
  accountId: `acc-${randomUUID()}`,
  publicKey: 'client-id-1',
  secretKey: 'sk_live_secret',
  baseUrl: fake.url,
  ...extra,
});
const http = (declaration: ProviderHttpDeclaration, ctx = account()) => createProviderHttp({ logger: quiet, ...declaration, ctx });

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterEach(() => {
  try {
    fake.assertAllDone();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

describe('static auth styles, as the provider receives them', () => {
  it('bearer sends the secret key', async () => {
    fake.expect({ method: 'GET', path: '/transactions/tx-1', headers: { authorization: 'Bearer sk_live_secret' }, reply: { body: { id: 'tx-1' } } });
    const { data } = await http({ auth: { type: 'bearer' } }).get<{ id: string }>('/transactions/tx-1');
    expect(data).toEqual({ id: 'tx-1' });
  });

  it('basic sends public:secret in base64', async () => {
    const expected = `Basic ${Buffer.from('client-id-1:sk_live_secret').toString('base64')}`;
    fake.expect({
      method: 'POST',
      path: '/transactions',
      headers: { authorization: expected },
      body: { amount: 1000 },
      reply: { status: 201, body: { id: 'tx-2' } },
    });
    const response = await http({ auth: { type: 'basic' } }).post('/transactions', { amount: 1000 });
    expect(response.status).toBe(201);
  });

  it('API key goes in the configured header, with an optional prefix, and no Authorization header', async () => {
    fake.expect({ method: 'GET', path: '/balance', headers: { 'x-api-key': 'Token sk_live_secret', authorization: absent } });
    await http({ auth: { type: 'apiKey', header: 'X-Api-Key', prefix: 'Token ' } }).get('/balance');
  });

  it('a packed key feeds the auth style with one of its parts', async () => {
    const ctx = account({ secretKey: 'ak_123|shh|acct-9' });
    const parts = (secret: string) => {
      const [apiKey, , accountId] = secret.split('|');
      return { apiKey: apiKey ?? '', accountId: accountId ?? '' };
    };
    fake.expect({ method: 'GET', path: '/v1/ping', headers: { authorization: 'Bearer ak_123', 'x-account-id': 'acct-9' } });
    await http({ auth: { type: 'bearer', token: (a) => parts(a.secretKey).apiKey }, headers: { 'x-account-id': parts(ctx.secretKey).accountId } }, ctx).get(
      '/v1/ping',
    );
  });

  it('a missing key is refused before any request', async () => {
    await expect(http({ auth: { type: 'bearer' } }, account({ secretKey: '' })).get('/x')).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: 'secretKey is required',
    });
    expect(fake.received).toHaveLength(0);
  });
});

describe('OAuth2 client credentials', () => {
  const oauth: ProviderHttpDeclaration = { auth: { type: 'oauth2', tokenPath: '/oauth/token' } };
  const tokenRequest = (token: string, expiresIn = 3600) =>
    fake.expect({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': /application\/x-www-form-urlencoded/ },
      body: { grant_type: 'client_credentials', client_id: 'client-id-1', client_secret: 'sk_live_secret' },
      reply: { body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn } },
    });

  it('fetches the token once and reuses it across calls and clients of the same account', async () => {
    const ctx = account();
    const token = tokenRequest('tok-A');
    const charges = fake.expect({ method: 'GET', path: /\/cob\/\w+/, headers: { authorization: 'Bearer tok-A' }, times: 3 });
    await http(oauth, ctx).get('/cob/a');
    await http(oauth, ctx).get('/cob/b');
    await http(oauth, ctx).get('/cob/c');
    expect(token.calls).toHaveLength(1);
    expect(charges.calls).toHaveLength(3);
  });

  it('concurrent first calls share one token request', async () => {
    const ctx = account();
    tokenRequest('tok-C');
    fake.expect({ method: 'GET', path: '/cob/x', headers: { authorization: 'Bearer tok-C' }, times: 4 });
    await Promise.all([1, 2, 3, 4].map(() => http(oauth, ctx).get('/cob/x')));
  });

  it('accounts do not share tokens', async () => {
    tokenRequest('tok-1');
    tokenRequest('tok-2');
    fake.expect({ method: 'GET', path: '/cob/1', headers: { authorization: 'Bearer tok-1' } });
    fake.expect({ method: 'GET', path: '/cob/2', headers: { authorization: 'Bearer tok-2' } });
    await http(oauth).get('/cob/1');
    await http(oauth).get('/cob/2');
  });

  it('after a 401 refreshes the token once and retries the call once, even a POST', async () => {
    const ctx = account();
    tokenRequest('stale');
    fake.expect({ method: 'POST', path: '/cob', headers: { authorization: 'Bearer stale' }, reply: { status: 401, body: { message: 'token expired' } } });
    tokenRequest('fresh');
    const charge = fake.expect({
      method: 'POST',
      path: '/cob',
      headers: { authorization: 'Bearer fresh' },
      body: partial({ valor: { original: '10.00' } }),
      reply: { status: 201, body: { txid: 'abc' } },
    });
    const { data } = await http(oauth, ctx).post('/cob', { valor: { original: '10.00' }, chave: 'key' });
    expect(data).toEqual({ txid: 'abc' });
    expect(charge.calls).toHaveLength(1);
  });

  it('a second 401 is the answer: no third token, no third call', async () => {
    const ctx = account();
    tokenRequest('one');
    fake.expect({ method: 'GET', path: '/cob/z', headers: { authorization: 'Bearer one' }, reply: { status: 401, body: { message: 'nope' } } });
    tokenRequest('two');
    fake.expect({ method: 'GET', path: '/cob/z', headers: { authorization: 'Bearer two' }, reply: { status: 401, body: { message: 'still no' } } });
    await expect(http(oauth, ctx).get('/cob/z', { errorPrefix: 'Erro ao buscar transação' })).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao buscar transação: still no',
    });
  });

  it('respects the expiry: the token is renewed once its lifetime minus the margin has passed', async () => {
    const ctx = account();
    let now = 1_000_000;
    const clock = { ...oauth, now: () => now };
    tokenRequest('first', 600);
    fake.expect({ method: 'GET', path: '/cob/t', headers: { authorization: 'Bearer first' }, times: 2 });
    await http(clock, ctx).get('/cob/t');
    now += (600 - 61) * 1000; // one second before expiry minus the 60 s margin
    await http(clock, ctx).get('/cob/t');
    tokenRequest('second', 600);
    fake.expect({ method: 'GET', path: '/cob/t', headers: { authorization: 'Bearer second' } });
    now += 2000;
    await http(clock, ctx).get('/cob/t');
  });

  it('JSON body and Basic client authentication, on an absolute token URL', async () => {
    const basic = `Basic ${Buffer.from('client-id-1:sk_live_secret').toString('base64')}`;
    fake.expect({
      method: 'POST',
      path: '/auth/v2/token',
      headers: { authorization: basic, 'content-type': /application\/json/ },
      body: { grant_type: 'client_credentials', scope: 'cob.write' },
      reply: { body: { access_token: 'json-tok', expires_in: '3600' } },
    });
    fake.expect({ method: 'GET', path: '/api/cob/1', headers: { authorization: 'Bearer json-tok' } });
    await http({
      baseUrl: `${fake.url}/api`,
      auth: { type: 'oauth2', tokenPath: `${fake.url}/auth/v2/token`, body: 'json', clientAuth: 'basic', scope: 'cob.write' },
    }).get('/cob/1');
  });

  it('refused client credentials surface with the prefix and the provider message', async () => {
    fake.expect({ method: 'POST', path: '/oauth/token', reply: { status: 401, body: { error: 'invalid_client', error_description: 'bad secret' } } });
    await expect(http(oauth).post('/cob', {}, { errorPrefix: 'Erro ao criar transação' })).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao criar transação: bad secret',
    });
  });

  it('a token answer without access_token is a provider failure, never a success', async () => {
    fake.expect({ method: 'POST', path: '/oauth/token', reply: { body: { status: 'ok' } } });
    await expect(http(oauth).get('/cob/1', { errorPrefix: 'Erro ao buscar transação' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao buscar transação: the OAuth token endpoint answered without an access_token',
    });
  });
});
