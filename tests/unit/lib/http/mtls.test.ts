import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID, X509Certificate } from 'node:crypto';
import { pino } from 'pino';
import {
  certificateExpiries,
  clearClientCertificates,
  createProviderHttp,
  trustCertificateAuthority,
  type HttpAccount,
  type ProviderHttpDeclaration,
} from '../../../../server/lib/http/index.js';
import { startFakeProvider, startFileServer, testCertificates, toPkcs12, type FakeProvider, type FileServer } from '../../../support/fakeProvider.js';

const quiet = pino({ level: 'silent' });
let fake: FakeProvider;
let files: FileServer;
/** When the platform's client certificate expires, as its own bytes say. */
let clientNotAfter: Date;
const account = (extra: Partial<HttpAccount> = {}): HttpAccount => ({
  accountId: `acc-${randomUUID()}`,
  publicKey: 'client-id',
  secretKey: 'client-secret',
  baseUrl: fake.url,
  ...extra,
});
const declaration: ProviderHttpDeclaration = { logger: quiet, retry: false, timeoutMs: 5_000 };

beforeAll(async () => {
  fake = await startFakeProvider({ tls: 'mtls' });
  const pki = await testCertificates();
  clientNotAfter = new Date(new X509Certificate(pki.clientCert).validTo);
  files = await startFileServer({
    '/platform/cash-in.pem': pki.clientPem,
    '/platform/cert-only.pem': pki.clientCert,
    '/platform/cash-out.p12': toPkcs12(pki.clientCert, pki.clientKey, 'p12-pass'),
  });
});
afterEach(() => {
  try {
    fake.assertAllDone();
  } finally {
    fake.reset();
  }
});
afterAll(async () => {
  await fake.close();
  await files.close();
});

