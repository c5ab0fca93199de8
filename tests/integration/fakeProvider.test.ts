import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import axios, { type AxiosRequestConfig } from 'axios';
import { Agent } from 'node:https';
import { absent, partial, startFakeProvider, startFileServer, testCertificates, type FakeProvider } from '../support/fakeProvider.js';

/** Plain axios that returns every status instead of throwing, so the fake's answers can be inspected. */
const call = (config: AxiosRequestConfig) => axios.request({ validateStatus: () => true, timeout: 5_000, ...config });

describe('fake provider over HTTP', () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('answers a declared request with its canned response and records it', async () => {
    const charge = fake.expect({
      method: 'POST',
      path: '/transactions',
      query: { publicKey: 'pk' },
      headers: { Authorization: 'Bearer sk', 'x-idempotency-key': /^idem-/, 'x-trace': absent },
      body: { amount: 1000, customer: { name: 'Ana' } },
      reply: { status: 201, body: { id: 'tx-1', status: 'waiting_payment' }, headers: { 'x-request-id': 'r-9' } },
    });
    const response = await call({
      method: 'POST',
      url: `${fake.url}/transactions?publicKey=pk`,
      headers: { authorization: 'Bearer sk', 'x-idempotency-key': 'idem-1' },
      data: { amount: 1000, customer: { name: 'Ana' } },
    });
    expect(response.status).toBe(201);
    expect(response.data).toEqual({ id: 'tx-1', status: 'waiting_payment' });
    expect(response.headers['x-request-id']).toBe('r-9');
    expect(charge.done).toBe(true);
    expect(charge.calls[0]).toMatchObject({
      method: 'POST',
      path: '/transactions',
      query: { publicKey: 'pk' },
      body: { amount: 1000, customer: { name: 'Ana' } },
    });
    expect(() => fake.assertAllDone()).not.toThrow();
  });

  it('matches bodies partially, by predicate, and parses form bodies', async () => {
    fake.expect({ method: 'POST', path: '/a', body: partial({ payment: { method: 'pix' } }) });
    fake.expect({ method: 'POST', path: '/b', body: (body) => (body as { amount: number }).amount > 100 });
    fake.expect({ method: 'POST', path: '/oauth/token', body: { grant_type: 'client_credentials', client_id: 'id' } });
    await call({ method: 'POST', url: `${fake.url}/a`, data: { amount: 5, payment: { method: 'pix', expiresIn: 3600 } } });
    await call({ method: 'POST', url: `${fake.url}/b`, data: { amount: 150 } });
    await call({ method: 'POST', url: `${fake.url}/oauth/token`, data: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'id' }) });
    expect(() => fake.assertAllDone()).not.toThrow();
  });

  it('answers an unexpected request with 500, records why it did not match, and fails assertAllDone', async () => {
    fake.expect({ method: 'POST', path: '/transactions', headers: { authorization: 'Bearer right' }, body: partial({ amount: 1000 }) });
    const response = await call({ method: 'POST', url: `${fake.url}/transactions`, headers: { authorization: 'Bearer wrong' }, data: { amount: 999 } });
    expect(response.status).toBe(500);
    expect(fake.unexpected).toHaveLength(1);
    expect(fake.unexpected[0]!.mismatches).toEqual([
      'POST /transactions: header authorization: expected "Bearer right", got "Bearer wrong"',
      'POST /transactions: body does not contain {"amount":1000}: {"amount":999}',
    ]);
    await call({ method: 'DELETE', url: `${fake.url}/charges/1` });
    expect(fake.unexpected[1]!.mismatches).toEqual(['no expectation declared for this method and path']);
    expect(() => fake.assertAllDone()).toThrow(
      /unexpected POST \/transactions[\s\S]*unexpected DELETE \/charges\/1[\s\S]*expected but not received: POST \/transactions \(0\/1 received\)/,
    );
  });

  it('fails assertAllDone while a declared request has not arrived, and answers each expectation only its times', async () => {
    fake.expect({ method: 'GET', path: /\/transactions\/[^/]+/, times: 2, reply: { body: { n: 1 } } });
    fake.expect({ method: 'GET', path: '/transactions/x', reply: { body: { n: 2 } } });
    expect((await call({ url: `${fake.url}/transactions/x` })).data).toEqual({ n: 1 });
    expect(() => fake.assertAllDone()).toThrow(/GET \/\\\/transactions\\\/\[\^\/\]\+\/ \(1\/2 received\)/);
    expect((await call({ url: `${fake.url}/transactions/y` })).data).toEqual({ n: 1 });
    expect((await call({ url: `${fake.url}/transactions/x` })).data).toEqual({ n: 2 });
    expect(() => fake.assertAllDone()).not.toThrow();
    expect((await call({ url: `${fake.url}/transactions/x` })).status).toBe(500);
    expect(() => fake.assertAllDone()).toThrow(/unexpected GET \/transactions\/x/);
  });

  it('delays an answer, builds one from the request, and can drop the connection', async () => {
    fake.expect({ method: 'GET', path: '/slow', reply: { delayMs: 300, body: { ok: true } } });
    fake.expect({ method: 'POST', path: '/echo', reply: (request) => ({ status: 202, body: { got: request.body } }) });
    fake.expect({ method: 'GET', path: '/drop', reply: { dropConnection: true } });
    await expect(call({ url: `${fake.url}/slow`, timeout: 100 })).rejects.toMatchObject({ code: 'ECONNABORTED' });
    expect((await call({ method: 'POST', url: `${fake.url}/echo`, data: { a: 1 } })).data).toEqual({ got: { a: 1 } });
    await expect(call({ url: `${fake.url}/drop` })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(() => fake.assertAllDone()).not.toThrow();
  });
});

