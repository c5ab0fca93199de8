import { expect, it } from '@jest/globals';
import { CERTIFICATE_RULES, certificateRefusal } from '../../../web/src/uploadRules.js';

it('sends a certificate file as the type its extension gives, whatever the browser guessed', () => {
  expect(CERTIFICATE_RULES.contentType('cash-in.PEM', '')).toBe('application/x-pem-file');
  expect(CERTIFICATE_RULES.contentType('cliente.key', 'application/vnd.apple.keynote')).toBe('application/x-pem-file');
  expect(CERTIFICATE_RULES.contentType('voluti.p12', 'application/x-pkcs12')).toBe('application/x-pkcs12');
  expect(CERTIFICATE_RULES.contentType('onz.pfx', '')).toBe('application/x-pkcs12');
  expect(CERTIFICATE_RULES.contentType('cert.crt', 'application/x-x509-ca-cert')).toBe('application/x-x509-ca-cert');
  expect(CERTIFICATE_RULES.contentType('cert.pdf', 'application/pdf')).toBeUndefined();
  expect(CERTIFICATE_RULES.contentType('pem', '')).toBeUndefined();
});

it('refuses another file, more than 64 KiB and an empty file before asking for a link', () => {
  expect(certificateRefusal({ name: 'a.pem', size: 64 * 1024 })).toBeUndefined();
  expect(certificateRefusal({ name: 'a.pem', size: 64 * 1024 + 1 })).toBe('certificateTooLarge');
  expect(certificateRefusal({ name: 'a.p12', size: 0 })).toBe('empty');
  expect(certificateRefusal({ name: 'a.txt', size: 10 })).toBe('certificateType');
});

it('lets the file picker show certificate files only', () => {
  expect(CERTIFICATE_RULES.accept.split(',')).toEqual(
    expect.arrayContaining(['.p12', '.pfx', '.pem', '.crt', '.key', 'application/x-pkcs12', 'application/x-pem-file', 'application/x-x509-ca-cert']),
  );
  expect(CERTIFICATE_RULES.accept).not.toContain('pdf');
});
