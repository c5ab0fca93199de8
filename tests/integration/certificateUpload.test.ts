import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import pg from 'pg';
import { ConnectionVerdict } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { CreateUploadLinkRequest, UploadPurpose } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { createLogger } from '../../server/lib/logger.js';
import { connectDriver, errorDetailsOf, failureOf } from '../support/clients.js';
import { startFileServer, toPkcs12, type FileServer, type TestCertificates } from '../support/fakeProvider.js';
import { certificateLink, uploadCertificate } from '../support/certificateUploads.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startVolutiMtlsStandIn, type VolutiMtlsStandIn } from '../support/volutiStandIn.js';
import type { BacenPixStandIn } from '../standins/bacenpix.js';

/**
 * A provider account's client certificate uploaded to the gateway's own store (UploadService.CreateUploadLink, purpose
 * UPLOAD_PURPOSE_CERTIFICATE): kept private under its own prefix (its plain address answers 403, whatever
 * UPLOADS_PRIVATE says), named by the account as its certificate address, and read by the gateway through a presigned
 * GET when it presents the certificate in the mTLS handshake of the API Pix stand-in (VOLUTI). The certificate and its
 * key reach neither the database nor the logs; only the address is stored.
 */
const CLIENT_ID = 'voluti-upload-client';
const CLIENT_SECRET = 'voluti-upload-secret';
const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';
const P12_PASSPHRASE = 'senha-do-p12';

let stack: TestStack;
let standIn: BacenPixStandIn;
let certificates: TestCertificates;
let voluti: VolutiMtlsStandIn;
const logLines: string[] = [];

const s3Code = async (response: Response) => ({ status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1] });

const createVoluti = (name: string, certificateUrl: string, secretKey = CLIENT_SECRET) =>
  stack.client.call('accounts', 'createProviderAccount', {
    provider: 'VOLUTI',
    name,
    publicKey: `${CLIENT_ID}|${CHAVE}`,
    secretKey,
    baseUrl: standIn.url,
    certCashInUrl: certificateUrl,
    certCashOutUrl: certificateUrl,
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
  // Uploads public-read by default (no UPLOADS_PRIVATE): a certificate is private all the same.
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' }, logger: createLogger('debug', destination) });
});

afterAll(async () => {
  await stack?.close();
  await voluti?.close();
});

it('keeps an uploaded certificate private, and presents it to the provider read through a presigned link', async () => {
  const pem = Buffer.from(certificates.clientPem);
  const link = await uploadCertificate(stack.client, 'voluti cash-in.pem', 'application/x-pem-file', pem);
  expect(link.publicRead).toBe(false);
  expect(link.objectKey).toMatch(/^uploads\/certificates\/[0-9a-f-]{36}\/voluti cash-in\.pem$/);
  expect(link.headers).toEqual({ 'content-type': 'application/x-pem-file', 'cache-control': 'private, no-store' });

  // Its plain address answers 403 to anyone, even though the store's other uploads are public-read.
  await expect(s3Code(await fetch(link.publicUrl))).resolves.toEqual({ status: 403, code: 'AccessDenied' });

  const { providerAccount } = await createVoluti('Voluti com certificado enviado', link.publicUrl);
  expect(providerAccount.certCashInUrl).toBe(link.publicUrl);
  const handshakes = standIn.clientCertificates.length;
  const answer = await stack.client.call('accounts', 'testProviderAccount', { id: providerAccount.id });
  expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_OK);
  // The stand-in saw the platform's certificate: the gateway read the private object.
  expect(standIn.clientCertificates.slice(handshakes)).toContain('platform-client');

  // The database holds the address only; the logs name it without any signature, and neither holds the key.
  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    const { rows } = await db.query('select * from provider_accounts where id = $1', [providerAccount.id]);
    expect(rows[0]).toMatchObject({ cert_cash_in_url: link.publicUrl, cert_cash_out_url: link.publicUrl });
    expect(JSON.stringify(rows)).not.toContain('BEGIN');
  } finally {
    await db.end();
  }
  const logs = logLines.join('\n');
  expect(logLines.length).toBeGreaterThan(0);
  expect(logs).not.toContain('PRIVATE KEY');
  expect(logs).not.toContain(certificates.clientKey.split('\n')[1]);
  expect(logs).not.toContain('X-Amz-Signature');
});

