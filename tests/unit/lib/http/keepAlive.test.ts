import { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { clearHttpsAgents, createProviderHttp, trustCertificateAuthority } from '../../../../server/lib/http/index.js';
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
