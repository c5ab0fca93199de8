import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import axios from 'axios';
import { forgetCertificateExpiries, presentedCertificateExpiry } from './certificateExpiry.js';
import { ProviderCallError } from './providerCallError.js';

/**
 * The platform's client certificate for mTLS, as stored behind its certificate URL.
 *
 * Format, decided where the specification is silent: a PEM file holding the
 * certificate (chain) and its private key; or, when the URL's path ends in
 * .p12 or .pfx (or the file has no PEM block and is DER), a PKCS#12 bundle.
 * An encrypted private key or PKCS#12 bundle takes the adapter's passphrase.
 */
export type ClientCertificate = ({ kind: 'pem'; cert: string; key: string; passphrase?: string } | { kind: 'pkcs12'; pfx: Buffer; passphrase?: string }) & {
  /** When the certificate it presents expires; undefined when that could not be read. */
  notAfter?: Date;
};

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** The URL without its query: a presigned URL's signature must not reach logs or messages. */
export const displayUrl = (url: string): string => url.split(/[?#]/)[0]!;

const isPkcs12Url = (url: string): boolean => /\.(p12|pfx)$/i.test(displayUrl(url));

const unusable = (url: string, detail: string) =>
  new ProviderCallError('FAILED_PRECONDITION', 'CLIENT_CERTIFICATE_UNUSABLE', `client certificate at ${displayUrl(url)} is unusable: ${detail}`);

/** The file's PKCS#12 bundle, or its PEM certificate (chain) and private key, each '' when the file has none. */
function certificateParts(url: string, bytes: Buffer): { kind: 'pkcs12' } | { kind: 'pem'; cert: string; key: string } {
  const text = bytes.toString('latin1');
  if (isPkcs12Url(url) || (!text.includes('-----BEGIN') && bytes[0] === 0x30)) return { kind: 'pkcs12' };
  const blocks = [...text.matchAll(PEM_BLOCK)];
  const cert = blocks
    .filter((block) => block[1] === 'CERTIFICATE')
    .map((block) => block[0])
    .join('\n');
  return { kind: 'pem', cert, key: blocks.find((block) => block[1]!.endsWith('PRIVATE KEY'))?.[0] ?? '' };
}

/**
 * What a certificate file lacks to be presented alone, in words ('a certificate without its private key'), or
 * undefined when it holds both (or is a PKCS#12 bundle). Needs no passphrase: it is what a file cannot do whatever the
 * passphrase, like a .crt and its .key sent as two files.
 */
export function missingCertificatePart(url: string, bytes: Buffer): string | undefined {
  const parts = certificateParts(url, bytes);
  if (parts.kind === 'pkcs12' || (parts.cert && parts.key)) return undefined;
  if (parts.cert) return 'a certificate without its private key';
  return parts.key ? 'a private key without its certificate' : 'neither a PEM certificate nor a private key';
}

/**
 * A certificate file (.crt/.pem) and its private key's file (.key/.pem), both PEM, joined into the one PEM file the
 * gateway presents; or what is wrong with the pair: a file lacking its part, or a key that is not the certificate's
 * (its public key differs from the first certificate's, the one presented). An encrypted key cannot be compared without
 * its passphrase: it is joined as it is, and a mismatch then shows at the account's first call (as a .p12's does).
 * Pure: the key is read here and never leaves the returned text.
 */
export function joinCertificateAndKey(
  certificateUrl: string,
  certificateBytes: Buffer,
  keyUrl: string,
  keyBytes: Buffer,
): { pem: string } | { problem: 'NO_CERTIFICATE' | 'NO_KEY' | 'MISMATCH' } {
  const certificate = certificateParts(certificateUrl, certificateBytes);
  const key = certificateParts(keyUrl, keyBytes);
  if (certificate.kind !== 'pem' || !certificate.cert) return { problem: 'NO_CERTIFICATE' };
  if (key.kind !== 'pem' || !key.key) return { problem: 'NO_KEY' };
  const encrypted = key.key.startsWith('-----BEGIN ENCRYPTED') || key.key.includes('ENCRYPTED');
  if (!encrypted) {
    let matches: boolean;
    try {
      matches = new X509Certificate(certificate.cert).checkPrivateKey(createPrivateKey(key.key));
    } catch {
      matches = false;
    }
    if (!matches) return { problem: 'MISMATCH' };
  }
  return { pem: `${certificate.cert}\n${key.key}\n` };
}

/** Reads the certificate file's bytes; pure, so it can be tested without HTTP. */
export function parseClientCertificate(url: string, bytes: Buffer, passphrase?: string): ClientCertificate {
  const parts = certificateParts(url, bytes);
  if (parts.kind === 'pem' && !parts.cert) throw unusable(url, 'no CERTIFICATE block');
  if (parts.kind === 'pem' && !parts.key) throw unusable(url, 'no PRIVATE KEY block (the file must hold both the certificate and its key)');
  const certificate: ClientCertificate =
    parts.kind === 'pem' ? { kind: 'pem', cert: parts.cert, key: parts.key, passphrase } : { kind: 'pkcs12', pfx: bytes, passphrase };
  try {
    // Fails now, with a clear message, on a wrong passphrase or a key that does not match.
    const context = createSecureContext(
      certificate.kind === 'pem' ? { cert: certificate.cert, key: certificate.key, passphrase } : { pfx: certificate.pfx, passphrase },
    );
    return { ...certificate, notAfter: presentedCertificateExpiry(context) };
  } catch (error) {
    throw unusable(url, error instanceof Error ? error.message : String(error));
  }
}

const cache = new Map<string, Promise<ClientCertificate>>();

/** How a certificate is fetched: within `timeoutMs`, from where `readUrl` says the URL is read (a presigned GET). */
export interface CertificateFetch {
  timeoutMs: number;
  readUrl?: (url: string) => Promise<string>;
}

/**
 * The certificate behind a platform URL, fetched once (over plain axios: the
 * file store is not the provider) and cached per URL (the plain address, not the
 * presigned link it was read through). A failed fetch is not cached, so the next
 * call tries again.
 */
export function loadClientCertificate(url: string, { passphrase, ...fetching }: CertificateFetch & { passphrase?: string }): Promise<ClientCertificate> {
  const key = `${url}\0${passphrase ?? ''}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = fetchCertificate(url, fetching).then((bytes) => parseClientCertificate(url, bytes, passphrase));
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

const pems = new Map<string, Promise<string>>();

/**
 * The certificate alone (its first CERTIFICATE block, PEM) behind a platform
 * URL, for a provider that takes it in a header rather than in a TLS handshake
 * (FIREBANK's `X-SSL-Client-Cert`); a private key in the same file is never
 * read out. Fetched once per URL; a failed fetch is not cached.
 */
export function loadCertificatePem(url: string, fetching: CertificateFetch): Promise<string> {
  let pending = pems.get(url);
  if (!pending) {
    pending = fetchCertificate(url, fetching).then((bytes) => {
      const block = [...bytes.toString('latin1').matchAll(PEM_BLOCK)].find((match) => match[1] === 'CERTIFICATE');
      if (!block) throw unusable(url, 'no CERTIFICATE block (a PEM certificate is needed)');
      return block[0];
    });
    pending.catch(() => pems.delete(url));
    pems.set(url, pending);
  }
  return pending;
}

/** The file's bytes; errors name the plain address only (a presigned link's signature reads the certificate). */
async function fetchCertificate(url: string, { timeoutMs, readUrl }: CertificateFetch): Promise<Buffer> {
  try {
    const source = readUrl ? await readUrl(url) : url;
    const response = await axios.get<ArrayBuffer>(source, { responseType: 'arraybuffer', timeout: timeoutMs });
    return Buffer.from(response.data);
  } catch (error) {
    const status = axios.isAxiosError(error) ? error.response?.status : undefined;
    const detail = status ? `HTTP ${status}` : error instanceof Error ? error.message || (error as { code?: string }).code || 'network error' : String(error);
    if (status !== undefined && status < 500) {
      throw new ProviderCallError(
        'FAILED_PRECONDITION',
        'CLIENT_CERTIFICATE_UNAVAILABLE',
        `client certificate at ${displayUrl(url)} could not be read: ${detail}`,
      );
    }
    throw new ProviderCallError('UNAVAILABLE', 'CLIENT_CERTIFICATE_UNAVAILABLE', `client certificate at ${displayUrl(url)} could not be fetched: ${detail}`);
  }
}

/** Forgets every fetched certificate (tests, or after the platform replaces a file in place). */
export function clearClientCertificates(): void {
  cache.clear();
  pems.clear();
  forgetCertificateExpiries();
}
