import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 32, point 6: a request target that is not a path (`*`, an absolute URL, `//host`), a malformed or non-UTF-8
 * percent-escape, or an absurdly long target is a 400 on every HTTP port, before anything routes it: never a 500,
 * never a page or a 404 chosen from a path the server could not read. (gRPC, over HTTP/2, is exempt.)
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

/** The status line's code of a request sent byte for byte (fetch would normalise the target first). */
function statusOf(url: string, method: string, target: Buffer): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(Buffer.concat([Buffer.from(`${method} `), target, Buffer.from(` HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`)])),
    );
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1])));
  });
}

const TARGETS: [string, Buffer][] = [
  ['asterisk-form', Buffer.from('*')],
  ['absolute-form', Buffer.from('http://evil.example/')],
  ['a network-path', Buffer.from('//evil.example/x')],
  ['a backslash', Buffer.from('/\\evil.example/x')],
  ['a lone percent sign', Buffer.from('/%')],
  ['a cut escape', Buffer.from('/%E0%A4%A')],
  ['an escape that is not UTF-8', Buffer.from('/%FF%FE')],
  ['raw bytes that are not UTF-8', Buffer.from([0x2f, 0xff, 0xfe])],
  ['a 9,000-character target', Buffer.from(`/${'a'.repeat(9000)}`)],
];
const PORTS = ['Connect and the back-office', 'webhook sidecar', 'sandbox PSP', 'embedded object store', 'metrics'] as const;
const urlOf = (port: (typeof PORTS)[number]) =>
  ({
    'Connect and the back-office': stack.gateway.httpUrl!,
    'webhook sidecar': stack.gateway.webhookUrl!,
    'sandbox PSP': stack.gateway.sandboxUrl!,
    'embedded object store': stack.gateway.objectStoreUrl!,
    metrics: stack.gateway.metricsUrl!,
  })[port];

describe.each(PORTS)('the %s', (port) => {
  it.each(TARGETS)('answers 400 to %s, for GET and POST', async (_what, target) => {
    expect(await statusOf(urlOf(port), 'GET', target)).toBe(400);
    expect(await statusOf(urlOf(port), 'POST', target)).toBe(400);
  });

  it('still answers an ordinary request afterwards', async () => {
    const ordinary = port === 'sandbox PSP' ? '/v1/charges/none' : port === 'embedded object store' ? '/gateway-uploads/uploads/none' : '/healthz';
    expect([200, 401, 404]).toContain(await statusOf(urlOf(port), 'GET', Buffer.from(ordinary)));
  });
});
