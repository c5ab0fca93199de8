import { createServer, connect, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of PostgreSQL that cuts one connection at a chosen message, as a pooler or a
 * primary that goes away does: before the server sees the message, or after it acted on it but before its answer.
 * It can also hold a message back for a while, as a slow network or a busy server does.
 */
export interface CuttingProxy {
  port: number;
  /** Loses the answer to the next client message containing `text`; resolves once it has. */
  loseAnswerTo(text: string): Promise<void>;
  /** Cuts the connection instead of sending the next client message containing `text`; resolves once it has. */
  loseRequest(text: string): Promise<void>;
  /** Holds the next client message containing `text` (and what follows it on that connection) for `ms` before sending it. */
  delayRequest(text: string, ms: number): void;
  close(): Promise<void>;
}

export async function startCuttingProxy(target: { host: string; port: number }): Promise<CuttingProxy> {
  let armed: { text: string; before: boolean; done: () => void } | undefined;
  let delaying: { text: string; ms: number } | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let cutting: (() => void) | undefined;
    /** Client data held back until a delay has passed, in order. */
    let held: Buffer[] | undefined;
    client.on('data', (chunk) => {
      if (held) return void held.push(chunk);
      if (delaying && chunk.includes(delaying.text)) {
        const { ms } = delaying;
        delaying = undefined;
        held = [chunk];
        setTimeout(() => {
          for (const data of held!) upstream.write(data);
          held = undefined;
        }, ms);
        return;
      }
      if (armed && chunk.includes(armed.text)) {
        const { before, done } = armed;
        armed = undefined;
        if (before) {
          client.destroy();
          upstream.destroy();
          return done();
        }
        cutting = done;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!cutting) return void client.write(chunk);
      const done = cutting;
      cutting = undefined;
      client.destroy();
      upstream.destroy();
      done();
    });
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        other.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    loseAnswerTo: (text) => new Promise((resolve) => (armed = { text, before: false, done: resolve })),
    loseRequest: (text) => new Promise((resolve) => (armed = { text, before: true, done: resolve })),
    delayRequest: (text, ms) => void (delaying = { text, ms }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
