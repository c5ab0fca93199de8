import { beforeAll, describe, expect, it } from '@jest/globals';
import { missingCertificatePart, parseClientCertificate } from '../../../../server/lib/http/index.js';
import { testCertificates, toPkcs12, type TestCertificates } from '../../../support/fakeProvider.js';

let pki: TestCertificates;
beforeAll(async () => {
  pki = await testCertificates();
});

describe('parseClientCertificate', () => {
  it('splits one PEM file into the certificate and its key, whatever their order', () => {
    const reversed = `${pki.clientKey}\n${pki.clientCert}`;
    const parsed = parseClientCertificate('https://files.example/cert.pem', Buffer.from(reversed));
    expect(parsed).toMatchObject({ kind: 'pem', cert: pki.clientCert.trim(), key: pki.clientKey.trim() });
  });

  it('reads PKCS#12 by the URL extension (query ignored) and checks the passphrase', () => {
    const bundle = toPkcs12(pki.clientCert, pki.clientKey, 'right');
    expect(parseClientCertificate('https://files.example/cert.PFX?sig=1', bundle, 'right')).toMatchObject({ kind: 'pkcs12', passphrase: 'right' });
    expect(() => parseClientCertificate('https://files.example/cert.p12', bundle, 'wrong')).toThrow(
      expect.objectContaining({ code: 'FAILED_PRECONDITION', reason: 'CLIENT_CERTIFICATE_UNUSABLE' }),
    );
  });

  it('reads an extension-less DER file as PKCS#12', () => {
    const bundle = toPkcs12(pki.clientCert, pki.clientKey, 'pw');
    expect(parseClientCertificate('https://files.example/platform/123', bundle, 'pw').kind).toBe('pkcs12');
  });

  it('refuses a file without key, a key without certificate, and a key of another certificate', () => {
    expect(() => parseClientCertificate('https://f/c.pem', Buffer.from(pki.clientCert))).toThrow(/no PRIVATE KEY block/);
    expect(() => parseClientCertificate('https://f/c.pem', Buffer.from(pki.clientKey))).toThrow(/no CERTIFICATE block/);
    expect(() => parseClientCertificate('https://f/c.pem?X-Amz-Signature=abc', Buffer.from(`${pki.serverCert}\n${pki.clientKey}`))).toThrow(
      /^client certificate at https:\/\/f\/c\.pem is unusable: .*(mismatch)/i,
    );
  });
});

describe('missingCertificatePart', () => {
  it('names what a .crt or a .key alone lacks, and nothing for the two in one file or a PKCS#12 bundle', () => {
    expect(missingCertificatePart('https://f/c.crt', Buffer.from(pki.clientCert))).toBe('a certificate without its private key');
    expect(missingCertificatePart('https://f/c.key', Buffer.from(pki.clientKey))).toBe('a private key without its certificate');
    expect(missingCertificatePart('https://f/c.pem', Buffer.from('not a certificate'))).toBe('neither a PEM certificate nor a private key');
    expect(missingCertificatePart('https://f/c.crt', Buffer.from(pki.clientPem))).toBeUndefined();
    expect(missingCertificatePart('https://f/c.p12', toPkcs12(pki.clientCert, pki.clientKey, 'pw'))).toBeUndefined();
  });
});