it('takes a PKCS#12 bundle (.p12) with its passphrase', async () => {
  const p12 = toPkcs12(certificates.clientCert, certificates.clientKey, P12_PASSPHRASE) as Buffer<ArrayBuffer>;
  const link = await uploadCertificate(stack.client, 'voluti.p12', 'application/x-pkcs12', p12);
  await expect(s3Code(await fetch(link.publicUrl))).resolves.toEqual({ status: 403, code: 'AccessDenied' });
  const { providerAccount } = await createVoluti('Voluti com p12 enviado', link.publicUrl, `${CLIENT_SECRET}|${P12_PASSPHRASE}`);
  const handshakes = standIn.clientCertificates.length;
  const answer = await stack.client.call('accounts', 'testProviderAccount', { id: providerAccount.id });
  expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_OK);
  expect(standIn.clientCertificates.slice(handshakes)).toContain('platform-client');
});

describe('refuses', () => {
  it.each([
    ['a file that is no certificate', 'cert.txt', 'text/plain', 100, 'file_name', /a certificate must be a \.p12, \.pfx, \.pem, \.key, \.crt file/],
    ['a type other than its extension gives', 'cert.pem', 'application/pdf', 100, 'content_type', /content_type must be application\/x-pem-file/],
    ['a PKCS#12 bundle sent as PEM', 'cert.p12', 'application/x-pem-file', 100, 'content_type', /content_type must be application\/x-pkcs12/],
    ['more than 64 KiB', 'cert.pfx', 'application/x-pkcs12', 64 * 1024 + 1, 'size_bytes', /size_bytes must be from 1 to 65536 \(64 KiB\)/],
    ['an empty file', 'cert.crt', 'application/x-x509-ca-cert', 0, 'size_bytes', /size_bytes must be from 1/],
  ])('%s, naming the field', async (_, fileName, contentType, sizeBytes, field, message) => {
    const call = () => certificateLink(stack.client, fileName, contentType, sizeBytes);
    await expect(failureOf(call())).resolves.toEqual({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) });
    await expect(errorDetailsOf(call())).resolves.toMatchObject({ reason: 'INVALID_ARGUMENT', fields: [field] });
  });

  it('a PUT of another size, and a public-read ACL added to the PUT: the object stays private', async () => {
    const pem = Buffer.from(certificates.clientPem);
    const link = await certificateLink(stack.client, 'voluti.pem', 'application/x-pem-file', pem.length);
    const bigger = Buffer.concat([pem, Buffer.from('\n')]);
    expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body: bigger })).status).toBe(403);
    // Asking for public-read beside the signed headers: the certificate prefix keeps the object private whatever its ACL.
    await fetch(link.uploadUrl, { method: 'PUT', headers: { ...link.headers, 'x-amz-acl': 'public-read' }, body: pem });
    await expect(s3Code(await fetch(link.publicUrl))).resolves.toEqual({ status: 403, code: 'AccessDenied' });
  });

  it("an account whose certificate is a file of the gateway's store not uploaded as a certificate (it may be public)", async () => {
    const pem = Buffer.from(certificates.clientPem);
    // A receiver's document: public-read on this store.
    const document = await stack.client.call(
      'upload',
      'createUploadLink',
      CreateUploadLinkRequest.fromPartial({ fileName: 'cert.pdf', contentType: 'application/pdf', sizeBytes: pem.length }),
    );
    expect((await fetch(document.uploadUrl, { method: 'PUT', headers: document.headers, body: pem })).status).toBe(200);
    const call = () => createVoluti('Voluti com certificado público', document.publicUrl);
    await expect(failureOf(call())).resolves.toEqual({
      code: 'FAILED_PRECONDITION',
      message: expect.stringMatching(/^cert_cash_in_url names a file of the gateway's store that was not uploaded as a certificate/),
    });
    await expect(errorDetailsOf(call())).resolves.toMatchObject({ reason: 'CERTIFICATE_NOT_PRIVATE' });
  });
});

