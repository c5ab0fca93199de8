import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { ConnectionVerdict } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { clearHttpsAgents } from '../../server/lib/http/tlsAgent.js';
import { createLogger } from '../../server/lib/logger.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import type { TestCertificates } from '../support/fakeProvider.js';
import { uploadCertificate } from '../support/certificateUploads.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startVolutiMtlsStandIn, type VolutiMtlsStandIn } from '../support/volutiStandIn.js';
import type { BacenPixStandIn } from '../standins/bacenpix.js';

/**
 * A provider account's client certificate given as the provider hands it out: a .crt and its .key, two files uploaded
 * as certificates (UPLOAD_PURPOSE_CERTIFICATE), named by cert_cash_in_url / cert_cash_out_url and their *_key_url. The
 * gateway checks the key is the certificate's, joins the two into one private file of its store, and presents that in
 * the mTLS handshake of the API Pix stand-in (VOLUTI). A key of another certificate is refused naming the key's field.
 */
const CLIENT_ID = 'voluti-keyfile-client';
const CLIENT_SECRET = 'voluti-keyfile-secret';
const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';

let stack: TestStack;
let standIn: BacenPixStandIn;
let certificates: TestCertificates;
let voluti: VolutiMtlsStandIn;
const logLines: string[] = [];

/** A certificate or key file uploaded as the back-office uploads it; its address in the gateway's store. */
const uploadedUrl = async (fileName: string, contentType: string, text: string) =>
  (await uploadCertificate(stack.client, fileName, contentType, text)).publicUrl;

const createVoluti = (name: string, certificate: { cert: string; key?: string }) =>
  stack.client.call('accounts', 'createProviderAccount', {
    provider: 'VOLUTI',
    name,
    publicKey: `${CLIENT_ID}|${CHAVE}`,
    secretKey: CLIENT_SECRET,
    baseUrl: standIn.url,
    certCashInUrl: certificate.cert,
    certCashOutUrl: certificate.cert,
    certCashInKeyUrl: certificate.key,
    certCashOutKeyUrl: certificate.key,
  });

beforeAll(async () => {
  voluti = await startVolutiMtlsStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, chave: CHAVE });
  ({ standIn, certificates } = voluti);
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' }, logger: createLogger('debug', destination) });
});

afterAll(async () => {
  await stack?.close();
  await voluti?.close();
});

it('takes a .crt and its .key as two files, and presents the pair in the handshake', async () => {
  const crt = await uploadedUrl('voluti.crt', 'application/x-x509-ca-cert', certificates.clientCert);
  const key = await uploadedUrl('voluti.key', 'application/x-pem-file', certificates.clientKey);
  const { providerAccount } = await createVoluti('Voluti com .crt e .key', { cert: crt, key });
  // The account names the one private file the store joined the two into, under the certificate prefix.
  expect(providerAccount.certCashInUrl).toMatch(/\/uploads\/certificates\/[0-9a-f-]{36}\/voluti-with-key\.pem$/);
  expect(providerAccount.certCashOutUrl).toMatch(/\/uploads\/certificates\/[0-9a-f-]{36}\/voluti-with-key\.pem$/);
  expect((await fetch(providerAccount.certCashInUrl!)).status).toBe(403);

  const handshakes = standIn.clientCertificates.length;
  const answer = await stack.client.call('accounts', 'testProviderAccount', { id: providerAccount.id });
  expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_OK);
  expect(standIn.clientCertificates.slice(handshakes)).toContain('platform-client');

  // An update may give the pair again for one direction; the account keeps working with it.
  const crt2 = await uploadedUrl('voluti-saida.crt', 'application/x-x509-ca-cert', certificates.clientCert);
  const { providerAccount: updated } = await stack.client.call('accounts', 'updateProviderAccount', {
    id: providerAccount.id,
    certCashOutUrl: crt2,
    certCashOutKeyUrl: key,
  });
  expect(updated.certCashOutUrl).toMatch(/\/voluti-saida-with-key\.pem$/);
  expect(updated.certCashInUrl).toBe(providerAccount.certCashInUrl);

  // Neither the database nor the logs hold the key.
  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    const { rows } = await db.query('select * from provider_accounts where id = $1', [providerAccount.id]);
    expect(JSON.stringify(rows)).not.toContain('BEGIN');
  } finally {
    await db.end();
  }
  const logs = logLines.join('\n');
  expect(logLines.length).toBeGreaterThan(0);
  expect(logs).not.toContain('PRIVATE KEY');
  expect(logs).not.toContain(certificates.clientKey.split('\n')[1]);
});

