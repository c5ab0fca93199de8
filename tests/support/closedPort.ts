import { connect, createServer } from 'node:net';

/**
 * A loopback port that refuses connections for the whole run: a provider that is down.
 *
 * It is taken below 1024, where the kernel never hands out a port to `listen(0)` or to a connection's own end (those
 * come from its ephemeral range, 32768 and up here) and no test binds one. A port that was merely free a moment ago
 * is not enough: another suite running beside this one may be given it for its own server, and the "down" provider
 * then answers, or hangs.
 */
export async function closedPort(): Promise<number> {
  refusing ??= findRefusingPort();
  return refusing;
}

let refusing: Promise<number> | undefined;

async function findRefusingPort(): Promise<number> {
  for (let port = 1023; port > 0; port--) if (await refuses(port)) return port;
  throw new Error('closedPort: every loopback port below 1024 accepts connections');
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A loopback port free at the moment of asking, for a server the test is about to start itself. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
