import { createServer, request } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { clearHttpsAgents, createProviderHttp, trustCertificateAuthority } from '../../../../server/lib/http/index.js';
import { httpAgent, IDLE_SOCKET_MS } from '../../../../server/lib/http/tlsAgent.js';
import { startFakeProvider, type FakeProvider } from '../../../support/fakeProvider.js';

/**
 * A provider connection kept alive between calls keeps its TCP keep-alive setting too. axios sets it on every
 * request's socket (60 s) and the pool's agent set it again when the socket came back (Node's default, 1 s): two
 * system calls per exchange, about 2 % of the gateway's CPU per charge. The agents now use axios's delay, and Node
 * skips a call that changes nothing. Counted where the option reaches the socket's handle (the system call).
 */
let fake: FakeProvider;
let tlsFake: FakeProvider;
let untrust: () => void;
beforeAll(async () => {
  fake = await startFakeProvider();
  tlsFake = await startFakeProvider({ tls: 'https' });
  untrust = trustCertificateAuthority(tlsFake.ca!);
});
afterAll(async () => {
  untrust();
  clearHttpsAgents();
  await fake.close();
  await tlsFake.close();
});

/** Calls `/transactions/tx-1` of `provider` `calls` times in a row; the connections used and the system calls that set their keep-alive. */
async function keepAliveCalls(provider: FakeProvider, calls: number): Promise<{ connections: number; systemCalls: number }> {
  provider.expect({ method: 'GET', path: '/transactions/tx-1', times: calls, reply: { body: { id: 'tx-1' } } });
  const http = createProviderHttp({
    logger: pino({ level: 'silent' }),
    auth: { type: 'bearer' },
    ctx: { accountId: 'acc-keep-alive', publicKey: '', secretKey: 'sk', baseUrl: provider.url },
  });
  const handles = new Set<unknown>();
  let systemCalls = 0;
  const setKeepAlive = Socket.prototype.setKeepAlive;
  Socket.prototype.setKeepAlive = function (this: Socket & { _handle?: { setKeepAlive?: (...args: unknown[]) => unknown } }, ...args) {
    const handle = this._handle;
    if (handle?.setKeepAlive && !handles.has(handle)) {
      handles.add(handle);
      const native = handle.setKeepAlive.bind(handle);
      handle.setKeepAlive = (...nativeArgs: unknown[]) => {
        systemCalls += 1;
        return native(...nativeArgs);
      };
    }
    return (setKeepAlive as (...keepAliveArgs: unknown[]) => Socket).apply(this, args);
  };
  try {
    for (let call = 0; call < calls; call += 1) await http.get('/transactions/tx-1');
  } finally {
    Socket.prototype.setKeepAlive = setKeepAlive;
  }
  provider.assertAllDone();
  return { connections: handles.size, systemCalls };
}

it('sets a kept-alive connection’s TCP keep-alive once, not twice per call (plain HTTP)', async () => {
  const { connections, systemCalls } = await keepAliveCalls(fake, 20);
  // One connection served every call, one after the other.
  expect(connections).toBe(1);
  expect(systemCalls).toBeLessThanOrEqual(1);
});

it('does the same over HTTPS, on the agent of a trusted CA', async () => {
  const { connections, systemCalls } = await keepAliveCalls(tlsFake, 20);
  expect(connections).toBe(1);
  expect(systemCalls).toBeLessThanOrEqual(1);
});

it('closes a pooled connection before the provider does, so a busy process never sends a charge on a closed one', async () => {
  // A provider that announces `Keep-Alive: timeout=2` and closes an idle connection at 2 s (Node's server waits a
  // buffer of 1 s more by default; none here, so the test is short).
  const connections: Socket[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"tx-1"}'));
  });
  server.keepAliveTimeout = 2_000;
  server.keepAliveTimeoutBuffer = 0;
  server.on('connection', (socket: Socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const http = createProviderHttp({
    logger: pino({ level: 'silent' }),
    auth: { type: 'bearer' },
    retry: false,
    ctx: { accountId: 'acc-idle', publicKey: '', secretKey: 'sk', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
  });
  try {
    expect((await http.post('/transactions', {})).status).toBe(200);
    // The process is busy past the provider's close: its timer and the next charge's come due in one turn of the loop.
    const started = Date.now();
    setTimeout(() => {
      while (Date.now() - started < 2_400);
    }, 10);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await http.post('/transactions', {})).status).toBe(200);
    expect(connections).toHaveLength(2);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('times a provider connection out only while it waits idle in the pool, never while a call uses it', async () => {
  const server = createServer((_request, response) => response.end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = httpAgent();
  const timeouts: Array<[phase: string, ms: number | undefined]> = [];
  const call = () =>
    new Promise<void>((resolve, reject) => {
      const sent = request({ host: '127.0.0.1', port, path: '/', agent }, (response) => {
        timeouts.push(['in use', (sent.socket as Socket & { timeout?: number }).timeout]);
        response.resume();
        response.on('end', () =>
          setImmediate(() => {
            timeouts.push(['idle', (sent.socket as Socket & { timeout?: number }).timeout]);
            resolve();
          }),
        );
      });
      sent.on('error', reject);
      sent.end();
    });
  try {
    await call();
    await call();
  } finally {
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }
  // Node's server announces `Keep-Alive: timeout=5`: idle, the socket closes a second before the server would.
  expect(timeouts.map(([phase, ms]) => [phase, ms ?? 0])).toEqual([
    ['in use', 0],
    ['idle', Math.min(IDLE_SOCKET_MS, 4_000)],
    ['in use', 0],
    ['idle', Math.min(IDLE_SOCKET_MS, 4_000)],
  ]);
});