it('tests an unsaved account whose certificate and key are two files: the pair is presented, nothing is saved', async () => {
  const crt = await uploadedUrl('voluti-teste.crt', 'application/x-x509-ca-cert', certificates.clientCert);
  const key = await uploadedUrl('voluti-teste.key', 'application/x-pem-file', certificates.clientKey);
  const candidate = {
    provider: 'VOLUTI',
    publicKey: `${CLIENT_ID}|${CHAVE}`,
    secretKey: CLIENT_SECRET,
    baseUrl: standIn.url,
    certCashInUrl: crt,
    certCashOutUrl: crt,
  };
  const before = (await stack.client.call('accounts', 'listProviderAccounts', { provider: 'VOLUTI' })).providerAccounts.length;
  // One keep-alive agent per client certificate (tlsAgent.ts): the first test's account presented the same certificate,
  // and its idle connection would carry this test without a handshake. Closed, so this candidate's pair makes its own.
  clearHttpsAgents();
  const handshakes = standIn.clientCertificates.length;
  const answer = await stack.client.call('accounts', 'testProviderAccount', {
    id: '',
    candidate: { ...candidate, certCashInKeyUrl: key, certCashOutKeyUrl: key },
  });
  expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_OK);
  expect(standIn.clientCertificates.slice(handshakes)).toContain('platform-client');
  // The certificate alone has no key: the test refuses it, as a save would, rather than answering a verdict.
  const alone = stack.client.call('accounts', 'testProviderAccount', { id: '', candidate });
  await expect(errorDetailsOf(alone)).resolves.toMatchObject({ reason: 'CERTIFICATE_INCOMPLETE' });
  expect((await stack.client.call('accounts', 'listProviderAccounts', { provider: 'VOLUTI' })).providerAccounts).toHaveLength(before);
});

it("refuses a key that is not the certificate's, naming the key's field and the rule", async () => {
  const crt = await uploadedUrl('voluti.crt', 'application/x-x509-ca-cert', certificates.clientCert);
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = await uploadedUrl('outra.key', 'application/x-pem-file', other);
  const call = () => createVoluti('Voluti com chave trocada', { cert: crt, key });
  await expect(failureOf(call())).resolves.toEqual({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/^cert_cash_in_key_url names http\S+\/outra\.key, a private key that does not match the public key of the certificate/),
  });
  await expect(errorDetailsOf(call())).resolves.toMatchObject({ reason: 'INVALID_ARGUMENT', fields: ['cert_cash_in_key_url'] });
  expect(JSON.stringify(await errorDetailsOf(call()))).toContain('CERTIFICATE_KEY_MISMATCH');
  await expect(stack.client.call('accounts', 'listProviderAccounts', { provider: 'VOLUTI' })).resolves.toMatchObject({
    providerAccounts: expect.not.arrayContaining([expect.objectContaining({ name: 'Voluti com chave trocada' })]),
  });
});

it('refuses a key without its certificate, or two files that are not a certificate and a key', async () => {
  const crt = await uploadedUrl('voluti.crt', 'application/x-x509-ca-cert', certificates.clientCert);
  const key = await uploadedUrl('voluti.key', 'application/x-pem-file', certificates.clientKey);
  await expect(
    errorDetailsOf(
      stack.client.call('accounts', 'createProviderAccount', {
        provider: 'VOLUTI',
        name: 'Voluti só com a chave',
        publicKey: `${CLIENT_ID}|${CHAVE}`,
        secretKey: CLIENT_SECRET,
        certCashInKeyUrl: key,
      }),
    ),
  ).resolves.toMatchObject({ reason: 'INVALID_ARGUMENT', fields: ['cert_cash_in_url'] });
  // The two files swapped: the certificate's field holds no certificate.
  await expect(errorDetailsOf(createVoluti('Voluti trocado', { cert: key, key: crt }))).resolves.toMatchObject({ reason: 'CERTIFICATE_INCOMPLETE' });
  // A key of another host: only files of the gateway's store are joined.
  await expect(errorDetailsOf(createVoluti('Voluti com chave externa', { cert: crt, key: 'https://example.com/voluti.key' }))).resolves.toMatchObject({
    reason: 'INVALID_ARGUMENT',
    fields: ['cert_cash_in_key_url'],
  });
});