describe('a certificate and its key as two files', () => {
  const refusal = (field: string, holds: string) => ({
    code: 'FAILED_PRECONDITION',
    message: expect.stringMatching(
      new RegExp(
        `^${field} names http\\S+, which holds ${holds}: the gateway needs the certificate and its private key in one file\\. Upload one PEM file holding both .* or a \\.p12/\\.pfx bundle$`,
      ),
    ),
  });

  it('refuses an account naming the .crt or the .key alone, when created and when updated; the two in one file work', async () => {
    const crt = await uploadCertificate(stack.client, 'voluti.crt', 'application/x-x509-ca-cert', Buffer.from(certificates.clientCert));
    const key = await uploadCertificate(stack.client, 'voluti.key', 'application/x-pem-file', Buffer.from(certificates.clientKey));
    await expect(failureOf(createVoluti('Voluti com .crt sozinho', crt.publicUrl))).resolves.toEqual(
      refusal('cert_cash_in_url', 'a certificate without its private key'),
    );
    await expect(errorDetailsOf(createVoluti('Voluti com .crt sozinho', crt.publicUrl))).resolves.toMatchObject({ reason: 'CERTIFICATE_INCOMPLETE' });
    await expect(failureOf(createVoluti('Voluti com .key sozinho', key.publicUrl))).resolves.toEqual(
      refusal('cert_cash_in_url', 'a private key without its certificate'),
    );

    // Both in one file (even named .crt) is what the gateway takes; an update back to a lone part is refused the same.
    const combined = await uploadCertificate(stack.client, 'voluti-completo.crt', 'application/x-x509-ca-cert', Buffer.from(certificates.clientPem));
    const { providerAccount } = await createVoluti('Voluti com .crt completo', combined.publicUrl);
    await expect(failureOf(stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, certCashOutUrl: key.publicUrl }))).resolves.toEqual(
      refusal('cert_cash_out_url', 'a private key without its certificate'),
    );
    const answer = await stack.client.call('accounts', 'testProviderAccount', { id: providerAccount.id });
    expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_OK);
  });

  it('refuses a certificate link of the store whose file was never uploaded', async () => {
    const link = await certificateLink(stack.client, 'nunca-enviado.pem', 'application/x-pem-file', 100);
    await expect(failureOf(createVoluti('Voluti sem arquivo', link.publicUrl))).resolves.toEqual({
      code: 'FAILED_PRECONDITION',
      message: `cert_cash_in_url names ${link.publicUrl}, which the gateway's store does not hold: upload the certificate (UploadService.CreateUploadLink, then its PUT) before naming it`,
    });
    await expect(errorDetailsOf(createVoluti('Voluti sem arquivo', link.publicUrl))).resolves.toMatchObject({ reason: 'CERTIFICATE_NOT_UPLOADED' });
  });

  it('a lone .crt elsewhere is read at the first call: "Testar conexão" does not pass it, and says the key is missing', async () => {
    const files = await startFileServer({ '/platform/voluti.crt': certificates.clientCert });
    try {
      const { providerAccount } = await createVoluti('Voluti com .crt externo', files.url('/platform/voluti.crt'));
      const answer = await stack.client.call('accounts', 'testProviderAccount', { id: providerAccount.id });
      expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_INCONCLUSIVE);
      expect(answer.detail).toMatch(/client certificate at http\S+\/platform\/voluti\.crt is unusable: no PRIVATE KEY block/);
    } finally {
      await files.close();
    }
  });
});

