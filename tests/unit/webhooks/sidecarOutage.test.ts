import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { startWebhookSidecar } from '../../../server/webhooks/sidecar.js';
import type { ListeningServer } from '../../../server/lib/httpServer.js';

// PostgreSQL's "terminating connection due to administrator command", as pg raises it during a failover.
const outage = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
let sidecar: ListeningServer;
let url: string;

beforeAll(async () => {
  sidecar = await startWebhookSidecar({
    notifications: {
      intake: async () => {
        throw outage;
      },
    },
    logger: pino({ level: 'silent' }),
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 1024,
    // A tight failure limit: a database outage must not spend it.
    rate: { perSecond: 1, burst: 2 },
  });
  url = sidecar.url;
});

afterAll(async () => {
  await sidecar?.close();
});

it('answers 503 with Retry-After, never 500 or 429, while the database cannot store a notification', async () => {
  for (let i = 0; i < 5; i++) {
    const response = await fetch(`${url}/webhooks/SANDBOX/5b0e4a52-8d4f-4f0e-9a0b-2d3c4e5f6a7b`, { method: 'POST', body: '{"id":"evt_1"}' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({ error: 'the notification was not stored: deliver it again shortly' });
  }
});

it('is not ready, and says so to probes and to providers, until the gateway behind it can take notifications', async () => {
  let ready = false;
  const starting = await startWebhookSidecar({
    notifications: { intake: async () => ({ id: 'n1', outcome: 'RECEIVED' }) as never },
    logger: pino({ level: 'silent' }),
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 1024,
    rate: { perSecond: 1, burst: 2 },
    ready: () => ready,
  });
  try {
    const health = await fetch(`${starting.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([503, { status: 'NOT_SERVING' }]);
    const early = await fetch(`${starting.url}/webhooks/SANDBOX/5b0e4a52-8d4f-4f0e-9a0b-2d3c4e5f6a7b`, { method: 'POST', body: '{}' });
    expect([early.status, early.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await early.json()).toEqual({ error: 'the gateway is still starting: deliver the notification again shortly' });

    ready = true;
    expect((await fetch(`${starting.url}/healthz`)).status).toBe(200);
    const taken = await fetch(`${starting.url}/webhooks/SANDBOX/5b0e4a52-8d4f-4f0e-9a0b-2d3c4e5f6a7b`, { method: 'POST', body: '{}' });
    expect(await taken.json()).toEqual({ id: 'n1', outcome: 'RECEIVED' });
  } finally {
    await starting.close();
  }
});

it('answers what is not a notification by what is wrong with it, and what fails by the kind of failure', async () => {
  const { GatewayError } = await import('../../../server/lib/errors.js');
  const failing = await startWebhookSidecar({
    notifications: {
      intake: async ({ body }) => {
        const text = body.toString();
        if (text === 'unknown') throw new GatewayError('NOT_FOUND', 'no such provider account');
        if (text === 'forged') throw new GatewayError('UNAUTHENTICATED', 'bad signature');
        throw new Error('a bug');
      },
    },
    logger: pino({ level: 'silent' }),
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 16,
    rate: { perSecond: 0, burst: 0 },
  });
  const post = (path: string, body: string) => fetch(`${failing.url}${path}`, { method: 'POST', body });
  try {
    expect((await fetch(`${failing.url}/elsewhere`)).status).toBe(404);
    expect((await fetch(`${failing.url}/webhooks/SANDBOX/a`)).status).toBe(405);
    expect((await post('/webhooks/SANDBOX/a', 'x'.repeat(17))).status).toBe(413);
    const unknown = await post('/webhooks/SANDBOX/a', 'unknown');
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'no such provider account' }]);
    expect((await post('/webhooks/SANDBOX/a/pix', 'forged')).status).toBe(401);
    const bug = await post('/webhooks/SANDBOX/a', 'other');
    expect([bug.status, await bug.json()]).toEqual([500, { error: 'processing failed; deliver again later' }]);
  } finally {
    await failing.close();
  }
});
