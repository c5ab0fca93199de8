import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { clearClientCertificates, loadCertificatePem } from '../../../../server/lib/http/index.js';
import { loadClientCertificate } from '../../../../server/lib/http/clientCertificate.js';
import { startFileServer, testCertificates, type FileServer, type TestCertificates } from '../../../support/fakeProvider.js';

/**
 * A certificate kept private in the gateway's store is read where the account's `certificateReadUrl` says (a presigned
 * GET), never at its plain address; it is cached by that plain address, and a failure names the address only, never
 * the link's signature.
 */
let files: FileServer;
let pki: TestCertificates;
const PLAIN = '/store/certificates/cash-in.pem';
const SIGNED = '/store/certificates/cash-in.pem.signed';

beforeAll(async () => {
  pki = await testCertificates();
  // The plain address serves nothing (the store answers 404 here, 403 for real); the "signed" one serves the file.
  files = await startFileServer({ [SIGNED]: pki.clientPem });
});
beforeEach(() => clearClientCertificates());
afterAll(async () => {
  clearClientCertificates();
  await files?.close();
});

it('reads the certificate through the link the account gives, once per plain address', async () => {
  const signs: string[] = [];
  const readUrl = async (url: string) => {
    signs.push(url);
    return `${files.url(SIGNED)}?X-Amz-Signature=segredo`;
  };
  const plain = files.url(PLAIN);
  const certificate = await loadClientCertificate(plain, { timeoutMs: 5_000, readUrl });
  expect(certificate.kind).toBe('pem');
  await loadClientCertificate(plain, { timeoutMs: 5_000, readUrl });
  expect(signs).toEqual([plain]);
  expect(files.hits[SIGNED]).toBe(1);
  await expect(loadCertificatePem(plain, { timeoutMs: 5_000, readUrl })).resolves.toBe(pki.clientCert.trim());
});

it('names the plain address, without the signature, when the link does not read', async () => {
  const plain = files.url('/store/certificates/gone.pem');
  const readUrl = async () => `${files.url('/store/certificates/gone.pem')}?X-Amz-Signature=segredo`;
  const failure = loadClientCertificate(plain, { timeoutMs: 5_000, readUrl });
  await expect(failure).rejects.toMatchObject({
    reason: 'CLIENT_CERTIFICATE_UNAVAILABLE',
    message: `client certificate at ${plain} could not be read: HTTP 404`,
  });
  await expect(failure.catch((error: Error) => error.message)).resolves.not.toContain('segredo');
});

it('reads the plain address when the account gives no link (a certificate outside the gateway’s store)', async () => {
  await expect(loadClientCertificate(files.url(SIGNED), { timeoutMs: 5_000 })).resolves.toMatchObject({ kind: 'pem' });
});
