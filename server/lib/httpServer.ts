import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Listens on host:port (0 picks a free port) and knows how to close gracefully. */
export async function listen(server: Server, host: string, port: number, beforeClose: () => void = () => {}): Promise<ListeningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose();
        server.close(() => resolve());
        // Idle keep-alive sockets would hold the close open; busy ones finish their request first.
        server.closeIdleConnections();
      }),
  };
}
