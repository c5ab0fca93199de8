import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createProviderHttp } from '../../../../server/lib/http/index.js';
import { startFakeProvider, type FakeProvider } from '../../../support/fakeProvider.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

function memoryLogger(level: string) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n'));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

describe('debug logging of provider calls', () => {
  it('logs each request and answer without credentials, tokens or card data', async () => {
    const { logger, lines } = memoryLogger('debug');
    fake.expect({ method: 'POST', path: '/oauth/token', reply: { body: { access_token: 'tok-SECRET-1', expires_in: 3600 } } });
    fake.expect({ method: 'POST', path: '/card-token', reply: { status: 201, body: { token: 'ctok-SECRET-2', last4: '1111' } } });
    const ctx = { accountId: `acc-${randomUUID()}`, publicKey: 'client-PUBLIC', secretKey: 'client-SECRET-3', baseUrl: fake.url };
    const http = createProviderHttp({
      ctx,
      provider: 'ACME',
      logger,
      auth: { type: 'oauth2', tokenPath: '/oauth/token' },
      headers: { 'x-api-key': 'static-SECRET-4' },
    });
    await http.post('/card-token', { number: '4111111111111111', cvv: '737', holderName: 'ANA SOUZA' }, { params: { apiKey: 'query-SECRET-5' } });
    fake.assertAllDone();

    const log = lines.join('\n');
    // The CVV as a JSON string, not the digits 737 inside a timestamp.
    expect(log).not.toMatch(/SECRET|4111111111111111|"737"/);
    const entries = lines.map((line) => JSON.parse(line) as { msg: string; provider?: string; request?: { url: string }; response?: { status: number } });
    expect(entries.map((entry) => entry.msg)).toEqual(['provider request', 'provider response', 'provider request', 'provider response']);
    expect(entries[2]).toMatchObject({ provider: 'ACME', request: { url: expect.stringContaining('/card-token?apiKey=') } });
    expect(entries[3]).toMatchObject({ response: { status: 201 } });
    expect(log).toContain('ANA SOUZA');
    expect(log).toContain('1111');
  });

  it('logs nothing above debug level', async () => {
    const { logger, lines } = memoryLogger('info');
    fake.expect({ method: 'GET', path: '/ping' });
    await createProviderHttp({ ctx: { accountId: `acc-${randomUUID()}`, publicKey: '', secretKey: '', baseUrl: fake.url }, logger }).get('/ping');
    fake.assertAllDone();
    expect(lines).toEqual([]);
  });
});