describe('who may ask for a link: the permission of what the file is for', () => {
  const token = async (scope: string) =>
    (
      await stack.client.call(
        'access',
        'createServiceToken',
        CreateServiceTokenRequest.fromPartial({ name: `uploads with ${scope}`, scopes: [scope], providerAccountIds: [] }),
      )
    ).secret;
  const links = {
    certificate: CreateUploadLinkRequest.fromPartial({
      fileName: 'cash-in.pem',
      contentType: 'application/x-pem-file',
      sizeBytes: 100,
      purpose: UploadPurpose.UPLOAD_PURPOSE_CERTIFICATE,
    }),
    evidence: CreateUploadLinkRequest.fromPartial({
      fileName: 'defesa.pdf',
      contentType: 'application/pdf',
      sizeBytes: 100,
      purpose: UploadPurpose.UPLOAD_PURPOSE_DISPUTE_EVIDENCE,
    }),
    receiverDocument: CreateUploadLinkRequest.fromPartial({ fileName: 'rg.pdf', contentType: 'application/pdf', sizeBytes: 100 }),
  };
  const denied = (permission: string) => ({ code: 'PERMISSION_DENIED', message: `permission denied: this call needs ${permission}` });

  it.each([
    ['receivers:write', { certificate: 'accounts:admin', evidence: 'disputes:write', receiverDocument: 'OK' }],
    ['accounts:admin', { certificate: 'OK', evidence: 'disputes:write', receiverDocument: 'receivers:write' }],
    ['disputes:write', { certificate: 'accounts:admin', evidence: 'OK', receiverDocument: 'receivers:write' }],
    // Holding none of them, the caller is refused before its request is read, whatever it asks.
    ['payments:read', { certificate: 'receivers:write', evidence: 'receivers:write', receiverDocument: 'receivers:write' }],
  ] as const)('a token with only %s, over gRPC and Connect', async (scope, expected) => {
    const secret = await token(scope);
    const connect = connectDriver(stack.gateway.httpUrl!, null);
    try {
      for (const [transport, driver] of [
        ['gRPC', stack.client],
        ['Connect', connect],
      ] as const) {
        for (const [purpose, outcome] of Object.entries(expected) as [keyof typeof links, string][]) {
          const call = driver.call('upload', 'createUploadLink', links[purpose], secret);
          if (outcome === 'OK') await expect(call).resolves.toMatchObject({ uploadUrl: expect.stringMatching(/^http/) });
          else expect([transport, purpose, await failureOf(call)]).toEqual([transport, purpose, denied(outcome)]);
        }
      }
    } finally {
      connect.close();
    }
  });
});

describe('without ALLOW_PRIVATE_PROVIDER_URLS', () => {
  let strict: TestStack;
  let files: FileServer;
  beforeAll(async () => {
    strict = await startTestStack({ env: { WEBHOOK_WORKERS: '0', ALLOW_PRIVATE_PROVIDER_URLS: 'false' } });
    files = await startFileServer({ '/platform/cash-in.pem': certificates.clientPem });
  });
  afterAll(async () => {
    await strict?.close();
    await files?.close();
  });

  it("takes a certificate of the gateway's own store on loopback, and still refuses any other internal address", async () => {
    const pem = Buffer.from(certificates.clientPem);
    const link = await strict.client.call(
      'upload',
      'createUploadLink',
      CreateUploadLinkRequest.fromPartial({
        fileName: 'cash-in.pem',
        contentType: 'application/x-pem-file',
        sizeBytes: pem.length,
        purpose: UploadPurpose.UPLOAD_PURPOSE_CERTIFICATE,
      }),
    );
    expect(new URL(link.publicUrl).hostname).toBe('127.0.0.1');
    expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body: pem })).status).toBe(200);
    const account = (certificateUrl: string) =>
      strict.client.call('accounts', 'createProviderAccount', {
        provider: 'VOLUTI',
        name: 'Voluti estrita',
        publicKey: `${CLIENT_ID}|${CHAVE}`,
        secretKey: CLIENT_SECRET,
        // A public address (TEST-NET-3, never called here): only the certificate's address is in question.
        baseUrl: 'https://203.0.113.10',
        certCashInUrl: certificateUrl,
        certCashOutUrl: certificateUrl,
      });
    await expect(account(link.publicUrl)).resolves.toMatchObject({ providerAccount: { certCashInUrl: link.publicUrl } });
    await expect(errorDetailsOf(account(files.url('/platform/cash-in.pem')))).resolves.toMatchObject({
      reason: 'INVALID_ARGUMENT',
      fields: ['cert_cash_in_url'],
    });
  });
});
