import { X509Certificate } from 'node:crypto';
import type { SecureContext } from 'node:tls';

/** When the client certificate a provider account presents over mTLS stops being valid. */
export interface CertificateExpiry {
  provider: string;
  accountId: string;
  /** Which of the account's certificates: cashIn or cashOut. */
  certificate: string;
  notAfter: Date;
}

/** What this process has loaded, by account and certificate: what the metrics report, so an expiry is seen before calls fail. */
const expiries = new Map<string, CertificateExpiry>();

/**
 * The end of validity of the certificate a TLS context presents: one reading for a PEM file and a PKCS#12 bundle
 * alike, which Node cannot open outside a context. Read through the context's native handle (what
 * TLSSocket.getCertificate reads); where a Node version lacks it, the expiry is unknown rather than guessed.
 */
export function presentedCertificateExpiry(context: SecureContext): Date | undefined {
  const native = (context as SecureContext & { context?: { getCertificate?: () => Buffer | null } }).context;
  try {
    const der = native?.getCertificate?.();
    return der ? new Date(new X509Certificate(der).validTo) : undefined;
  } catch {
    return undefined;
  }
}

export function recordCertificateExpiry(expiry: CertificateExpiry): void {
  expiries.set(`${expiry.provider}\n${expiry.accountId}\n${expiry.certificate}`, expiry);
}

export function certificateExpiries(): CertificateExpiry[] {
  return [...expiries.values()];
}

/** Forgets them (tests, with the certificates' cache). */
export function forgetCertificateExpiries(): void {
  expiries.clear();
}