describe('mTLS with the platform certificate', () => {
  it('presents the PEM certificate fetched from the cash-in URL, fetched once for many calls', async () => {
    clearClientCertificates();
    const ctx = account({ certCashInUrl: files.url('/platform/cash-in.pem') });
    const calls = fake.expect({ method: 'GET', path: '/cob/1', times: 3, reply: { body: { status: 'ATIVA' } } });
    for (let i = 0; i < 3; i++) {
      await expect(createProviderHttp({ ...declaration, ctx, mtls: 'cashIn', ca: fake.ca }).get('/cob/1')).resolves.toMatchObject({
        data: { status: 'ATIVA' },
      });
    }
    expect(calls.calls.map((call) => call.clientCertificate)).toEqual(['platform-client', 'platform-client', 'platform-client']);
    expect(files.hits['/platform/cash-in.pem']).toBe(1);
  });

  it('OAuth2 token exchange and API call both go over the client certificate', async () => {
    const ctx = account({ certCashInUrl: files.url('/platform/cash-in.pem') });
    fake.expect({
      method: 'POST',
      path: '/oauth/token',
      body: { grant_type: 'client_credentials', client_id: 'client-id', client_secret: 'client-secret' },
      reply: { body: { access_token: 'mtls-token', expires_in: 3600 } },
    });
    const cob = fake.expect({ method: 'POST', path: '/cob', headers: { authorization: 'Bearer mtls-token' }, reply: { status: 201, body: { txid: 't' } } });
    await createProviderHttp({ ...declaration, ctx, mtls: 'cashIn', ca: fake.ca, auth: { type: 'oauth2', tokenPath: '/oauth/token' } }).post('/cob', {
      valor: { original: '1.00' },
    });
    expect(fake.received.every((request) => request.clientCertificate === 'platform-client')).toBe(true);
    expect(cob.calls).toHaveLength(1);
  });

  it('accepts a PKCS#12 bundle (.p12) with the passphrase the adapter declares', async () => {
    const ctx = account({ secretKey: 'client-secret|p12-pass', certCashOutUrl: files.url('/platform/cash-out.p12') });
    fake.expect({ method: 'POST', path: '/pix/payments/dict', reply: { status: 201, body: { id: 'payout' } } });
    const http = createProviderHttp({ ...declaration, ctx, ca: fake.ca, mtls: { certificate: 'cashOut', passphrase: (a) => a.secretKey.split('|')[1]! } });
    await expect(http.post('/pix/payments/dict', { pixKey: 'k' })).resolves.toMatchObject({ status: 201 });
    expect(fake.received[0]?.clientCertificate).toBe('platform-client');
  });

  it('records when each certificate an account presents expires, PEM and PKCS#12 alike (for the metrics)', async () => {
    const ctx = account({
      secretKey: 'client-secret|p12-pass',
      certCashInUrl: files.url('/platform/cash-in.pem'),
      certCashOutUrl: files.url('/platform/cash-out.p12'),
    });
    fake.expect({ method: 'GET', path: '/cob/3', reply: { body: {} } });
    fake.expect({ method: 'POST', path: '/pix/payments/dict', reply: { status: 201, body: { id: 'payout' } } });
    await createProviderHttp({ ...declaration, provider: 'ACME', ctx, mtls: 'cashIn', ca: fake.ca }).get('/cob/3');
    await createProviderHttp({
      ...declaration,
      provider: 'ACME',
      ctx,
      ca: fake.ca,
      mtls: { certificate: 'cashOut', passphrase: (a) => a.secretKey.split('|')[1]! },
    }).post('/pix/payments/dict', { pixKey: 'k' });
    const recorded = certificateExpiries().filter((expiry) => expiry.accountId === ctx.accountId);
    expect(recorded.sort((a, b) => a.certificate.localeCompare(b.certificate))).toEqual([
      { provider: 'ACME', accountId: ctx.accountId, certificate: 'cashIn', notAfter: clientNotAfter },
      { provider: 'ACME', accountId: ctx.accountId, certificate: 'cashOut', notAfter: clientNotAfter },
    ]);
    expect(clientNotAfter.getTime()).toBeGreaterThan(Date.now());
  });

  it('the CA can also be trusted process-wide, as adapter tests do', async () => {
    const untrust = trustCertificateAuthority(fake.ca!);
    try {
      const ctx = account({ certCashInUrl: files.url('/platform/cash-in.pem') });
      fake.expect({ method: 'GET', path: '/cob/2' });
      await createProviderHttp({ ...declaration, ctx, mtls: 'cashIn' }).get('/cob/2');
    } finally {
      untrust();
    }
  });

  it('fails without the client certificate: the handshake is refused and nothing reaches the provider', async () => {
    const error = await createProviderHttp({ ...declaration, ctx: account(), ca: fake.ca })
      .post('/cob', {}, { errorPrefix: 'Erro ao criar transação' })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/^Erro ao criar transação: .*certificate/i) });
    expect(fake.received).toHaveLength(0);
  });

  it("an account whose platform has no certificate URL gets the spec's 'Unauthorized.' before any call", async () => {
    await expect(
      createProviderHttp({ ...declaration, ctx: account(), ca: fake.ca, mtls: 'cashOut' }).post(
        '/pix/payments/dict',
        {},
        { errorPrefix: 'Erro ao realizar saque' },
      ),
    ).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: 'Unauthorized.',
    });
    expect(fake.received).toHaveLength(0);
  });

  it('does not trust the fake unless told to', async () => {
    const ctx = account({ certCashInUrl: files.url('/platform/cash-in.pem') });
    await expect(createProviderHttp({ ...declaration, ctx, mtls: 'cashIn' }).get('/cob/1', { errorPrefix: 'Erro ao buscar transação' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/^Erro ao buscar transação: (self-signed certificate in certificate chain|unable to verify the first certificate)$/),
    });
  });

  it('a certificate file without its key, or a missing file, is a clear configuration error', async () => {
    const certOnly = account({ certCashInUrl: `${files.url('/platform/cert-only.pem')}?X-Amz-Signature=secret` });
    const missing = account({ certCashInUrl: files.url('/platform/gone.pem') });
    await expect(
      createProviderHttp({ ...declaration, ctx: certOnly, ca: fake.ca, mtls: 'cashIn' }).get('/cob/1', { errorPrefix: 'Erro ao buscar transação' }),
    ).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: `Erro ao buscar transação: client certificate at ${files.url('/platform/cert-only.pem')} is unusable: no PRIVATE KEY block (the file must hold both the certificate and its key)`,
    });
    await expect(
      createProviderHttp({ ...declaration, ctx: missing, ca: fake.ca, mtls: 'cashIn' }).get('/cob/1', { errorPrefix: 'Erro ao buscar transação' }),
    ).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: `Erro ao buscar transação: client certificate at ${files.url('/platform/gone.pem')} could not be read: HTTP 404`,
    });
    expect(fake.received).toHaveLength(0);
  });
});
