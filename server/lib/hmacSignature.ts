import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Timestamped HMAC signatures, Stripe-style: a header `t=<unix seconds>,v1=<hex>`
 * where the hex is HMAC-SHA256 over "<t>.<body>". Signing the timestamp lets a
 * receiver refuse a captured notification replayed later. The gateway signs its
 * own outbound notifications this way (x-gateway-signature), the sandbox PSP
 * too; adapters of providers that sign this way verify with it.
 */

/** How far a signature's timestamp may lie from the receiver's clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** HMAC-SHA256 over "<timestamp>.<body>", hex. */
export function signTimestampedBody(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length > 0 && left.length === right.length && timingSafeEqual(left, right);
}

/** The header value `t=<timestamp>,v1=<hex>` for this body, signed now unless a timestamp (unix seconds) is given. */
export function timestampedSignature(secret: string, body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${signTimestampedBody(secret, timestamp, body)}`;
}

export type SignatureCheck =
  { valid: true; timestamp: number } | { valid: false; reason: 'missing' | 'malformed' | 'mismatch' | 'expired' | 'from the future' };

export interface SignatureCheckOptions {
  /** The moment the request arrived, in milliseconds (default now); a stored notification checked again passes its arrival time. */
  receivedAt?: number;
  toleranceSeconds?: number;
}

/**
 * Checks a `t=…,v1=…` header against the body: some v1 (there may be several
 * while a secret is rotated) must match, and the timestamp must lie within the
 * tolerance of the arrival time, in the past (a replay) or the future.
 */
export function verifyTimestampedSignature(
  secret: string,
  header: string | undefined,
  body: string | Buffer,
  options: SignatureCheckOptions = {},
): SignatureCheck {
  return verifySignatureHeader(secret, header, (timestamp) => Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(body)]), options);
}

/**
 * The same check for providers that sign other content or name the timestamp
 * otherwise (Mercado Pago's `ts=…,v1=…` over its manifest `id:…;request-id:…;ts:…;`):
 * `signed(timestamp)` is what the HMAC-SHA256 (hex) covers; the timestamp is
 * unix seconds under `timestampKey` (default `t`), or milliseconds where the
 * provider stamps so (Transfeera's `t=1580306324381`); the signature under
 * `signatureKey` (default `v1`; EzzeBank's `t=…,vsign=…`).
 */
export function verifySignatureHeader(
  secret: string,
  header: string | undefined,
  signed: (timestamp: string) => string | Buffer,
  options: SignatureCheckOptions & { timestampKey?: string; signatureKey?: string; timestampUnit?: 'seconds' | 'milliseconds' } = {},
): SignatureCheck {
  if (!header) return { valid: false, reason: 'missing' };
  const pairs = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  });
  const stamps = pairs.filter(([key]) => key === (options.timestampKey ?? 't'));
  const signatures = pairs.filter(([key, value]) => key === (options.signatureKey ?? 'v1') && value).map(([, value]) => value);
  const stamp = stamps.length === 1 && /^\d{1,13}$/.test(stamps[0]![1]) ? stamps[0]![1] : undefined;
  const timestamp = stamp === undefined ? NaN : options.timestampUnit === 'milliseconds' ? Math.floor(Number(stamp) / 1000) : Number(stamp);
  if (stamp === undefined || !Number.isSafeInteger(timestamp) || signatures.length === 0) return { valid: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(signed(stamp)).digest('hex');
  if (!signatures.some((signature) => safeEqualHex(signature, expected))) return { valid: false, reason: 'mismatch' };
  const age = Math.floor((options.receivedAt ?? Date.now()) / 1000) - timestamp;
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (age > tolerance) return { valid: false, reason: 'expired' };
  if (age < -tolerance) return { valid: false, reason: 'from the future' };
  return { valid: true, timestamp };
}