describe('fake provider over HTTPS and mTLS', () => {
  let https: FakeProvider;
  let mtls: FakeProvider;
  beforeAll(async () => {
    https = await startFakeProvider({ tls: 'https' });
    mtls = await startFakeProvider({ tls: 'mtls' });
  });
  afterAll(async () => {
    await https.close();
    await mtls.close();
  });

  it('serves HTTPS with a certificate from the test CA, trusted only when the CA is', async () => {
    https.expect({ method: 'GET', path: '/ping', reply: { body: { pong: true } } });
    expect(https.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    await expect(call({ url: `${https.url}/ping` })).rejects.toMatchObject({
      code: expect.stringMatching(/^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)$/),
    });
    const trusted = await call({ url: `${https.url}/ping`, httpsAgent: new Agent({ ca: https.ca }) });
    expect(trusted.data).toEqual({ pong: true });
    https.assertAllDone();
  });

  it('mTLS refuses a client without a certificate and records the CN of one with it', async () => {
    const pki = await testCertificates();
    mtls.expect({ method: 'GET', path: '/cob/1', reply: { body: { status: 'ATIVA' } } });
    await expect(call({ url: `${mtls.url}/cob/1`, httpsAgent: new Agent({ ca: mtls.ca }) })).rejects.toThrow(/certificate required/);
    expect(mtls.received).toHaveLength(0);
    const response = await call({ url: `${mtls.url}/cob/1`, httpsAgent: new Agent({ ca: mtls.ca, cert: pki.clientCert, key: pki.clientKey }) });
    expect(response.data).toEqual({ status: 'ATIVA' });
    expect(mtls.received[0]!.clientCertificate).toBe('platform-client');
    mtls.assertAllDone();
  });
});

describe('file server for certificate URLs', () => {
  it('serves the declared files, counts downloads and 404s the rest', async () => {
    const pki = await testCertificates();
    const files = await startFileServer({ '/certs/client.pem': pki.clientPem });
    try {
      const file = await call({ url: files.url('/certs/client.pem'), responseType: 'text' });
      expect(file.data).toBe(pki.clientPem);
      expect(file.data).toMatch(/-----BEGIN CERTIFICATE-----[\s\S]+-----BEGIN PRIVATE KEY-----/);
      expect((await call({ url: files.url('/certs/other.pem') })).status).toBe(404);
      expect(files.hits).toEqual({ '/certs/client.pem': 1 });
    } finally {
      await files.close();
    }
  });
});
