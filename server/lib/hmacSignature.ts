import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 over "<timestamp>.<body>", hex: the scheme the gateway signs its own notifications with (and the sandbox PSP too). */
export function signTimestampedBody(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length > 0 && left.length === right.length && timingSafeEqual(left, right);
}
