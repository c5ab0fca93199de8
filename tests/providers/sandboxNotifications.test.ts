import { describe, expect, it } from '@jest/globals';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';

const SECRET = 'whsec-sandbox-unit';
const T = 1_800_000_000;
const ctx: AdapterContext = {
  accountId: 'acc',
  publicKey: 'pk',
  secretKey: 'sk',
  baseUrl: 'http://127.0.0.1:1',
  webhookSecret: SECRET,
  notificationUrl: 'http://127.0.0.1:1/webhooks',
};
const body = (id: string) =>
  Buffer.from(JSON.stringify({ id, type: 'charge.paid', createdAt: '2027-01-15T08:00:00Z', data: { id: 'ch_1', status: 'paid', amount: 100 } }));
const signedAt = (payload: Buffer, timestamp: number) => ({ 'x-sandbox-signature': signSandboxPayload(SECRET, timestamp, payload.toString('utf8')) });

describe('SANDBOX notification signatures', () => {
  it('refuses a correctly signed notification replayed more than five minutes later, or dated ahead', () => {
    let now = T * 1000;
    const adapter = new SandboxAdapter('http://127.0.0.1:1', { now: () => new Date(now) });
    const notification = { body: body('evt_1'), headers: signedAt(body('evt_1'), T) };
    expect(adapter.verifyNotification(ctx, notification)).toBe('valid');
    now = (T + 299) * 1000;
    expect(adapter.verifyNotification(ctx, notification)).toBe('valid');
    now = (T + 301) * 1000;
    expect(adapter.verifyNotification(ctx, notification)).toBe('invalid');
    now = (T - 301) * 1000;
    expect(adapter.verifyNotification(ctx, notification)).toBe('invalid');
  });

  it('measures a stored notification against its arrival, so a late retry of a fresh one still verifies', () => {
    const adapter = new SandboxAdapter('http://127.0.0.1:1', { now: () => new Date((T + 3600) * 1000) });
    const fresh = { body: body('evt_2'), headers: signedAt(body('evt_2'), T), receivedAt: new Date((T + 10) * 1000) };
    expect(adapter.verifyNotification(ctx, fresh)).toBe('valid');
    expect(adapter.verifyNotification(ctx, { ...fresh, receivedAt: new Date((T + 400) * 1000) })).toBe('invalid');
  });

  it('takes the dedup key from the signed body, not from an unsigned header', () => {
    const adapter = new SandboxAdapter('http://127.0.0.1:1');
    const key = (payload: Buffer, headers: Record<string, string>) => adapter.notificationKey(ctx, { body: payload, headers });
    expect(key(body('evt_3'), { 'x-sandbox-event-id': 'anything' })).toBe('event:evt_3');
    expect(key(body('evt_3'), { 'x-sandbox-event-id': 'else' })).toBe(key(body('evt_3'), {}));
    expect(key(body('evt_4'), { 'x-sandbox-event-id': 'evt_3' })).not.toBe(key(body('evt_3'), { 'x-sandbox-event-id': 'evt_3' }));
    expect(key(Buffer.from('not json'), { 'x-sandbox-event-id': 'evt_3' })).toMatch(/^sha256:/);
  });
});
